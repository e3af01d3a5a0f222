package exec

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakesql/lakesql/exec/expr"
)

// stringAggAcc is string_agg(x, sep): each group's non-NULL values joined
// by sep, in the order they come; NULL for a group without values.
type stringAggAcc struct {
	sep  string
	vals [][]byte
	has  []bool
}

func (a *stringAggAcc) update(_ context.Context, arg arrow.Array, gids []int32, groups int) error {
	a.vals, a.has = grow(a.vals, groups), grow(a.has, groups)
	strs, valid := expr.ArrayBytes(expr.ExtensionStorage(arg)), nullMask(arg)
	for i, g := range gids {
		if isValid(valid, i) {
			a.add(g, strs.At(i))
		}
	}
	return nil
}

// add appends one value (or a partial result) to group g.
func (a *stringAggAcc) add(g int32, v []byte) {
	if a.has[g] {
		a.vals[g] = append(a.vals[g], a.sep...)
	}
	a.vals[g] = append(a.vals[g], v...)
	a.has[g] = true
}

func (a *stringAggAcc) result(mem memory.Allocator, groups int) arrow.Array {
	a.vals, a.has = grow(a.vals, groups), grow(a.has, groups)
	return buildBytes(mem, arrow.BinaryTypes.String, a.vals[:groups], a.has[:groups])
}

func (a *stringAggAcc) merge(_ context.Context, other accumulator, gmap []int32, groups int) error {
	o := other.(*stringAggAcc)
	a.vals, a.has = grow(a.vals, groups), grow(a.has, groups)
	for i, g := range gmap {
		if g >= 0 && i < len(o.has) && o.has[i] {
			a.add(g, o.vals[i])
		}
	}
	return nil
}
