package exec

import (
	"context"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakesql/lakesql/planner"
)

// filteredCalls are aggregates with FILTER (WHERE x > 500) and the
// aggregates max_by, mode, array_agg and collect_list over groupedBatches'
// columns (k, s, x). withLists adds the lists, whose order is the rows'.
func filteredCalls(withLists bool) []*planner.AggCall {
	s, x := col(1, "s", tStr), col(2, "x", tBig)
	big := &planner.Call{Fn: planner.FnGt, Args: []planner.Expr{x, &planner.Literal{Value: int64(500), T: tBig}}, T: planner.TypeBoolean}
	byX := &planner.Call{Fn: planner.FnMakeStruct, T: arrow.StructOf(
		arrow.Field{Name: "value", Type: tBig, Nullable: true}, arrow.Field{Name: "key", Type: tBig, Nullable: true}),
		Args: []planner.Expr{&planner.Literal{Value: "value", T: tStr}, x, &planner.Literal{Value: "key", T: tStr}, x}}
	calls := []*planner.AggCall{
		{Fn: planner.AggCount, Filter: big, T: tBig},
		{Fn: planner.AggSum, Arg: x, Filter: big, T: tBig},
		{Fn: planner.AggCount, Arg: x, Distinct: true, Filter: big, T: tBig},
		{Fn: planner.AggMaxBy, Arg: byX, Filter: big, T: tBig},
		{Fn: planner.AggMinBy, Arg: byX, T: tBig},
		{Fn: planner.AggMode, Arg: s, T: tStr},
		{Fn: planner.AggMode, Arg: x, Filter: big, T: tBig},
	}
	if withLists {
		calls = append(calls,
			&planner.AggCall{Fn: planner.AggArrayAgg, Arg: x, Filter: big, T: arrow.ListOf(tBig)},
			&planner.AggCall{Fn: planner.AggCollectList, Arg: x, T: arrow.ListOf(tBig)})
	}
	return calls
}

func namesFor(groupBy []planner.Expr, calls []*planner.AggCall) []string {
	names := make([]string, len(groupBy)+len(calls))
	for i := range names {
		names[i] = string(rune('a' + i))
	}
	return names
}

// TestFilteredAggregatesSpill checks that FILTER conditions and the new
// aggregates' states come out of a spilled aggregation as they do in
// memory: the conditions' values are spilled with the arguments.
func TestFilteredAggregatesSpill(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	ctx := WithAllocator(context.Background(), mem)
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1)) // serial: lists keep the rows' order
	recs := groupedBatches(mem, rand.New(rand.NewPCG(7, 3)), 100_000, 60_000)
	defer releaseBatches(recs)
	schema := recs[0].Schema()
	groupBy := []planner.Expr{col(0, "k", tBig), col(1, "s", tStr)}
	calls := filteredCalls(true)
	checkSpilledAggregate(t, ctx, schema, recs, groupBy, calls, namesFor(groupBy, calls))
}

// TestFilteredAggregatesParallel checks that the workers' states of the
// filtered and new aggregates merge into the serial answer, with and
// without a WHERE fused into the aggregation: with the DISTINCT call the
// WHERE filters batches first, without it the arguments are masked.
func TestFilteredAggregatesParallel(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	ctx := WithAllocator(context.Background(), mem)
	recs := groupedBatches(mem, rand.New(rand.NewPCG(9, 4)), 200_000, 300)
	defer releaseBatches(recs)
	schema := recs[0].Schema()
	all := filteredCalls(false)
	masked := slices.DeleteFunc(slices.Clone(all), func(c *planner.AggCall) bool { return c.Distinct })
	x := col(2, "x", tBig)
	keep := &planner.Call{Fn: planner.FnGt, Args: []planner.Expr{x, &planner.Literal{Value: int64(100), T: tBig}}, T: planner.TypeBoolean}
	for _, groupBy := range [][]planner.Expr{{col(0, "k", tBig)}, nil} {
		for _, tc := range []struct {
			where planner.Expr
			calls []*planner.AggCall
		}{{nil, all}, {keep, all}, {keep, masked}} {
			where, calls := tc.where, tc.calls
			run := func(procs int) []string {
				defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
				op := NewHashAggregate(NewBatches(schema, recs), groupBy, calls, namesFor(groupBy, calls)).(*hashAggregate)
				if where != nil {
					op.where, op.masksWhere = where, !slices.ContainsFunc(calls, func(c *planner.AggCall) bool { return !aggregateSkipsNulls(c) })
				}
				out := drain(t, ctx, op)
				slices.Sort(out)
				return out
			}
			serial, parallel := run(1), run(2)
			if !slices.Equal(serial, parallel) {
				t.Fatalf("group by %v, where %v: serial %d rows, parallel %d, or a row differs", groupBy, where, len(serial), len(parallel))
			}
		}
	}
}
