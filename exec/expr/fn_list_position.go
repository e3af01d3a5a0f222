package expr

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/lakesql/lakesql/planner"
)

func init() {
	scalarFns[planner.FnListPosition] = scalarFn{2, 2, true, listPositionKernel}
	scalarFns[planner.FnArrayPosition] = scalarFn{2, 2, true, listPositionKernel}
}

// listPositionKernel finds the 1-based index of the first element equal to
// the value. DuckDB's list_position finds a NULL value among NULL
// elements and gives NULL when the value is absent; Spark's
// array_position gives NULL for a NULL value and 0 when it is absent.
func listPositionKernel(ev *evaluator, c *planner.Call, ops []operand) (arrow.Array, error) {
	if ops[0].isNullLiteral() {
		return ev.allNull(c.T), nil
	}
	spark := c.Fn == planner.FnArrayPosition
	a := ops[0].arr.(*array.List)
	elems := a.ListValues()
	probe, err := ev.materialize(ops[1])
	if err != nil {
		return nil, err
	}
	defer probe.Release()
	match := matcher(elems, probe)
	b := array.NewInt64Builder(ev.mem)
	defer b.Release()
	b.Reserve(ev.n)
	for i := range ev.n {
		lookForNull := probe.IsNull(i)
		if a.IsNull(i) || lookForNull && spark {
			b.AppendNull()
			continue
		}
		start, end := a.ValueOffsets(i)
		found := int64(0)
		for j := start; j < end && found == 0; j++ {
			if elems.IsNull(int(j)) == lookForNull && (lookForNull || match(int(j), i)) {
				found = j - start + 1
			}
		}
		if found == 0 && !spark {
			b.AppendNull()
		} else {
			b.UnsafeAppend(found)
		}
	}
	return b.NewArray(), nil
}
