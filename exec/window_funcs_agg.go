package exec

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakesql/lakesql/exec/expr"
	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/sql"
	"github.com/lakesql/lakesql/value"
)

// frameAggregate computes count, sum, avg, min or max over every row's
// frame. NULL arguments are skipped, as in GROUP BY aggregates.
func frameAggregate(ctx context.Context, call *planner.WindowCall, r *windowRows, batch arrow.RecordBatch, mem memory.Allocator) (arrow.Array, error) {
	if len(call.Args) == 0 { // count(*)
		counts, err := foldFrames(r, call.Frame, countMonoid(nil))
		return buildFixed(mem, planner.TypeBigint, counts, nil), err
	}
	arg, err := expr.Eval(ctx, call.Args[0], batch, mem)
	if err != nil {
		return nil, err
	}
	defer arg.Release()
	switch call.Fn {
	case planner.AggCount:
		counts, err := foldFrames(r, call.Frame, countMonoid(nullMask(arg)))
		return buildFixed(mem, planner.TypeBigint, counts, nil), err
	case planner.AggMin, planner.AggMax:
		return extremeFrames(ctx, call, r, arg, mem)
	}
	switch t := arg.DataType().(type) {
	case *arrow.Int64Type:
		return sumFrames(call, r, arg, addInt64, func(v int64) float64 { return float64(v) }, mem)
	case *arrow.Float64Type:
		return sumFrames(call, r, arg, addFloat64, func(v float64) float64 { return v }, mem)
	case *arrow.Decimal128Type:
		return sumFrames(call, r, arg, addDecimal, func(v decimal128.Num) float64 { return value.DecimalToFloat64(v, t.Scale) }, mem)
	}
	return nil, fmt.Errorf("%s of %s", call.Fn, planner.TypeString(arg.DataType()))
}

// monoid folds input rows into states of type S, whose zero value is the
// state of no rows: leaf is the state of one row, merge combines the states
// of two adjacent ranges of positions.
type monoid[S any] struct {
	leaf  func(row int32) S
	merge func(a, b S) (S, error)
}

// countMonoid counts the rows that valid (a nullMask) marks valid.
func countMonoid(valid []byte) monoid[int64] {
	return monoid[int64]{
		leaf: func(row int32) int64 {
			if isValid(valid, int(row)) {
				return 1
			}
			return 0
		},
		merge: func(a, b int64) (int64, error) { return a + b, nil },
	}
}

