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
		lists := make([]*array.List, len(ops))
		elems := make([]arrow.Array, len(ops))
		defer func() {
			for _, l := range lists {
				if l != nil {
					l.Release()
				}
			}
		}()
		// base[k] is where list k's elements start among all of them.
		base := make([]int32, len(ops))
		for k, o := range ops {
			a, err := ev.materialize(o)
			if err != nil {
				return nil, err
			}
			lists[k] = a.(*array.List)
			elems[k] = lists[k].ListValues()
			if k > 0 {
				base[k] = base[k-1] + int32(elems[k-1].Len())
			}
		}
		all, err := array.Concatenate(elems, ev.mem)
		if err != nil {
			return nil, err
		}
		defer all.Release()
		offsets := NewBuffer(ev.mem, (ev.n+1)*arrow.Int32SizeBytes)
		offs := arrow.Int32Traits.CastFromBytes(offsets.Bytes())
		validity := ev.newBitmap()
		var rows []int32
		for i := range ev.n {
			offs[i] = int32(len(rows))
			nulls := 0
			for k, l := range lists {
				if l.IsNull(i) {
					nulls++
					continue
				}
				start, end := l.ValueOffsets(i)
				for j := start; j < end; j++ {
					rows = append(rows, base[k]+int32(j))
				}
			}
			if valid := nulls == 0 || !strict; valid {
				bitutil.SetBit(validity.Bytes(), i)
			} else {
				rows = rows[:offs[i]]
			}
		}
		offs[ev.n] = int32(len(rows))
		taken, err := Take(ev.ctx, ev.mem, all, rows)
		if err != nil {
			offsets.Release()
			validity.Release()
			return nil, err
		}
		defer taken.Release()
		return nestedArray(c.T, ev.n, validity, offsets, taken.Data()), nil
	}
}
