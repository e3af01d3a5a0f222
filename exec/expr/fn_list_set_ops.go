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

// keyedList is an array operand with the keys of the elements its batch
// uses: element j's key is keys[j-lo].
type keyedList struct {
	*array.List
	used arrow.Array
	lo   int64
	keys [][]byte
}

func newKeyedList(o operand, n int) keyedList {
	a := o.arr.(*array.List)
	used, lo := usedElements(a, n)
	return keyedList{List: a, used: used, lo: lo, keys: NestedKeys(nil, used)}
}

// key is the key of element j.
func (k keyedList) key(j int64) []byte { return k.keys[j-k.lo] }

// arraySetKernel keeps the distinct elements of the first array that are
// (intersect) or are not (except) in the second, in the first's order; a
// NULL is a value like any other (Spark's array_intersect, array_except).
func arraySetKernel(intersect bool) func(ev *evaluator, c *planner.Call, ops []operand) (arrow.Array, error) {
	return func(ev *evaluator, c *planner.Call, ops []operand) (arrow.Array, error) {
		a, b := newKeyedList(ops[0], ev.n), newKeyedList(ops[1], ev.n)
		defer a.used.Release()
		defer b.used.Release()
		inB, seen := map[string]bool{}, map[string]bool{}
		return ev.gatherLists(c.T, ev.validity(ops...), a.used, func(i int, dst []int32) []int32 {
			clear(inB)
			clear(seen)
			start, end := b.ValueOffsets(i)
			for j := start; j < end; j++ {
				inB[string(b.key(j))] = true
			}
			start, end = a.ValueOffsets(i)
			for j := start; j < end; j++ {
				k := string(a.key(j))
				if !seen[k] && inB[k] == intersect {
					dst = append(dst, int32(j-a.lo))
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
	a, b := newKeyedList(ops[0], ev.n), newKeyedList(ops[1], ev.n)
	defer a.used.Release()
	defer b.used.Release()
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
			k := a.key(j)
			sawNull = sawNull || k[0] == 0 // NULL keys are {0x00}
			inA[string(k)] = true
		}
		anyIn, allIn := false, true
		startB, endB := b.ValueOffsets(i)
		for j := startB; j < endB; j++ {
			k := b.key(j)
			if k[0] == 0 {
				sawNull = true
				continue
			}
			in := inA[string(k)]
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
