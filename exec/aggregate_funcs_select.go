package exec

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// selectAcc keeps one input value per group: the first non-NULL one, replaced
// by a later value v when replace(compare(v, kept)) holds. That is min
// (c < 0), max (c > 0) and any_value (never); bool_and and bool_or are min
// and max of booleans.
type selectAcc[T any] struct {
	e       elem[T]
	t       arrow.DataType
	replace func(c int) bool
	vals    []T
	seen    []bool
	batch   []T // the current batch's values, reused across batches
}

func newSelector(t arrow.DataType, replace func(c int) bool) (accumulator, error) {
	ops, err := opsOf(t)
	if err != nil {
		return nil, err
	}
	return ops.newSelector(t, replace), nil
}

func (a *selectAcc[T]) update(_ context.Context, arg arrow.Array, gids []int32, groups int) error {
	a.vals = grow(a.vals, groups)
	a.seen = grow(a.seen, groups)
	a.batch = a.e.values(a.batch, arg)
	vals, valid := a.batch, nullMask(arg)
	for i, g := range gids {
		if !isValid(valid, i) {
			continue
		}
		if !a.seen[g] || a.replace(a.e.compare(vals[i], a.vals[g])) {
			a.vals[g] = a.e.own(vals[i])
			a.seen[g] = true
		}
	}
	return nil
}

func (a *selectAcc[T]) result(mem memory.Allocator, groups int) arrow.Array {
	a.vals = grow(a.vals, groups)
	a.seen = grow(a.seen, groups)
	return a.e.build(mem, a.t, a.vals[:groups], a.seen[:groups])
}

func (a *selectAcc[T]) merge(_ context.Context, other accumulator, gmap []int32, groups int) error {
	o := other.(*selectAcc[T])
	a.vals, a.seen = grow(a.vals, groups), grow(a.seen, groups)
	o.vals, o.seen = grow(o.vals, len(gmap)), grow(o.seen, len(gmap))
	for i, g := range gmap {
		if g < 0 {
			continue
		}
		if o.seen[i] && (!a.seen[g] || a.replace(a.e.compare(o.vals[i], a.vals[g]))) {
			a.vals[g] = o.vals[i] // owned by o, which is discarded
			a.seen[g] = true
		}
	}
	return nil
}
