package exec

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakesql/lakesql/exec/expr"
	"github.com/lakesql/lakesql/planner"
)

// distinctAcc feeds an aggregate only the first occurrence of each value in
// each group (count(DISTINCT x), sum(DISTINCT x)). It keeps a table of the
// (group, value) pairs seen, so it is exact; approx_count_distinct uses it too.
// A NULL value reaches the inner aggregate (once) only with keepNulls, for
// array_agg, which keeps NULLs.
type distinctAcc struct {
	pairs     *groupTable
	inner     accumulator
	keepNulls bool
	ids       []int32
}

func newDistinctAcc(arg arrow.DataType, inner accumulator, keepNulls bool) (accumulator, error) {
	pairs, err := newGroupTable([]arrow.DataType{planner.TypeInt, arg})
	if err != nil {
		return nil, fmt.Errorf("DISTINCT: %w", err)
	}
	return &distinctAcc{pairs: pairs, inner: inner, keepNulls: keepNulls}, nil
}

func (a *distinctAcc) update(ctx context.Context, arg arrow.Array, gids []int32, groups int) error {
	groupCol := expr.Int32Array(gids)
	defer groupCol.Release()
	before := a.pairs.len()
	a.ids = a.pairs.insert([]arrow.Array{groupCol, arg}, a.ids)
	valid := nullMask(arg)
	var rows, newGids []int32
	next := int32(before)
	for i, id := range a.ids {
		if id == next {
			next++
			if a.keepNulls || isValid(valid, i) {
				rows = append(rows, int32(i))
				newGids = append(newGids, gids[i])
			}
		}
	}
	if len(rows) == 0 {
		return a.inner.update(ctx, arg, nil, groups) // only grows the state to groups
	}
	firsts, err := expr.Take(ctx, allocator(ctx), arg, rows)
	if err != nil {
		return err
	}
	defer firsts.Release()
	return a.inner.update(ctx, firsts, newGids, groups)
}

func (a *distinctAcc) result(mem memory.Allocator, groups int) arrow.Array {
	return a.inner.result(mem, groups)
}

// merge feeds a the (group, value) pairs other saw; those new to a reach
// its inner aggregate, as in update.
func (a *distinctAcc) merge(ctx context.Context, other accumulator, gmap []int32, groups int) error {
	o := other.(*distinctAcc)
	pairs := o.pairs.build(allocator(ctx))
	defer expr.ReleaseArrays(pairs)
	// Only the pairs of groups gmap keeps are fed on.
	var rows, gids []int32
	for i, g := range expr.FixedValues[int32](pairs[0]) {
		if gmap[g] >= 0 {
			rows = append(rows, int32(i))
			gids = append(gids, gmap[g])
		}
	}
	values, err := expr.Take(ctx, allocator(ctx), pairs[1], rows)
	if err != nil {
		return err
	}
	defer values.Release()
	return a.update(ctx, values, gids, groups)
}
