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

// listAcc is array_agg(x) (DuckDB's list) and collect_list(x): each
// group's values as an ARRAY, in the order they come. array_agg keeps
// NULL values, as DuckDB and Trino do, and is NULL for a group without
// rows (only FILTER or an empty global aggregate makes one); Spark's
// collect_list leaves NULLs out and gives [] for a group without values.
// Values are kept typed, one slice per group, as percentile_disc keeps
// them, and the result's elements are built from them in one go. With
// ORDER BY, the argument is a struct of the value and the keys
// (planner.AggCall.Order) and each value keeps a sort key, made and
// compared as string_agg's (appendSortKey); values with equal keys keep
// the order they came in.
type listAcc[T any] struct {
	e         elem[T]
	t         *arrow.ListType
	keepNulls bool
	order     []planner.AggOrder
	vals      [][]T
	valid     [][]bool   // per value: false for a NULL (array_agg only)
	keys      [][][]byte // per value, with ORDER BY
	batch     []T
}

func (a *listAcc[T]) grow(groups int) {
	a.vals, a.valid = grow(a.vals, groups), grow(a.valid, groups)
	if a.order != nil {
		a.keys = grow(a.keys, groups)
	}
}

func (a *listAcc[T]) update(_ context.Context, arg arrow.Array, gids []int32, groups int) error {
	a.grow(groups)
	values, rowMask, keys := orderedArg(arg, a.order)
	a.batch = a.e.values(a.batch, values)
	mask := nullMask(values)
	for i, g := range gids {
		ok := isValid(mask, i)
		if !isValid(rowMask, i) || !ok && !a.keepNulls {
			continue
		}
		var v T
		if ok {
			v = a.e.own(a.batch[i])
		}
		a.vals[g] = append(a.vals[g], v)
		a.valid[g] = append(a.valid[g], ok)
		if keys != nil {
			a.keys[g] = append(a.keys[g], keys.appendRow(nil, i))
		}
	}
	return nil
}

// sortGroup orders group g's values by their keys. The keys stay, in the
// same order, so that values added later sort in among them: a window's
// running frame reads the result after every few rows.
func (a *listAcc[T]) sortGroup(g int) {
	keys := a.keys[g]
	perm := make([]int, len(keys))
	for i := range perm {
		perm[i] = i
	}
	slices.SortStableFunc(perm, func(i, j int) int { return bytes.Compare(keys[i], keys[j]) })
	vals, valid, sorted := make([]T, len(perm)), make([]bool, len(perm)), make([][]byte, len(perm))
	for i, p := range perm {
		vals[i], valid[i], sorted[i] = a.vals[g][p], a.valid[g][p], keys[p]
	}
	a.vals[g], a.valid[g], a.keys[g] = vals, valid, sorted
}

func (a *listAcc[T]) result(mem memory.Allocator, groups int) arrow.Array {
	a.grow(groups)
	total := 0
	for g, vs := range a.vals[:groups] {
		total += len(vs)
		if a.order != nil {
			a.sortGroup(g)
		}
	}
	flat, flatValid := make([]T, 0, total), make([]bool, 0, total)
	offsets := expr.NewBuffer(mem, (groups+1)*4)
	defer offsets.Release()
	offs := arrow.GetData[int32](offsets.Bytes())
	valid := make([]bool, groups)
	for g, vs := range a.vals[:groups] {
		flat, flatValid = append(flat, vs...), append(flatValid, a.valid[g]...)
		offs[g+1] = int32(len(flat))
		valid[g] = len(vs) > 0 || !a.keepNulls
	}
	elems := a.e.build(mem, a.t.Elem(), flat, flatValid)
	defer elems.Release()
	validity, nulls := validityBuffer(mem, valid), 0
	if validity != nil {
		defer validity.Release()
		nulls = array.UnknownNullCount
	}
	data := array.NewData(a.t, groups, []*memory.Buffer{validity, offsets}, []arrow.ArrayData{elems.Data()}, nulls, 0)
	defer data.Release()
	return array.MakeFromData(data)
}

// merge appends, per group, the values another worker kept (and owns).
func (a *listAcc[T]) merge(_ context.Context, other accumulator, gmap []int32, groups int) error {
	o := other.(*listAcc[T])
	a.grow(groups)
	o.grow(len(gmap))
	for i, g := range gmap {
		if g >= 0 {
			a.vals[g] = append(a.vals[g], o.vals[i]...)
			a.valid[g] = append(a.valid[g], o.valid[i]...)
			if a.order != nil {
				a.keys[g] = append(a.keys[g], o.keys[i]...)
			}
		}
	}
	return nil
}
