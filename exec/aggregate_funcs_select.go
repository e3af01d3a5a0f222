package exec

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// selectAcc keeps one input value per group: the first non-NULL one, replaced
// by a later value v when replace(compare(v, kept)) holds. That is min
// (c < 0), max (c > 0) and any_value (never); bool_and and bool_or are min
// and max of booleans. Its slots hold only non-NULL values, so a slot's
// validity says whether the group has seen one.
type selectAcc[T any] struct {
	slots[T]
	replace func(c int) bool
}

func newSelector(t arrow.DataType, replace func(c int) bool) (accumulator, error) {
	ops, err := opsOf(t)
	if err != nil {
		return nil, err
	}
	return ops.newSelector(t, replace), nil
}

func (a *selectAcc[T]) update(_ context.Context, arg arrow.Array, gids []int32, groups int) error {
	a.grow(groups)
	a.load(arg)
	// The slices in locals: the loop is min's and max's whole cost.
	batch, mask, vals, valid := a.batch, a.mask, a.vals, a.valid
	for i, g := range gids {
		if !isValid(mask, i) {
			continue
		}
		if !valid[g] || a.replace(a.e.compare(batch[i], vals[g])) {
			vals[g], valid[g] = a.e.own(batch[i]), true
		}
	}
	return nil
}

func (a *selectAcc[T]) result(mem memory.Allocator, groups int) arrow.Array {
	a.grow(groups)
	return a.build(mem, groups)
}

func (a *selectAcc[T]) merge(_ context.Context, other accumulator, gmap []int32, groups int) error {
	o := other.(*selectAcc[T])
	a.grow(groups)
	o.grow(len(gmap))
	for i, g := range gmap {
		if g < 0 || !o.valid[i] {
			continue
		}
		if !a.valid[g] || a.replace(o.compareSlot(int32(i), &a.slots, g)) {
			a.setSlot(g, &o.slots, int32(i))
		}
	}
	return nil
}
