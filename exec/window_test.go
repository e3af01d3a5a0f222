package exec

import (
	"context"
	"fmt"
	"math"
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
	return planner.WindowFrame{Unit: planner.RowsFrame,
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

// TestWindowFramesAgainstNaive compares sums, maxima, counts and frame
// values over random ROWS, GROUPS and RANGE frames, with and without
// EXCLUDE (running folds, segment trees and frame runs), with a direct
// loop per row.
func TestWindowFramesAgainstNaive(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const rows = 300
	vals := make([]string, rows)
	keys := make([]string, rows)
	for i := range vals {
		vals[i] = fmt.Sprint(rng.IntN(40) - 20) // peers: about two rows a value
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
	units := []planner.FrameUnit{planner.RowsFrame, planner.GroupsFrame, planner.RangeFrame}
	exclusions := []sql.FrameExclusion{sql.ExcludeNoOthers, sql.ExcludeCurrentRow, sql.ExcludeGroup, sql.ExcludeTies}
	fns := []string{planner.AggSum, planner.AggMax, planner.AggCount, planner.WinFirstValue, planner.WinLastValue}
	for range 60 {
		start, end := kinds[rng.IntN(4)], kinds[1+rng.IntN(4)]
		if start > end {
			start, end = end, start
		}
		frame := rowsFrame(start, end, int64(rng.IntN(5)), int64(rng.IntN(5)))
		frame.Unit, frame.Exclude = units[rng.IntN(3)], exclusions[rng.IntN(4)]
		if frame.Unit == planner.RangeFrame { // offsets need ORDER BY values: none here
			frame.Start.Kind, frame.End.Kind = withoutOffset(frame.Start.Kind), withoutOffset(frame.End.Kind)
		}
		for _, fn := range fns {
			call := &planner.WindowCall{Fn: fn, Args: []planner.Expr{col(1, "v", tBig)}, PartitionBy: []planner.Expr{col(0, "k", tBig)},
				OrderBy: []planner.SortKey{{Expr: col(1, "v", tBig)}}, Frame: frame, T: tBig}
			got := runWindow(t, input, []*planner.WindowCall{call})
			if want := naiveFrames(fn, keys, vals, frame); got != want {
				t.Fatalf("%s %s:\ngot  %s\nwant %s", fn, frame, got, want)
			}
		}
	}
}

// withoutOffset turns n PRECEDING and n FOLLOWING into CURRENT ROW.
func withoutOffset(k sql.FrameBoundKind) sql.FrameBoundKind {
	if k == sql.Preceding || k == sql.Following {
		return sql.CurrentRow
	}
	return k
}

// naiveFrames computes fn of v over each row's frame within its partition
// k, ordered by v (NULLs last, ties in input order): the rows whose row
// number (ROWS) or peer group number (GROUPS, RANGE) lies between the
// bounds', less those the frame's EXCLUDE takes out.
func naiveFrames(fn string, keys, vals []string, f planner.WindowFrame) string {
	parts := map[string][]int{}
	for i, k := range keys {
		parts[k] = append(parts[k], i)
	}
	nums := make([]*int, len(vals)) // nil for NULL
	for i, v := range vals {
		var x int
		if _, err := fmt.Sscan(v, &x); err == nil {
			nums[i] = &x
		}
	}
	num := func(i int) (int, bool) {
		if nums[i] == nil {
			return 0, false
		}
		return *nums[i], true
	}
	out := make([]string, len(vals))
	for _, rows := range parts {
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
		group := make([]int, len(rows))
		for j := 1; j < len(rows); j++ {
			group[j] = group[j-1]
			if vals[rows[j]] != vals[rows[j-1]] {
				group[j]++
			}
		}
		unit := func(j int) int {
			if f.Unit == planner.RowsFrame {
				return j
			}
			return group[j]
		}
		for k := range rows {
			lo, hi := naiveBound(f.Start, unit(k)), naiveBound(f.End, unit(k))
			var frame []*int
			for j := range rows {
				excluded := f.Exclude == sql.ExcludeCurrentRow && j == k ||
					f.Exclude == sql.ExcludeGroup && group[j] == group[k] ||
					f.Exclude == sql.ExcludeTies && group[j] == group[k] && j != k
				if u := unit(j); u >= lo && u <= hi && !excluded {
					frame = append(frame, nums[rows[j]])
				}
			}
			out[rows[k]] = naiveFold(fn, frame)
		}
	}
	return strings.Join(out, "|")
}

// naiveBound is the first (or last) row or peer group number a bound
// reaches from the current row's, at.
func naiveBound(b planner.WindowBound, at int) int {
	switch b.Kind {
	case sql.UnboundedPreceding:
		return math.MinInt
	case sql.UnboundedFollowing:
		return math.MaxInt
	case sql.Preceding:
		return at - int(b.Offset)
	case sql.Following:
		return at + int(b.Offset)
	}
	return at
}

// naiveFold computes fn over a frame's values (nil for NULL).
func naiveFold(fn string, frame []*int) string {
	show := func(v *int) string {
		if v == nil {
			return "NULL"
		}
		return fmt.Sprint(*v)
	}
	switch {
	case fn == planner.WinFirstValue && len(frame) > 0:
		return show(frame[0])
	case fn == planner.WinLastValue && len(frame) > 0:
		return show(frame[len(frame)-1])
	case fn == planner.WinFirstValue || fn == planner.WinLastValue:
		return "NULL"
	}
	res, n := 0, 0
	for _, v := range frame {
		switch {
		case v == nil:
			continue
		case fn == planner.AggSum:
			res += *v
		case n == 0 || *v > res:
			res = *v
		}
		n++
	}
	switch {
	case fn == planner.AggCount:
		return fmt.Sprint(n)
	case n == 0:
		return "NULL"
	}
	return fmt.Sprint(res)
}

// benchWindowInput is 10^6 rows (p, o) in 1000 partitions p, each ordered
// by a random key o.
func benchWindowInput() (*arrow.Schema, []arrow.RecordBatch) {
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
	return schema, recs
}

// benchWindow runs calls over the benchmark input.
func benchWindow(b *testing.B, calls ...*planner.WindowCall) {
	schema, recs := benchWindowInput()
	ctx := WithAllocator(context.Background(), memory.NewGoAllocator())
	names := make([]string, len(calls))
	for i := range names {
		names[i] = fmt.Sprintf("w%d", i)
	}
	b.ResetTimer()
	for b.Loop() {
		if n := run(b, ctx, NewWindow(NewBatches(schema, recs), calls, names)); n != benchRows {
			b.Fatalf("%d rows", n)
		}
	}
}

func BenchmarkWindowRowNumber(b *testing.B) {
	benchWindow(b, &planner.WindowCall{
		Fn: planner.WinRowNumber, PartitionBy: []planner.Expr{col(0, "p", tBig)},
		OrderBy: []planner.SortKey{{Expr: col(1, "o", tBig)}}, Frame: planner.DefaultFrame(true), T: tBig,
	})
}

// BenchmarkWindowFrames computes functions over sliding frames, the ones a
// running fold cannot serve.
func BenchmarkWindowFrames(b *testing.B) {
	p, o := col(0, "p", tBig), col(1, "o", tBig)
	sliding := rowsFrame(sql.Preceding, sql.Following, 5, 5)
	groups := sliding
	groups.Unit = planner.GroupsFrame
	excluding := sliding
	excluding.Exclude = sql.ExcludeCurrentRow
	over := func(fn string, f planner.WindowFrame, agg *planner.AggCall) *planner.WindowCall {
		c := &planner.WindowCall{Fn: fn, PartitionBy: []planner.Expr{p}, OrderBy: []planner.SortKey{{Expr: o}}, Frame: f, T: tBig, Agg: agg}
		if agg == nil {
			c.Args = []planner.Expr{p} // small: sums of o overflow
		}
		return c
	}
	distinct := &planner.AggCall{Fn: planner.AggCount, Arg: o, Distinct: true, T: tBig}
	for _, bc := range []struct {
		name string
		call *planner.WindowCall
	}{
		{"sum rows", over(planner.AggSum, sliding, nil)},
		{"min rows", over(planner.AggMin, sliding, nil)},
		{"last_value rows", over(planner.WinLastValue, sliding, nil)},
		{"count distinct rows", over(planner.AggCount, sliding, distinct)},
		{"sum groups", over(planner.AggSum, groups, nil)},
		{"sum rows exclude current row", over(planner.AggSum, excluding, nil)},
	} {
		b.Run(bc.name, func(b *testing.B) { benchWindow(b, bc.call) })
	}
}