// foldFrames returns the fold of every row's frame, by input row. Frames
// that start at the partition start grow with the position, so one running
// state serves them in O(n); other frames also shrink at the start, or
// have rows excluded, and a segment tree answers each of their (at most
// three) runs in O(log n) without needing an inverse of merge (which min
// and max lack, and which floating-point sums get wrong).
func foldFrames[S any](r *windowRows, f planner.WindowFrame, m monoid[S]) ([]S, error) {
	out := make([]S, len(r.perm))
	var tree segmentTree[S]
	for ps, pe := range r.partitions() {
		var err error
		if f.Start.Kind == sql.UnboundedPreceding && f.Exclude == sql.ExcludeNoOthers {
			err = foldRunning(r, f, m, ps, pe, out)
		} else {
			err = tree.foldPartition(r, f, m, ps, pe, out)
		}
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// foldRunning folds the frames of partition [ps, pe), which all start at ps.
func foldRunning[S any](r *windowRows, f planner.WindowFrame, m monoid[S], ps, pe int, out []S) error {
	var acc S
	next := ps // the frame so far is [ps, next)
	for k := ps; k < pe; k++ {
		for hi := r.span(&f, k, ps, pe).hi; next < hi; next++ {
			var err error
			if acc, err = m.merge(acc, m.leaf(r.perm[next])); err != nil {
				return err
			}
		}
		out[r.perm[k]] = acc
	}
	return nil
}

// segmentTree holds the folds of one partition's positions in a bottom-up
// binary tree: leaves at size…2·size-1, node i folding nodes 2i and 2i+1.
type segmentTree[S any] struct {
	nodes []S
	size  int
	m     monoid[S]
}

// foldPartition builds the tree over partition [ps, pe) and folds each
// position's frame with it.
func (t *segmentTree[S]) foldPartition(r *windowRows, f planner.WindowFrame, m monoid[S], ps, pe int, out []S) error {
	t.m, t.size = m, pe-ps
	t.nodes = grow(t.nodes[:0], 2*t.size)
	for i, row := range r.perm[ps:pe] {
		t.nodes[t.size+i] = m.leaf(row)
	}
	for i := t.size - 1; i >= 1; i-- {
		var err error
		if t.nodes[i], err = m.merge(t.nodes[2*i], t.nodes[2*i+1]); err != nil {
			return err
		}
	}
	for k := ps; k < pe; k++ {
		span := r.span(&f, k, ps, pe)
		if f.Exclude == sql.ExcludeNoOthers { // one run, the common case kept quick
			s, err := t.fold(span.lo-ps, span.hi-ps)
			if err != nil {
				return err
			}
			out[r.perm[k]] = s
			continue
		}
		var s S
		frame := r.exclude(&f, span, k)
		for i, run := range frame.runs[:frame.n] {
			folded, err := t.fold(run.lo-ps, run.hi-ps)
			if err == nil && i > 0 {
				folded, err = m.merge(s, folded)
			}
			if err != nil {
				return err
			}
			s = folded
		}
		out[r.perm[k]] = s
	}
	return nil
}

// fold folds positions [lo, hi) of the partition, keeping their order.
func (t *segmentTree[S]) fold(lo, hi int) (S, error) {
	var left, right S
	var err error
	for lo, hi = lo+t.size, hi+t.size; lo < hi; lo, hi = lo/2, hi/2 {
		if lo%2 == 1 {
			if left, err = t.m.merge(left, t.nodes[lo]); err != nil {
				return left, err
			}
			lo++
		}
		if hi%2 == 1 {
			hi--
			if right, err = t.m.merge(t.nodes[hi], right); err != nil {
				return right, err
			}
		}
	}
	return t.m.merge(left, right)
}

// sumState is a running sum and the number of values in it.
type sumState[T summable] struct {
	sum T
	n   int64
}

// sumFrames computes sum or avg over frames of a BIGINT, DOUBLE or DECIMAL
// argument; add is the typed, overflow-checked addition of GROUP BY sums.
func sumFrames[T summable](call *planner.WindowCall, r *windowRows, arg arrow.Array, add func(a, b T) (T, bool), toFloat func(T) float64, mem memory.Allocator) (arrow.Array, error) {
	vals, valid := expr.FixedValues[T](arg), nullMask(arg)
	m := monoid[sumState[T]]{
		leaf: func(row int32) sumState[T] {
			if !isValid(valid, int(row)) {
				return sumState[T]{}
			}
			return sumState[T]{vals[row], 1}
		},
		merge: func(a, b sumState[T]) (sumState[T], error) {
			s, ok := add(a.sum, b.sum)
			if !ok {
				return a, fmt.Errorf("sum out of range for %s", planner.TypeString(call.T))
			}
			return sumState[T]{s, a.n + b.n}, nil
		},
	}
	states, err := foldFrames(r, call.Frame, m)
	if err != nil {
		return nil, err
	}
	present := make([]bool, len(states))
	for i, s := range states {
		present[i] = s.n > 0
	}
	if call.Fn == planner.AggSum {
		sums := make([]T, len(states))
		for i, s := range states {
			sums[i] = s.sum
		}
		return buildFixed(mem, call.T, sums, present), nil
	}
	avgs := make([]float64, len(states))
	for i, s := range states {
		if s.n > 0 {
			avgs[i] = toFloat(s.sum) / float64(s.n)
		}
	}
	return buildFixed(mem, planner.TypeDouble, avgs, present), nil
}

// extremeFrames computes min or max over frames by folding row numbers
// (row+1, 0 for none) with the argument type's comparator, then gathering
// the chosen rows' values.
func extremeFrames(ctx context.Context, call *planner.WindowCall, r *windowRows, arg arrow.Array, mem memory.Allocator) (arrow.Array, error) {
	ops, err := opsOf(arg.DataType())
	if err != nil {
		return nil, err
	}
	compare, valid := ops.comparator(arg, arg), nullMask(arg)
	sign := 1 // keep a when it compares below b (min)
	if call.Fn == planner.AggMax {
		sign = -1
	}
	m := monoid[int32]{
		leaf: func(row int32) int32 {
			if isValid(valid, int(row)) {
				return row + 1
			}
			return 0
		},
		merge: func(a, b int32) (int32, error) {
			if a == 0 || b != 0 && sign*compare(int(a-1), int(b-1)) > 0 {
				return b, nil
			}
			return a, nil
		},
	}
	chosen, err := foldFrames(r, call.Frame, m)
	if err != nil {
		return nil, err
	}
	src := make([]int32, len(chosen))
	for i, c := range chosen {
		src[i] = c - 1
	}
	none := expr.NullArray(mem, arg.DataType(), arg.Len())
	defer none.Release()
	return gatherOrDefault(ctx, arg, none, src, mem)
}
