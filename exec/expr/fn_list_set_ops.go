package expr

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/lakesql/lakesql/planner"
)

// Functions comparing the elements of two arrays of one type, by their
// nested keys (nested_keys.go), so that any orderable element type works.

func init() {
	scalarFns[planner.FnArrayIntersect] = scalarFn{2, 2, false, arraySetKernel(true)}
	scalarFns[planner.FnArrayExcept] = scalarFn{2, 2, false, arraySetKernel(false)}
	scalarFns[planner.FnListHasAny] = scalarFn{2, 2, false, listHasKernel}
	scalarFns[planner.FnListHasAll] = scalarFn{2, 2, false, listHasKernel}
	scalarFns[planner.FnArraysOverlap] = scalarFn{2, 2, false, listHasKernel}
}

// listPair reads the two array operands and their elements' keys.
func listPair(ops []operand) (a, b *array.List, ka, kb [][]byte) {
	a, b = ops[0].arr.(*array.List), ops[1].arr.(*array.List)
	return a, b, NestedKeys(nil, a.ListValues()), NestedKeys(nil, b.ListValues())
}

// arraySetKernel keeps the distinct elements of the first array that are
// (intersect) or are not (except) in the second, in the first's order; a
// NULL is a value like any other (Spark's array_intersect, array_except).
func arraySetKernel(intersect bool) func(ev *evaluator, c *planner.Call, ops []operand) (arrow.Array, error) {
	return func(ev *evaluator, c *planner.Call, ops []operand) (arrow.Array, error) {
		a, b, ka, kb := listPair(ops)
		inB, seen := map[string]bool{}, map[string]bool{}
		return ev.gatherLists(c.T, ev.validity(ops...), a.ListValues(), func(i int, dst []int32) []int32 {
			clear(inB)
			clear(seen)
			start, end := b.ValueOffsets(i)
			for j := start; j < end; j++ {
				inB[string(kb[j])] = true
			}
			start, end = a.ValueOffsets(i)
			for j := start; j < end; j++ {
				k := string(ka[j])
				if !seen[k] && inB[k] == intersect {
					dst = append(dst, int32(j))
				}
				seen[k] = true
			}
			return dst
		})
	}
}

// listHasKernel tells whether the first array holds any (list_has_any,
// arrays_overlap) or all (list_has_all) of the second's non-NULL elements.
// arrays_overlap is NULL rather than FALSE when both arrays are non-empty
// and either holds a NULL, which might be a common element.
func listHasKernel(ev *evaluator, c *planner.Call, ops []operand) (arrow.Array, error) {
	a, b, ka, kb := listPair(ops)
	inA := map[string]bool{}
	out := array.NewBooleanBuilder(ev.mem)
	defer out.Release()
	out.Reserve(ev.n)
	for i := range ev.n {
		if a.IsNull(i) || b.IsNull(i) {
			out.AppendNull()
			continue
		}
		clear(inA)
		sawNull := false
		startA, endA := a.ValueOffsets(i)
		for j := startA; j < endA; j++ {
			sawNull = sawNull || ka[j][0] == 0 // NULL keys are {0x00}
			inA[string(ka[j])] = true
		}
		anyIn, allIn := false, true
		startB, endB := b.ValueOffsets(i)
		for j := startB; j < endB; j++ {
			if kb[j][0] == 0 {
				sawNull = true
				continue
			}
			in := inA[string(kb[j])]
			anyIn, allIn = anyIn || in, allIn && in
		}
		switch c.Fn {
		case planner.FnListHasAll:
			out.UnsafeAppend(allIn)
		case planner.FnArraysOverlap:
			if !anyIn && sawNull && endA > startA && endB > startB {
				out.AppendNull()
			} else {
				out.UnsafeAppend(anyIn)
			}
		default:
			out.UnsafeAppend(anyIn)
		}
	}
	return out.NewArray(), nil
}
