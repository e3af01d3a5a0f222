package expr

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"

	"github.com/lakesql/lakesql/planner"
)

// listConcatKernel joins, row by row, the lists of its operands, which
// share a type. A NULL list is skipped (list_concat: NULLs only make [], as
// in DuckDB); strict makes any NULL list make the row NULL (||).
func listConcatKernel(strict bool) func(ev *evaluator, c *planner.Call, ops []operand) (arrow.Array, error) {
	return func(ev *evaluator, c *planner.Call, ops []operand) (arrow.Array, error) {
		lists, all, base, err := ev.concatElements(ops)
		if err != nil {
			return nil, err
		}
		defer releaseAll(lists, all)
		validity := ev.newBitmap()
		for i := range ev.n {
			nulls := 0
			for _, l := range lists {
				if l.IsNull(i) {
					nulls++
				}
			}
			if nulls == 0 || !strict {
				bitutil.SetBit(validity.Bytes(), i)
			}
		}
		return ev.gatherLists(c.T, validity, all, func(i int, dst []int32) []int32 {
			for k, l := range lists {
				if l.IsValid(i) {
					dst = appendElements(dst, l, i, base[k])
				}
			}
			return dst
		})
	}
}

// concatElements materializes list or map operands and concatenates the
// elements (entries) their rows use into all; element j of operand k is
// all's base[k]+j.
// The caller releases lists and all.
func (ev *evaluator) concatElements(ops []operand) (lists []array.ListLike, all arrow.Array, base []int32, err error) {
	lists = make([]array.ListLike, 0, len(ops))
	elems := make([]arrow.Array, len(ops))
	base = make([]int32, len(ops))
	at := int32(0) // where the next operand's elements start in all
	for k, o := range ops {
		a, err := ev.materialize(o)
		if err != nil {
			releaseAll(lists, nil)
			return nil, nil, nil, err
		}
		lists = append(lists, a.(array.ListLike))
		used, lo := usedElements(lists[k], ev.n)
		defer used.Release()
		elems[k], base[k] = used, at-int32(lo)
		at += int32(used.Len())
	}
	if all, err = array.Concatenate(elems, ev.mem); err != nil {
		releaseAll(lists, nil)
		return nil, nil, nil, err
	}
	return lists, all, base, nil
}

// releaseAll releases lists and, when not nil, all.
func releaseAll(lists []array.ListLike, all arrow.Array) {
	for _, l := range lists {
		l.Release()
	}
	if all != nil {
		all.Release()
	}
}
