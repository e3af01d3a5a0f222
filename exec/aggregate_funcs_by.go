package exec

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// byAcc is max_by(x, y) and min_by(x, y): per group, the x of the row
// whose y wins (better(compare(y, kept y)) holds: the largest for
// max_by, the smallest for min_by). Rows whose y is NULL are skipped, a
// NULL x is kept like any other; a group without a non-NULL y gives NULL.
// When ys tie, the first row keeps its place, so that one core's answer
// is that of the first of the tied rows in input order. The argument is
// a struct of x and y (planner.bindAggregateBy); a NULL struct row (a
// masked one, hash_aggregate_where.go) is skipped too.
type byAcc struct {
	x, y   valueSlots
	better func(c int) bool
	has    []bool
}

func newByAcc(arg arrow.DataType, better func(c int) bool) (accumulator, error) {
	st := arg.(*arrow.StructType)
	xOps, err := opsOf(st.Field(0).Type)
	if err != nil {
		return nil, err
	}
	yOps, err := opsOf(st.Field(1).Type)
	if err != nil {
		return nil, err
	}
	return &byAcc{x: xOps.newSlots(st.Field(0).Type), y: yOps.newSlots(st.Field(1).Type), better: better}, nil
}

func (a *byAcc) grow(groups int) {
	a.has = grow(a.has, groups)
	a.x.grow(groups)
	a.y.grow(groups)
}

func (a *byAcc) update(_ context.Context, arg arrow.Array, gids []int32, groups int) error {
	a.grow(groups)
	st := arg.(*array.Struct)
	a.x.load(st.Field(0))
	a.y.load(st.Field(1))
	rowValid, yValid := nullMask(st), nullMask(st.Field(1))
	for i, g := range gids {
		if !isValid(rowValid, i) || !isValid(yValid, i) {
			continue
		}
		if !a.has[g] || a.better(a.y.compare(i, g)) {
			a.y.set(g, i)
			a.x.set(g, i)
			a.has[g] = true
		}
	}
	return nil
}

func (a *byAcc) result(mem memory.Allocator, groups int) arrow.Array {
	a.grow(groups)
	return a.x.build(mem, groups)
}

// merge keeps, per group, the winner of both states' rows; on a tie, a's.
func (a *byAcc) merge(_ context.Context, other accumulator, gmap []int32, groups int) error {
	o := other.(*byAcc)
	a.grow(groups)
	o.grow(len(gmap))
	for i, g := range gmap {
		if g < 0 || !o.has[i] {
			continue
		}
		if !a.has[g] || a.better(o.y.compareSlot(int32(i), a.y, g)) {
			a.y.setSlot(g, o.y, int32(i))
			a.x.setSlot(g, o.x, int32(i))
			a.has[g] = true
		}
	}
	return nil
}

// valueSlots keeps one value (or NULL) of a column type per group, for
// the aggregates that pick one row's value; opsOf gives the typed one.
type valueSlots interface {
	grow(groups int)
	// load makes arr the batch that compare and set read.
	load(arr arrow.Array)
	// compare orders row i of the batch against group g's value.
	compare(i int, g int32) int
	// set makes row i of the batch, NULL or not, group g's value.
	set(g int32, i int)
	// compareSlot orders group i's value against group g's of other, a
	// valueSlots of the same type; setSlot copies it into group g.
	compareSlot(i int32, other valueSlots, g int32) int
	setSlot(g int32, other valueSlots, i int32)
	// build returns groups 0 … groups-1; never set or NULL ones are NULL.
	build(mem memory.Allocator, groups int) arrow.Array
}

type slots[T any] struct {
	e     elem[T]
	t     arrow.DataType
	vals  []T
	valid []bool
	batch []T
	mask  []byte // the batch's nullMask
}

func (s *slots[T]) grow(groups int) {
	s.vals, s.valid = grow(s.vals, groups), grow(s.valid, groups)
}

func (s *slots[T]) load(arr arrow.Array) {
	s.batch, s.mask = s.e.values(s.batch, arr), nullMask(arr)
}

func (s *slots[T]) compare(i int, g int32) int { return s.e.compare(s.batch[i], s.vals[g]) }

func (s *slots[T]) set(g int32, i int) {
	if s.valid[g] = isValid(s.mask, i); s.valid[g] {
		s.vals[g] = s.e.own(s.batch[i])
	}
}

func (s *slots[T]) compareSlot(i int32, other valueSlots, g int32) int {
	return s.e.compare(s.vals[i], other.(*slots[T]).vals[g])
}

// setSlot takes other's value, which other, about to be discarded, owns.
func (s *slots[T]) setSlot(g int32, other valueSlots, i int32) {
	o := other.(*slots[T])
	s.vals[g], s.valid[g] = o.vals[i], o.valid[i]
}

func (s *slots[T]) build(mem memory.Allocator, groups int) arrow.Array {
	return s.e.build(mem, s.t, s.vals[:groups], s.valid[:groups])
}
