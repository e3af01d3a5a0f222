package exec

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakesql/lakesql/exec/expr"
	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/sql"
)

// computeWindowCall returns the call's result for every row of batch, in
// input order.
func computeWindowCall(ctx context.Context, call *planner.WindowCall, r *windowRows, batch arrow.RecordBatch, mem memory.Allocator) (arrow.Array, error) {
	if call.Agg != nil {
		return aggregateFrames(ctx, call, r, batch, mem)
	}
	switch call.Fn {
	case planner.WinRowNumber, planner.WinRank, planner.WinDenseRank, planner.WinNtile:
		return buildFixed(mem, planner.TypeBigint, rankValues(call, r), nil), nil
	case planner.WinPercentRank, planner.WinCumeDist:
		return buildFixed(mem, planner.TypeDouble, distributionValues(call.Fn, r), nil), nil
	case planner.WinLag, planner.WinLead:
		return offsetValues(ctx, call, r, batch, mem)
	case planner.WinFirstValue, planner.WinLastValue, planner.WinNthValue:
		return frameValues(ctx, call, r, batch, mem)
	}
	return frameAggregate(ctx, call, r, batch, mem)
}

// constArg reads a constant BIGINT argument (the binder made it a Literal).
func constArg(call *planner.WindowCall, i int) int64 {
	return call.Args[i].(*planner.Literal).Value.(int64)
}

// rankValues computes row_number, rank, dense_rank or ntile per input row.
func rankValues(call *planner.WindowCall, r *windowRows) []int64 {
	out := make([]int64, len(r.perm))
	for lo, hi := range r.partitions() {
		switch call.Fn {
		case planner.WinRowNumber:
			for k := lo; k < hi; k++ {
				out[r.perm[k]] = int64(k - lo + 1)
			}
		case planner.WinRank:
			for k := lo; k < hi; k++ {
				out[r.perm[k]] = int64(int(r.peerLo[k]) - lo + 1)
			}
		case planner.WinDenseRank:
			dense := int64(0)
			for k := lo; k < hi; k++ {
				if int(r.peerLo[k]) == k {
					dense++
				}
				out[r.perm[k]] = dense
			}
		case planner.WinNtile:
			ntile(out, r.perm[lo:hi], constArg(call, 0))
		}
	}
	return out
}

// ntile numbers the rows of one partition with buckets 1…n of sizes that
// differ by at most one, the larger buckets first (SQL's NTILE).
func ntile(out []int64, rows []int32, buckets int64) {
	size, extra := int64(len(rows))/buckets, int64(len(rows))%buckets
	// The first extra buckets hold size+1 rows, the rest size rows.
	big := extra * (size + 1)
	for k, row := range rows {
		i := int64(k)
		if i < big {
			out[row] = i/(size+1) + 1
		} else {
			out[row] = extra + (i-big)/size + 1
		}
	}
}

// distributionValues computes percent_rank ((rank-1)/(rows-1)) or
// cume_dist (rows up to the last peer / rows) per input row.
func distributionValues(fn string, r *windowRows) []float64 {
	out := make([]float64, len(r.perm))
	for lo, hi := range r.partitions() {
		n := float64(hi - lo)
		for k := lo; k < hi; k++ {
			switch {
			case fn == planner.WinCumeDist:
				out[r.perm[k]] = float64(int(r.peerHi[k])-lo) / n
			case hi-lo > 1:
				out[r.perm[k]] = float64(int(r.peerLo[k])-lo) / (n - 1)
			}
		}
	}
	return out
}

// offsetValues computes lag and lead: x at the row offset positions before
// (after) the current one in its partition, else the default. With IGNORE
// NULLS the rows whose x is NULL are not counted.
func offsetValues(ctx context.Context, call *planner.WindowCall, r *windowRows, batch arrow.RecordBatch, mem memory.Allocator) (arrow.Array, error) {
	x, err := expr.Eval(ctx, call.Args[0], batch, mem)
	if err != nil {
		return nil, err
	}
	defer x.Release()
	offset := constArg(call, 1)
	var skip *nullSkipper
	if call.IgnoreNulls && offset != 0 {
		skip = newNullSkipper(r, x)
	}
	src := make([]int32, len(r.perm))
	for lo, hi := range r.partitions() {
		for k := lo; k < hi; k++ {
			at := int64(k) + offset
			if call.Fn == planner.WinLag {
				at = int64(k) - offset
			}
			if skip != nil {
				// The offset-th row with a value before (after) k.
				if call.Fn == planner.WinLag {
					at = skip.nth(lo, k, -offset)
				} else {
					at = skip.nth(k+1, hi, offset-1)
				}
			}
			src[r.perm[k]] = -1
			if at >= int64(lo) && at < int64(hi) {
				src[r.perm[k]] = r.perm[at]
			}
		}
	}
	return gatherArgs(ctx, x, batch, mem, src, call.Args[2])
}

