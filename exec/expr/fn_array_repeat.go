package expr

import (
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakesql/lakesql/planner"
)

func init() {
	scalarFns[planner.FnArrayRepeat] = scalarFn{2, 2, true, arrayRepeatKernel}
}

// arrayRepeatKernel builds arrays of count copies of the value (Spark's
// array_repeat): a NULL value is repeated, a NULL count gives NULL and a
// negative one [].
func arrayRepeatKernel(ev *evaluator, c *planner.Call, ops []operand) (arrow.Array, error) {
	if ops[1].isNullLiteral() {
		return ev.allNull(c.T), nil
	}
	v, err := ev.materialize(ops[0])
	if err != nil {
		return nil, err
	}
	defer v.Release()
	out, gatherErr := ev.gatherLists(c.T, ev.validity(ops[1]), v, func(i int, dst []int32) []int32 {
		count, _ := intAt(ops[1], i)
		if count > math.MaxInt32-int64(len(dst)) {
			err = fmt.Errorf("array_repeat: more than %d elements in one batch", math.MaxInt32)
			return dst
		}
		for range count {
			dst = append(dst, int32(i))
		}
		return dst
	})
	if gatherErr != nil {
		return nil, gatherErr
	}
	return releaseOnError(out, err)
}
