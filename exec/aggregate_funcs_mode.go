package exec

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakesql/lakesql/exec/expr"
	"github.com/lakesql/lakesql/planner"
)

// modeAcc is mode(x): each group's most frequent non-NULL value; of values
// that tie, the smallest (in min's order), so that the answer does not
// depend on the order of the rows. A group without a non-NULL value gives
// NULL. It counts the (group, value) pairs in a groupTable, as DISTINCT
// aggregates keep theirs.
type modeAcc struct {
	t      arrow.DataType
	ops    typedOps
	pairs  *groupTable
	counts []int64 // by pair id
	ids    []int32
}

func newModeAcc(t arrow.DataType) (accumulator, error) {
	ops, err := opsOf(t)
	if err != nil {
		return nil, err
	}
	pairs, err := newGroupTable([]arrow.DataType{planner.TypeInt, t})
	if err != nil {
		return nil, fmt.Errorf("mode: %w", err)
	}
	return &modeAcc{t: t, ops: ops, pairs: pairs}, nil
}

func (a *modeAcc) update(_ context.Context, arg arrow.Array, gids []int32, _ int) error {
	a.count(arg, gids, nil)
	return nil
}

// count adds weights[i] (1 when weights is nil) to the pair of row i's
// group and value, for the rows whose value is not NULL.
func (a *modeAcc) count(arg arrow.Array, gids []int32, weights []int64) {
	groupCol := expr.Int32Array(gids)
	defer groupCol.Release()
	a.ids = a.pairs.insert([]arrow.Array{groupCol, arg}, a.ids)
	a.counts = grow(a.counts, a.pairs.len())
	valid := nullMask(arg)
	for i, id := range a.ids {
		if !isValid(valid, i) {
			continue
		}
		if weights == nil {
			a.counts[id]++
		} else {
			a.counts[id] += weights[i]
		}
	}
}

func (a *modeAcc) result(mem memory.Allocator, groups int) arrow.Array {
	pairs := a.pairs.build(mem)
	defer expr.ReleaseArrays(pairs)
	gids, values := expr.FixedValues[int32](pairs[0]), pairs[1]
	compare := a.ops.comparator(values, values)
	best := make([]int32, groups) // the pair of each group's mode, -1 for none
	for g := range best {
		best[g] = -1
	}
	for p, g := range gids {
		n := a.counts[p]
		if n == 0 {
			continue // a NULL value, or a masked row's
		}
		if b := best[g]; b < 0 || n > a.counts[b] || n == a.counts[b] && compare(p, int(b)) < 0 {
			best[g] = int32(p)
		}
	}
	modes := a.ops.newSlots(a.t)
	modes.grow(groups)
	modes.load(values)
	for g, b := range best {
		if b >= 0 {
			modes.set(int32(g), int(b))
		}
	}
	return modes.build(mem, groups)
}

// merge adds other's counts of each (group, value) pair to a's.
func (a *modeAcc) merge(ctx context.Context, other accumulator, gmap []int32, _ int) error {
	o := other.(*modeAcc)
	pairs := o.pairs.build(allocator(ctx))
	defer expr.ReleaseArrays(pairs)
	var rows, gids []int32
	var weights []int64
	for p, g := range expr.FixedValues[int32](pairs[0]) {
		if gmap[g] >= 0 && o.counts[p] > 0 {
			rows, gids, weights = append(rows, int32(p)), append(gids, gmap[g]), append(weights, o.counts[p])
		}
	}
	values, err := expr.Take(ctx, allocator(ctx), pairs[1], rows)
	if err != nil {
		return err
	}
	defer values.Release()
	a.count(values, gids, weights)
	return nil
}