// frameValues computes first_value, last_value and nth_value: x at the
// first, last or nth row of the frame, NULL when the frame has no such row.
// With IGNORE NULLS only the frame's rows whose x is not NULL count.
func frameValues(ctx context.Context, call *planner.WindowCall, r *windowRows, batch arrow.RecordBatch, mem memory.Allocator) (arrow.Array, error) {
	x, err := expr.Eval(ctx, call.Args[0], batch, mem)
	if err != nil {
		return nil, err
	}
	defer x.Release()
	nth := int64(1)
	if call.Fn == planner.WinNthValue {
		nth = constArg(call, 1)
	}
	var skip *nullSkipper
	if call.IgnoreNulls {
		skip = newNullSkipper(r, x)
	}
	n := nth - 1 // the row of the frame to take, from 0
	if call.Fn == planner.WinLastValue {
		n = -1
	}
	src := make([]int32, len(r.perm))
	for ps, pe := range r.partitions() {
		for k := ps; k < pe; k++ {
			span := r.span(&call.Frame, k, ps, pe)
			var at int64
			if call.Frame.Exclude == sql.ExcludeNoOthers { // one run, the common case kept quick
				at = span.nth(n, skip)
			} else {
				at = r.exclude(&call.Frame, span, k).nth(n, skip)
			}
			src[r.perm[k]] = -1
			if at >= 0 {
				src[r.perm[k]] = r.perm[at]
			}
		}
	}
	return gatherArgs(ctx, x, batch, mem, src, &planner.Literal{T: call.T})
}

// nullSkipper finds, among the positions of an arrangement, those whose
// value is not NULL: before[p] counts them at positions below p, and
// valued lists them in order.
type nullSkipper struct {
	before []int64
	valued []int64
}

func newNullSkipper(r *windowRows, x arrow.Array) *nullSkipper {
	s := &nullSkipper{before: make([]int64, len(r.perm)+1)}
	for p, row := range r.perm {
		s.before[p+1] = s.before[p]
		if x.IsValid(int(row)) {
			s.before[p+1]++
			s.valued = append(s.valued, int64(p))
		}
	}
	return s
}

// count returns the number of valued positions in [lo, hi).
func (s *nullSkipper) count(lo, hi int) int64 { return s.before[hi] - s.before[lo] }

// nth returns the position of the n-th (from 0) valued position in [lo,
// hi), counting from the end when n is negative (-1 is the last); -1 when
// there is none.
func (s *nullSkipper) nth(lo, hi int, n int64) int64 {
	first, end := s.before[lo], s.before[hi]
	i := first + n
	if n < 0 {
		i = end + n
	}
	if i < first || i >= end {
		return -1
	}
	return s.valued[i]
}

// gatherArgs evaluates def over batch and returns, for each row i,
// x[src[i]], or def[i] where src[i] is -1.
func gatherArgs(ctx context.Context, x arrow.Array, batch arrow.RecordBatch, mem memory.Allocator, src []int32, def planner.Expr) (arrow.Array, error) {
	d, err := expr.Eval(ctx, def, batch, mem)
	if err != nil {
		return nil, err
	}
	defer d.Release()
	return gatherOrDefault(ctx, x, d, src, mem)
}

// gatherOrDefault returns x[src[i]] for each row i, or def[i] where src[i]
// is -1: one Take over x and def side by side, so that every type works
// without a typed loop of its own.
func gatherOrDefault(ctx context.Context, x, def arrow.Array, src []int32, mem memory.Allocator) (arrow.Array, error) {
	both, err := array.Concatenate([]arrow.Array{x, def}, mem)
	if err != nil {
		return nil, err
	}
	defer both.Release()
	idx := make([]int32, len(src))
	for i, s := range src {
		if s < 0 {
			s = int32(x.Len() + i)
		}
		idx[i] = s
	}
	return expr.Take(ctx, mem, both, idx)
}
