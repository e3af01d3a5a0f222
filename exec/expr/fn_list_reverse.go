package expr

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/lakesql/lakesql/planner"
)

func init() {
	scalarFns[planner.FnListReverse] = scalarFn{1, 1, false, listReverseKernel}
}

// listReverseKernel reverses each array's elements.
func listReverseKernel(ev *evaluator, c *planner.Call, ops []operand) (arrow.Array, error) {
	a := ops[0].arr.(*array.List)
	return ev.gatherLists(c.T, ev.validity(ops[0]), a.ListValues(), func(i int, dst []int32) []int32 {
		start, end := a.ValueOffsets(i)
		for j := end - 1; j >= start; j-- {
			dst = append(dst, int32(j))
		}
		return dst
	})
}
