package expr

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/lakesql/lakesql/planner"
)

func init() {
	scalarFns[planner.FnArrayRemove] = scalarFn{2, 2, false, arrayRemoveKernel}
	scalarFns[planner.FnArrayCompact] = scalarFn{1, 1, false, arrayRemoveKernel}
}

// arrayRemoveKernel drops from each array the elements equal to the value
// (Spark's array_remove, which keeps NULL elements) or, with no value, the
// NULL elements (array_compact).
func arrayRemoveKernel(ev *evaluator, c *planner.Call, ops []operand) (arrow.Array, error) {
	a := ops[0].arr.(*array.List)
	elems := a.ListValues()
	keep := func(j, _ int) bool { return elems.IsValid(j) }
	if c.Fn == planner.FnArrayRemove {
		probe, err := ev.materialize(ops[1])
		if err != nil {
			return nil, err
		}
		defer probe.Release()
		match := matcher(elems, probe)
		keep = func(j, i int) bool { return elems.IsNull(j) || !match(j, i) }
	}
	return ev.gatherLists(c.T, ev.validity(ops...), elems, func(i int, dst []int32) []int32 {
		start, end := a.ValueOffsets(i)
		for j := int(start); j < int(end); j++ {
			if keep(j, i) {
				dst = append(dst, int32(j))
			}
		}
		return dst
	})
}
