package exec

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/sql"
)

// windowInput is split over two batches: p is the partition key (with a
// NULL partition), o the order key (with ties and a NULL), v the argument.
var windowInput = [][]column{
	{{"p", tStr, `["a", "b", "a", null, "a"]`}, {"o", tBig, `[3, 1, 1, 5, null]`}, {"v", tBig, `[10, 20, 30, 40, null]`}},
	{{"p", tStr, `["b", "a", null]`}, {"o", tBig, `[1, 3, 2]`}, {"v", tBig, `[50, 60, 70]`}},
}

func rowsFrame(start, end sql.FrameBoundKind, startOff, endOff int64) planner.WindowFrame {
	return planner.WindowFrame{Rows: true,
		Start: planner.WindowBound{Kind: start, Offset: startOff}, End: planner.WindowBound{Kind: end, Offset: endOff}}
}

// TestWindowFunctions checks each function's column, in input order:
// partition a is, in order o (NULLS LAST), rows 2 (o=1), 0 and 6 (o=3,
// peers), 4 (o=NULL); b is rows 1 and 5 (peers); NULL is rows 7 and 3.
func TestWindowFunctions(t *testing.T) {
	p, o, v := col(0, "p", tStr), col(1, "o", tBig), col(2, "v", tBig)
	byO := []planner.SortKey{{Expr: o}}
	ordered := planner.DefaultFrame(true)
	whole := planner.DefaultFrame(false)
	w := func(fn string, tp arrow.DataType, frame planner.WindowFrame, args ...planner.Expr) *planner.WindowCall {
		return &planner.WindowCall{Fn: fn, Args: args, PartitionBy: []planner.Expr{p}, OrderBy: byO, Frame: frame, T: tp}
	}
	n := func(k int64) planner.Expr { return lit(k, tBig) }
	cases := []struct {
		name string
		call *planner.WindowCall
		want string
	}{
		{"row_number", w(planner.WinRowNumber, tBig, ordered), "2|1|1|2|4|2|3|1"},
		{"rank: peers share", w(planner.WinRank, tBig, ordered), "2|1|1|2|4|1|2|1"},
		{"dense_rank", w(planner.WinDenseRank, tBig, ordered), "2|1|1|2|3|1|2|1"},
		{"percent_rank", w(planner.WinPercentRank, tDouble, ordered), "0.3333333333333333|0.0|0.0|1.0|1.0|0.0|0.3333333333333333|0.0"},
		{"cume_dist", w(planner.WinCumeDist, tDouble, ordered), "0.75|1.0|0.25|1.0|1.0|1.0|0.75|0.5"},
		{"ntile 3 of 4 rows", w(planner.WinNtile, tBig, ordered, n(3)), "1|1|1|2|3|2|2|1"},
		{"ntile beyond rows", w(planner.WinNtile, tBig, ordered, n(10)), "2|1|1|2|4|2|3|1"},
		{"lag", w(planner.WinLag, tBig, ordered, v, n(1), &planner.Literal{T: tBig}), "30|NULL|NULL|70|60|20|10|NULL"},
		{"lead with default", w(planner.WinLead, tBig, ordered, v, n(1), n(-1)), "60|50|10|-1|-1|-1|NULL|40"},
		{"lag beyond partition, column default", w(planner.WinLag, tBig, ordered, v, n(5), o), "3|1|1|5|NULL|1|3|2"},
		{"sum: running with peers", w(planner.AggSum, tBig, ordered, v), "100|70|30|110|100|70|100|70"},
		{"sum: whole partition", w(planner.AggSum, tBig, whole, v), "100|70|100|110|100|70|100|110"},
		{"count(*)", w(planner.AggCount, tBig, ordered), "3|2|1|2|4|2|3|1"},
		{"count(v) skips NULL", w(planner.AggCount, tBig, whole, v), "3|2|3|2|3|2|3|2"},
		{"avg rows 1 preceding", w(planner.AggAvg, tDouble, rowsFrame(sql.Preceding, sql.CurrentRow, 1, 0), cast(v, tDouble)),
			"20.0|20.0|30.0|55.0|60.0|35.0|35.0|70.0"},
		{"min rows current..following", w(planner.AggMin, tBig, rowsFrame(sql.CurrentRow, sql.UnboundedFollowing, 0, 0), v),
			"10|20|10|40|NULL|50|60|40"},
		{"max rows 2 following..3 following", w(planner.AggMax, tBig, rowsFrame(sql.Following, sql.Following, 2, 3), v),
			"NULL|NULL|60|NULL|NULL|NULL|NULL|NULL"},
		{"first_value", w(planner.WinFirstValue, tBig, ordered, v), "30|20|30|70|30|20|30|70"},
		{"last_value: last peer", w(planner.WinLastValue, tBig, ordered, v), "60|50|30|40|NULL|50|60|70"},
		{"nth_value 3", w(planner.WinNthValue, tBig, ordered, v, n(3)), "60|NULL|NULL|NULL|60|NULL|60|NULL"},
		{"nth_value past frame", w(planner.WinNthValue, tBig, whole, v, n(9)), "NULL|NULL|NULL|NULL|NULL|NULL|NULL|NULL"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := runWindow(t, windowInput, []*planner.WindowCall{tc.call})
			if got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}

// runWindow runs calls over input and returns the last column, "|"-joined.
func runWindow(t *testing.T, input [][]column, calls []*planner.WindowCall) string {
	t.Helper()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	var recs []arrow.RecordBatch
	for _, cols := range input {
		rec := newBatch(t, mem, cols...)
		defer rec.Release()
		recs = append(recs, rec)
	}
	names := make([]string, len(calls))
	for i := range names {
		names[i] = fmt.Sprintf("w%d", i)
	}
	op := NewWindow(NewBatches(recs[0].Schema(), recs), calls, names)
	defer op.Close()
	var cells []string
	for _, row := range drain(t, WithAllocator(context.Background(), mem), op) {
		parts := strings.Split(row, ",")
		cells = append(cells, parts[len(parts)-1])
	}
	return strings.Join(cells, "|")
}

// TestWindowSeveralSpecs computes calls with different partitions and
// orders in one operator; each must match the same call computed alone.
func TestWindowSeveralSpecs(t *testing.T) {
	p, o, v := col(0, "p", tStr), col(1, "o", tBig), col(2, "v", tBig)
	calls := []*planner.WindowCall{
		{Fn: planner.WinRowNumber, OrderBy: []planner.SortKey{{Expr: v, Desc: true, NullsFirst: true}}, Frame: planner.DefaultFrame(true), T: tBig},
		{Fn: planner.AggSum, Args: []planner.Expr{v}, PartitionBy: []planner.Expr{p}, Frame: planner.DefaultFrame(false), T: tBig},
		{Fn: planner.WinRank, PartitionBy: []planner.Expr{o}, OrderBy: []planner.SortKey{{Expr: p}}, Frame: planner.DefaultFrame(true), T: tBig},
	}
	want := []string{"8|7|6|5|1|4|3|2", "100|70|100|110|100|70|100|110", "1|2|1|1|1|2|1|1"}
	for i := range calls {
		if got := runWindow(t, windowInput, calls[:i+1]); got != want[i] {
			t.Errorf("call %d with the ones before: got %s, want %s", i, got, want[i])
		}
		if got := runWindow(t, windowInput, calls[i:i+1]); got != want[i] {
			t.Errorf("call %d alone: got %s, want %s", i, got, want[i])
		}
	}
}

func TestWindowEmptyInput(t *testing.T) {
	empty := [][]column{{{"p", tStr, `[]`}, {"o", tBig, `[]`}, {"v", tBig, `[]`}}}
	call := &planner.WindowCall{Fn: planner.AggSum, Args: []planner.Expr{col(2, "v", tBig)},
		PartitionBy: []planner.Expr{col(0, "p", tStr)}, Frame: rowsFrame(sql.Preceding, sql.Following, 1, 1), T: tBig}
	if got := runWindow(t, empty, []*planner.WindowCall{call}); got != "" {
		t.Errorf("got %q, want no rows", got)
	}
}

// TestWindowFramesAgainstNaive compares sums and maxima over random ROWS
// frames (running folds and segment trees) with a direct loop per row.
func TestWindowFramesAgainstNaive(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const rows = 300
	vals := make([]string, rows)
	keys := make([]string, rows)
	for i := range vals {
		vals[i] = fmt.Sprint(rng.IntN(100) - 50)
		if rng.IntN(10) == 0 {
			vals[i] = "null"
		}
		keys[i] = fmt.Sprint(rng.IntN(4))
	}
	input := [][]column{{
		{"k", tBig, "[" + strings.Join(keys, ",") + "]"},
		{"v", tBig, "[" + strings.Join(vals, ",") + "]"},
	}}
	kinds := []sql.FrameBoundKind{sql.UnboundedPreceding, sql.Preceding, sql.CurrentRow, sql.Following, sql.UnboundedFollowing}
	for range 40 {
		start, end := kinds[rng.IntN(4)], kinds[1+rng.IntN(4)]
		if start > end {
			start, end = end, start
		}
		frame := rowsFrame(start, end, int64(rng.IntN(5)), int64(rng.IntN(5)))
		for _, fn := range []string{planner.AggSum, planner.AggMax} {
			call := &planner.WindowCall{Fn: fn, Args: []planner.Expr{col(1, "v", tBig)}, PartitionBy: []planner.Expr{col(0, "k", tBig)},
				OrderBy: []planner.SortKey{{Expr: col(1, "v", tBig)}}, Frame: frame, T: tBig}
			got := runWindow(t, input, []*planner.WindowCall{call})
			if want := naiveFrames(fn, keys, vals, frame); got != want {
				t.Fatalf("%s %s:\ngot  %s\nwant %s", fn, frame, got, want)
			}
		}
	}
}

// naiveFrames computes sum or max of v over each row's ROWS frame within
// its partition k, ordered by v (NULLs last, ties in input order).
func naiveFrames(fn string, keys, vals []string, f planner.WindowFrame) string {
	parts := map[string][]int{}
	for i, k := range keys {
		parts[k] = append(parts[k], i)
	}
	out := make([]string, len(vals))
	for _, rows := range parts {
		num := func(i int) (int, bool) {
			var x int
			_, err := fmt.Sscan(vals[i], &x)
			return x, err == nil
		}
		// Insertion sort keeps ties in input order.
		for a := 1; a < len(rows); a++ {
			for b := a; b > 0; b-- {
				x, okx := num(rows[b-1])
				y, oky := num(rows[b])
				if !oky || okx && x <= y {
					break
				}
				rows[b-1], rows[b] = rows[b], rows[b-1]
			}
		}
		for k := range rows {
			lo, hi := naiveBound(f.Start, k, len(rows), false), naiveBound(f.End, k, len(rows), true)
			res, any := 0, false
			for j := lo; j < hi; j++ {
				if x, ok := num(rows[j]); ok {
					switch {
					case fn == planner.AggSum:
						res += x
					case !any || x > res:
						res = x
					}
					any = true
				}
			}
			out[rows[k]] = "NULL"
			if any {
				out[rows[k]] = fmt.Sprint(res)
			}
		}
	}
	return strings.Join(out, "|")
}

func naiveBound(b planner.WindowBound, k, n int, end bool) int {
	pos := 0
	switch b.Kind {
	case sql.UnboundedPreceding:
		return 0
	case sql.UnboundedFollowing:
		return n
	case sql.Preceding:
		pos = k - int(b.Offset)
	case sql.CurrentRow:
		pos = k
	case sql.Following:
		pos = k + int(b.Offset)
	}
	if end {
		pos++
	}
	return min(max(pos, 0), n)
}

// BenchmarkWindowRowNumber numbers 10^6 rows in 1000 partitions, each
// ordered by a random key.
func BenchmarkWindowRowNumber(b *testing.B) {
	mem := memory.NewGoAllocator()
	rng := rand.New(rand.NewPCG(1, 2))
	schema := arrow.NewSchema([]arrow.Field{{Name: "p", Type: tBig}, {Name: "o", Type: tBig}}, nil)
	var recs []arrow.RecordBatch
	for start := 0; start < benchRows; start += BatchSize {
		bld := array.NewRecordBuilder(mem, schema)
		for i := start; i < min(benchRows, start+BatchSize); i++ {
			bld.Field(0).(*array.Int64Builder).Append(int64(i * 7919 % 1000))
			bld.Field(1).(*array.Int64Builder).Append(rng.Int64())
		}
		recs = append(recs, bld.NewRecordBatch())
		bld.Release()
	}
	calls := []*planner.WindowCall{{
		Fn: planner.WinRowNumber, PartitionBy: []planner.Expr{col(0, "p", tBig)},
		OrderBy: []planner.SortKey{{Expr: col(1, "o", tBig)}}, Frame: planner.DefaultFrame(true), T: tBig,
	}}
	ctx := WithAllocator(context.Background(), mem)
	b.ResetTimer()
	for b.Loop() {
		if n := run(b, ctx, NewWindow(NewBatches(schema, recs), calls, []string{"rn"})); n != benchRows {
			b.Fatalf("%d rows", n)
		}
	}
}
