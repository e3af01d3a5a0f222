package exec

import (
	"bytes"
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakesql/lakesql/planner"
)

// firstAcc is first(x) and last(x): per group, the value of one row, NULL
// or not. Without ORDER BY, first keeps the first row's and last takes
// every later row's. With ORDER BY (the argument is then a struct of the
// value and the keys, planner.AggCall.Order), each group also keeps the
// kept row's sort key, made as string_agg's (appendSortKey), and a row
// replaces it when its key is smaller (first) or larger (last): of rows
// that tie, the first stays, as in DuckDB, which answers these with
// arg_min_null and arg_max_null over the sort key.
type firstAcc struct {
	x       valueSlots
	order   []planner.AggOrder
	replace func(c int) bool // c compares a row's sort key with the kept one's
	has     []bool
	keys    [][]byte // per group, with ORDER BY
	key     []byte   // scratch for a row's sort key
}

func newFirstAcc(call *planner.AggCall) (accumulator, error) {
	t := call.Arg.Type()
	if len(call.Order) > 0 {
		t = t.(*arrow.StructType).Field(0).Type
	}
	ops, err := opsOf(t)
	if err != nil {
		return nil, err
	}
	a := &firstAcc{x: ops.newSlots(t), order: call.Order}
	switch {
	case call.Fn == planner.AggFirst:
		a.replace = func(c int) bool { return c < 0 }
	case len(call.Order) > 0:
		a.replace = func(c int) bool { return c > 0 }
	default: // last: every row's key is the same empty one, and it replaces
		a.replace = func(int) bool { return true }
	}
	return a, nil
}

func (a *firstAcc) grow(groups int) {
	a.has = grow(a.has, groups)
	a.x.grow(groups)
	if a.order != nil {
		a.keys = grow(a.keys, groups)
	}
}

func (a *firstAcc) update(_ context.Context, arg arrow.Array, gids []int32, groups int) error {
	a.grow(groups)
	values, rowMask, keys := orderedArg(arg, a.order)
	a.x.load(values)
	for i, g := range gids {
		if !isValid(rowMask, i) {
			continue
		}
		c := 0
		if keys != nil {
			a.key = keys.appendRow(a.key[:0], i)
			c = bytes.Compare(a.key, a.keys[g])
		}
		if !a.has[g] || a.replace(c) {
			a.x.set(g, i)
			a.has[g] = true
			if keys != nil {
				a.keys[g] = append(a.keys[g][:0], a.key...)
			}
		}
	}
	return nil
}

func (a *firstAcc) result(mem memory.Allocator, groups int) arrow.Array {
	a.grow(groups)
	return a.x.build(mem, groups)
}

// merge keeps, per group, the row that wins between both states' as
// update would, other's coming after a's.
func (a *firstAcc) merge(_ context.Context, other accumulator, gmap []int32, groups int) error {
	o := other.(*firstAcc)
	a.grow(groups)
	o.grow(len(gmap))
	for i, g := range gmap {
		if g < 0 || !o.has[i] {
			continue
		}
		c := 0
		if a.order != nil {
			c = bytes.Compare(o.keys[i], a.keys[g])
		}
		if !a.has[g] || a.replace(c) {
			a.x.setSlot(g, o.x, int32(i))
			a.has[g] = true
			if a.order != nil {
				a.keys[g] = o.keys[i]
			}
		}
	}
	return nil
}
