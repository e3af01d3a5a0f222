package exec

import (
	"bytes"
	"context"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakesql/lakesql/exec/expr"
	"github.com/lakesql/lakesql/planner"
)

// orderedStringAggAcc is string_agg(x, sep ORDER BY k1 [DESC], …), MySQL's
// GROUP_CONCAT(x ORDER BY …): its argument is a struct of the value and
// the keys (planner.AggCall.Order). Each group keeps its values with one
// sort key each, and joins them in key order at the end; values with equal
// keys keep the order they came in.
//
// A sort key is the keys' order-preserving encodings (expr.NestedKeys) one
// after the other: each is self-delimiting, so comparing the concatenation
// compares key by key. A DESC key's bytes are complemented, which reverses
// its order for the same reason; a NULL key's marker byte is chosen so that
// NULLs land first or last as asked.
type orderedStringAggAcc struct {
	sep   string
	order []planner.AggOrder
	vals  [][]keyedValue
}

type keyedValue struct{ key, value []byte }

func (a *orderedStringAggAcc) update(_ context.Context, arg arrow.Array, gids []int32, groups int) error {
	a.vals = grow(a.vals, groups)
	st := arg.(*array.Struct)
	values := expr.ArrayBytes(expr.ExtensionStorage(st.Field(0)))
	keys := newOrderKeys(st, a.order)
	for i, g := range gids {
		if st.IsNull(i) || st.Field(0).IsNull(i) {
			continue
		}
		a.vals[g] = append(a.vals[g], keyedValue{key: keys.appendRow(nil, i), value: bytes.Clone(values.At(i))})
	}
	return nil
}

func (a *orderedStringAggAcc) result(mem memory.Allocator, groups int) arrow.Array {
	a.vals = grow(a.vals, groups)
	out, has := make([][]byte, groups), make([]bool, groups)
	for g, vs := range a.vals[:groups] {
		slices.SortStableFunc(vs, func(x, y keyedValue) int { return bytes.Compare(x.key, y.key) })
		for i, v := range vs {
			if i > 0 {
				out[g] = append(out[g], a.sep...)
			}
			out[g] = append(out[g], v.value...)
		}
		has[g] = len(vs) > 0
	}
	return buildBytes(mem, arrow.BinaryTypes.String, out, has)
}

func (a *orderedStringAggAcc) merge(_ context.Context, other accumulator, gmap []int32, groups int) error {
	o := other.(*orderedStringAggAcc)
	a.vals = grow(a.vals, groups)
	for i, g := range gmap {
		if g >= 0 && i < len(o.vals) {
			a.vals[g] = append(a.vals[g], o.vals[i]...)
		}
	}
	return nil
}
