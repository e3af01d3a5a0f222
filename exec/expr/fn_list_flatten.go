package expr

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/lakesql/lakesql/planner"
)

func init() {
	scalarFns[planner.FnFlatten] = scalarFn{1, 1, false, flattenKernel}
}

// flattenKernel joins each array's inner arrays, skipping NULL ones
// (DuckDB's flatten).
func flattenKernel(ev *evaluator, c *planner.Call, ops []operand) (arrow.Array, error) {
	outer := ops[0].arr.(*array.List)
	inner := outer.ListValues().(*array.List)
	return ev.gatherLists(c.T, ev.validity(ops[0]), inner.ListValues(), func(i int, dst []int32) []int32 {
		start, end := outer.ValueOffsets(i)
		for k := int(start); k < int(end); k++ {
			if inner.IsValid(k) {
				dst = appendElements(dst, inner, k, 0)
			}
		}
		return dst
	})
}
