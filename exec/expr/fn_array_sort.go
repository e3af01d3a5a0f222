package expr

import (
	"bytes"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/lakesql/lakesql/planner"
)

// arraySortKernel sorts each array's elements ascending, or descending
// when the call's second operand is FALSE, with NULLs last either way (Spark's
// and Trino's array_sort, DuckDB's list_sort) unless a third operand TRUE
// puts them first (Spark's sort_array ascending). Elements compare by their
// nested keys (nested_keys.go), so arrays of structs or arrays sort as
// they do in ORDER BY.
func arraySortKernel(ev *evaluator, c *planner.Call, ops []operand) (arrow.Array, error) {
	desc := len(ops) > 1 && ops[1].lit != nil && !ops[1].lit.Value.(bool)
	nullsFirst := len(ops) > 2 && ops[2].lit != nil && ops[2].lit.Value.(bool)
	return ev.pickElements(c, ops[0], func(keys [][]byte, row []int32) []int32 {
		slices.SortStableFunc(row, func(x, y int32) int {
			kx, ky := keys[x], keys[y]
			if nx, ny := kx[0] == 0, ky[0] == 0; nx || ny { // NULL keys are {0x00}
				if nullsFirst {
					return boolCompare(ny, nx)
				}
				return boolCompare(nx, ny)
			}
			if desc {
				return bytes.Compare(ky, kx)
			}
			return bytes.Compare(kx, ky)
		})
		return row
	})
}

// boolCompare orders false before true.
func boolCompare(x, y bool) int {
	switch {
	case x == y:
		return 0
	case x:
		return 1
	}
	return -1
}

// arrayDistinctKernel keeps the first of each run of equal elements of an
// array, in order, one NULL included (Spark's and Trino's array_distinct).
func arrayDistinctKernel(ev *evaluator, c *planner.Call, ops []operand) (arrow.Array, error) {
	seen := map[string]bool{}
	return ev.pickElements(c, ops[0], func(keys [][]byte, row []int32) []int32 {
		clear(seen)
		return slices.DeleteFunc(row, func(j int32) bool {
			dup := seen[string(keys[j])]
			seen[string(keys[j])] = true
			return dup
		})
	})
}

// pickElements builds arrays of the type of o's from the elements pick
// keeps of each (a NULL array stays NULL); pick gets the keys of the
// elements the batch uses and the indices among them of one array's
// elements, which it may reorder or shorten.
func (ev *evaluator) pickElements(c *planner.Call, o operand, pick func(keys [][]byte, row []int32) []int32) (arrow.Array, error) {
	a := o.arr.(*array.List)
	used, lo := usedElements(a, ev.n)
	defer used.Release()
	keys := NestedKeys(nil, used)
	var row []int32
	return ev.gatherLists(c.T, ev.validity(o), used, func(i int, dst []int32) []int32 {
		row = appendElements(row[:0], a, i, int32(-lo))
		return append(dst, pick(keys, row)...)
	})
}
