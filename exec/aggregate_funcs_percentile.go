package exec

import (
	"context"
	"math"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakesql/lakesql/exec/expr"
)

// Percentiles need every value of a group: the accumulators keep them, one
// slice per group, and sort each group's values once at the end. Memory is
// that of the aggregated column, as for a sort.

// percentileContAcc is percentile_cont (and median) over DOUBLE values:
// the value at position f·(n-1) of the sorted values, interpolated linearly
// between its two neighbours, as DuckDB, PostgreSQL and Spark compute it.
type percentileContAcc struct {
	fraction float64
	vals     [][]float64
}

func (a *percentileContAcc) update(_ context.Context, arg arrow.Array, gids []int32, groups int) error {
	a.vals = grow(a.vals, groups)
	vals, valid := expr.FixedValues[float64](arg), nullMask(arg)
	for i, g := range gids {
		if isValid(valid, i) {
			a.vals[g] = append(a.vals[g], vals[i])
		}
	}
	return nil
}

func (a *percentileContAcc) result(mem memory.Allocator, groups int) arrow.Array {
	a.vals = grow(a.vals, groups)
	out := make([]float64, groups)
	valid := make([]bool, groups)
	for g, vs := range a.vals[:groups] {
		if len(vs) == 0 {
			continue
		}
		slices.SortFunc(vs, compareFloat[float64])
		pos := a.fraction * float64(len(vs)-1)
		lo := int(math.Floor(pos))
		hi := min(lo+1, len(vs)-1)
		out[g] = vs[lo] + (pos-float64(lo))*(vs[hi]-vs[lo])
		valid[g] = true
	}
	return buildFixed(mem, arrow.PrimitiveTypes.Float64, out, valid)
}

// percentileDiscAcc is percentile_disc (and percentile_approx, answered
// exactly): the first of the sorted values whose cumulative share of the
// group reaches the fraction, a value of the group itself.
type percentileDiscAcc[T any] struct {
	e        elem[T]
	t        arrow.DataType
	fraction float64
	vals     [][]T
	batch    []T
}

func (a *percentileDiscAcc[T]) update(_ context.Context, arg arrow.Array, gids []int32, groups int) error {
	a.vals = grow(a.vals, groups)
	a.batch = a.e.values(a.batch, arg)
	valid := nullMask(arg)
	for i, g := range gids {
		if isValid(valid, i) {
			a.vals[g] = append(a.vals[g], a.e.own(a.batch[i]))
		}
	}
	return nil
}

func (a *percentileDiscAcc[T]) result(mem memory.Allocator, groups int) arrow.Array {
	a.vals = grow(a.vals, groups)
	out := make([]T, groups)
	valid := make([]bool, groups)
	for g, vs := range a.vals[:groups] {
		if len(vs) == 0 {
			continue
		}
		slices.SortFunc(vs, a.e.compare)
		k := discreteRank(a.fraction, len(vs))
		out[g], valid[g] = vs[k], true
	}
	return a.e.build(mem, a.t, out, valid)
}

// merge appends the values another worker kept for each group.
func (a *percentileContAcc) merge(_ context.Context, other accumulator, gmap []int32, groups int) error {
	o := other.(*percentileContAcc)
	a.vals = grow(a.vals, groups)
	o.vals = grow(o.vals, len(gmap))
	for i, g := range gmap {
		a.vals[g] = append(a.vals[g], o.vals[i]...)
	}
	return nil
}

// merge appends the values another worker kept (and owns) for each group.
func (a *percentileDiscAcc[T]) merge(_ context.Context, other accumulator, gmap []int32, groups int) error {
	o := other.(*percentileDiscAcc[T])
	a.vals = grow(a.vals, groups)
	o.vals = grow(o.vals, len(gmap))
	for i, g := range gmap {
		a.vals[g] = append(a.vals[g], o.vals[i]...)
	}
	return nil
}

// discreteRank is the position (from 0) of percentile_disc(fraction) among
// n sorted values: the first position i (from 1) with i/n >= fraction.
// fraction·n in floating point can land just above a whole number
// (0.3·10 is 3.0000000000000004), so the position before is checked
// against fraction itself.
func discreteRank(fraction float64, n int) int {
	k := int(math.Ceil(fraction * float64(n)))
	if k > 1 && float64(k-1)/float64(n) >= fraction {
		k--
	}
	return max(k-1, 0)
}
