package expr

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/value"
)

// formatTimeKernel formats dates and timestamps with the call's constant
// pattern, compiled once per batch (the binder checked it).
func formatTimeKernel(ev *evaluator, c *planner.Call, ops []operand) (arrow.Array, error) {
	if ops[1].lit == nil || ops[2].lit == nil {
		return nil, fmt.Errorf("%s: the dialect and pattern must be constants", c)
	}
	tf, err := value.CompileTimeFormat(ops[1].lit.Value.(string), ops[2].lit.Value.(string))
	if err != nil {
		return nil, wrapError(c, err)
	}
	x := newInstantVec(ops[0])
	return ev.stringRows(ops, func(dst []byte, i int) []byte {
		return tf.AppendFormat(dst, utcTime(x.At(i)))
	}), nil
}
