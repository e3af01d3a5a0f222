package exec

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakesql/lakesql/planner"
)

func agg(fn string, arg planner.Expr, t arrow.DataType) *planner.AggCall {
	return &planner.AggCall{Fn: fn, Arg: arg, T: t}
}

func col(i int, name string, t arrow.DataType) *planner.ColumnRef {
	return &planner.ColumnRef{Index: i, Name: name, T: t}
}

func TestHashAggregate(t *testing.T) {
	k, v, d, s := col(0, "k", tStr), col(1, "v", tBig), col(2, "d", dec(10, 2)), col(3, "f", tDouble)
	batches := [][]column{
		{{"k", tStr, `["a", "b", null, "a"]`}, {"v", tBig, `[1, 2, 3, null]`}, {"d", dec(10, 2), `["1.25", null, "2.00", "0.75"]`}, {"f", tDouble, `[1, 2, 3, 4]`}},
		{{"k", tStr, `["b", null, "c"]`}, {"v", tBig, `[5, 6, null]`}, {"d", dec(10, 2), `["1.00", "1.00", null]`}, {"f", tDouble, `[5, 6, 7]`}},
	}
	sum38 := dec(38, 2)
	cases := []struct {
		name   string
		groups []planner.Expr
		calls  []*planner.AggCall
		want   string // rows sorted, "|"-separated
	}{
		{"count star by string key with NULL group", []planner.Expr{k}, []*planner.AggCall{agg(planner.AggCount, nil, tBig)},
			"NULL,2|a,2|b,2|c,1"},
		{"sum min max avg", []planner.Expr{k}, []*planner.AggCall{
			agg(planner.AggSum, v, tBig), agg(planner.AggMin, v, tBig), agg(planner.AggMax, v, tBig), agg(planner.AggCount, v, tBig)},
			"NULL,9,3,6,2|a,1,1,1,1|b,7,2,5,2|c,NULL,NULL,NULL,0"},
		{"decimal sum and avg", []planner.Expr{k}, []*planner.AggCall{agg(planner.AggSum, d, sum38), agg(planner.AggAvg, d, tDouble)},
			"NULL,3.00,1.5|a,2.00,1.0|b,1.00,1.0|c,NULL,NULL"},
		{"avg before the sum it shares, double and decimal, and a distinct avg", []planner.Expr{k}, []*planner.AggCall{
			agg(planner.AggAvg, s, tDouble), agg(planner.AggSum, s, tDouble), agg(planner.AggAvg, d, tDouble), agg(planner.AggSum, d, sum38),
			{Fn: planner.AggAvg, Arg: d, Distinct: true, T: tDouble}},
			"NULL,4.5,9.0,1.5,3.00,1.5|a,2.5,5.0,1.0,2.00,1.0|b,3.5,7.0,1.0,1.00,1.0|c,7.0,7.0,NULL,NULL,NULL"},
		{"global", nil, []*planner.AggCall{agg(planner.AggCount, nil, tBig), agg(planner.AggSum, v, tBig), agg(planner.AggVarSamp, s, tDouble), agg(planner.AggStddevPop, s, tDouble)},
			"7,17,4.666666666666667,2.0"},
		{"min max strings", nil, []*planner.AggCall{agg(planner.AggMin, k, tStr), agg(planner.AggMax, k, tStr), agg(planner.AggAnyValue, k, tStr)},
			"a,c,a"},
		{"count distinct", nil, []*planner.AggCall{{Fn: planner.AggCount, Arg: k, Distinct: true, T: tBig}, {Fn: planner.AggSum, Arg: d, Distinct: true, T: sum38}},
			"3,5.00"},
		{"multi-column key", []planner.Expr{k, col(2, "d", dec(10, 2))}, []*planner.AggCall{agg(planner.AggCount, nil, tBig)},
			"NULL,1.00,1|NULL,2.00,1|a,0.75,1|a,1.25,1|b,1.00,1|b,NULL,1|c,NULL,1"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			var recs []arrow.RecordBatch
			for _, b := range batches {
				rec := newBatch(t, mem, b...)
				defer rec.Release()
				recs = append(recs, rec)
			}
			names := make([]string, len(tc.groups)+len(tc.calls))
			for i := range names {
				names[i] = fmt.Sprint("c", i)
			}
			op := NewHashAggregate(NewBatches(recs[0].Schema(), recs), tc.groups, tc.calls, names)
			rows := drain(t, WithAllocator(context.Background(), mem), op)
			sort.Strings(rows)
			if got := strings.Join(rows, "|"); got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}

func TestHashAggregateEmptyInput(t *testing.T) {
	schema := arrow.NewSchema([]arrow.Field{{Name: "v", Type: tBig, Nullable: true}}, nil)
	v := col(0, "v", tBig)
	calls := []*planner.AggCall{agg(planner.AggCount, nil, tBig), agg(planner.AggSum, v, tBig), agg(planner.AggMax, v, tBig)}
	global := NewHashAggregate(NewBatches(schema, nil), nil, calls, []string{"a", "b", "c"})
	if got := drain(t, context.Background(), global); strings.Join(got, "|") != "0,NULL,NULL" {
		t.Errorf("global aggregate over no rows: %v", got)
	}
	grouped := NewHashAggregate(NewBatches(schema, nil), []planner.Expr{v}, calls, []string{"k", "a", "b", "c"})
	if got := drain(t, context.Background(), grouped); len(got) != 0 {
		t.Errorf("grouped aggregate over no rows: %v", got)
	}
}

func TestHashAggregateSumOverflow(t *testing.T) {
	mem := memory.NewGoAllocator()
	rec := newBatch(t, mem, column{"v", tBig, `[9223372036854775807, 1]`})
	defer rec.Release()
	op := NewHashAggregate(NewBatches(rec.Schema(), []arrow.RecordBatch{rec}), nil,
		[]*planner.AggCall{agg(planner.AggSum, col(0, "v", tBig), tBig)}, []string{"s"})
	if err := op.Open(context.Background()); err != nil {
		t.Fatal(err)
	}
	defer op.Close()
	if _, err := op.Next(context.Background()); err == nil || !strings.Contains(err.Error(), "out of range") {
		t.Errorf("want an overflow error, got %v", err)
	}
}

// TestHashAggregateManyGroups checks 50 000 groups over many batches against
// a map, which also exercises the hash table's growth.
func TestHashAggregateManyGroups(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	const rows, groups = 200_000, 50_000
	recs := intBatches(mem, rows, func(i int) int64 { return int64(i*7919) % groups })
	defer releaseBatches(recs)
	k := col(0, "k", tBig)
	op := NewHashAggregate(NewBatches(recs[0].Schema(), recs), []planner.Expr{k},
		[]*planner.AggCall{agg(planner.AggCount, nil, tBig), agg(planner.AggSum, k, tBig)}, []string{"k", "n", "s"})
	out := drain(t, WithAllocator(context.Background(), mem), op)
	if len(out) != groups {
		t.Fatalf("%d groups, want %d", len(out), groups)
	}
	for _, row := range out {
		var key, n, s int64
		fmt.Sscanf(strings.ReplaceAll(row, ",", " "), "%d %d %d", &key, &n, &s)
		if n != rows/groups || s != key*n {
			t.Fatalf("group %s", row)
		}
	}
}

// intBatches returns rows BIGINT values f(0…rows-1) in batches of BatchSize.
func intBatches(mem memory.Allocator, rows int, f func(i int) int64) []arrow.RecordBatch {
	schema := arrow.NewSchema([]arrow.Field{{Name: "k", Type: tBig, Nullable: true}}, nil)
	var recs []arrow.RecordBatch
	for start := 0; start < rows; start += BatchSize {
		b := array.NewInt64Builder(mem)
		for i := start; i < min(rows, start+BatchSize); i++ {
			b.Append(f(i))
		}
		arr := b.NewArray()
		recs = append(recs, array.NewRecordBatch(schema, []arrow.Array{arr}, int64(arr.Len())))
		arr.Release()
		b.Release()
	}
	return recs
}

func TestDistinct(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	var recs []arrow.RecordBatch
	for _, b := range [][]column{
		{{"a", tInt, `[1, 1, null, 2]`}, {"b", tStr, `["x", "x", null, "y"]`}},
		{{"a", tInt, `[null, 2, 3]`}, {"b", tStr, `[null, "z", "y"]`}},
		{{"a", tInt, `[1, 3]`}, {"b", tStr, `["x", "y"]`}},
	} {
		rec := newBatch(t, mem, b...)
		defer rec.Release()
		recs = append(recs, rec)
	}
	got := drain(t, WithAllocator(context.Background(), mem), NewDistinct(NewBatches(recs[0].Schema(), recs)))
	if want := "1,x|NULL,NULL|2,y|2,z|3,y"; strings.Join(got, "|") != want {
		t.Errorf("got %v, want %s", got, want)
	}
}
