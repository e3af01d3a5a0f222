package exec

import (
	"context"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakesql/lakesql/planner"
)

// TestWindowSpills computes window functions with memory short from the
// start, so the input spills by the PARTITION BY key the calls share (NULL
// keys included), and compares the rows with the window in memory; a
// window with a call without PARTITION BY cannot spill and says so.
func TestWindowSpills(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	ctx := WithAllocator(context.Background(), mem)
	recs := groupedBatches(mem, rand.New(rand.NewPCG(5, 7)), 60_000, 40_000)
	defer releaseBatches(recs)
	schema := recs[0].Schema()
	k, s, x := col(0, "k", tBig), col(1, "s", tStr), col(2, "x", tBig)
	calls := []*planner.WindowCall{
		{Fn: planner.WinRowNumber, PartitionBy: []planner.Expr{k}, OrderBy: []planner.SortKey{{Expr: x}, {Expr: s}}, Frame: planner.DefaultFrame(true), T: tBig},
		{Fn: planner.AggSum, Args: []planner.Expr{x}, PartitionBy: []planner.Expr{s, k}, Frame: planner.DefaultFrame(false), T: tBig},
	}
	names := []string{"rn", "sum"}
	withMemoryLimit(t, 0)
	want := drain(t, ctx, NewWindow(NewBatches(schema, recs), calls, names))
	withMemoryLimit(t, 1) // memory is short from the first batch on
	runtime.GC()          // the live heap is measured by collections
	op := NewWindow(NewBatches(schema, recs), calls, names).(*windowOp)
	spilled := false
	got := drain(t, ctx, &onEveryBatch{Operator: op, then: func() { spilled = spilled || op.grace != nil }})
	if !spilled {
		t.Fatal("the window did not spill")
	}
	slices.Sort(want)
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Fatalf("spilled window differs: %d rows, want %d", len(got), len(want))
	}

	global := append(slices.Clone(calls), &planner.WindowCall{Fn: planner.WinRowNumber, Frame: planner.DefaultFrame(false), T: tBig})
	op = NewWindow(NewBatches(schema, recs), global, append(names, "n")).(*windowOp)
	if err := op.Open(ctx); err != nil {
		t.Fatal(err)
	}
	defer op.Close()
	want1 := "a window function needs more memory than memory_limit (1 B) allows and cannot spill to disk yet; raise memory_limit or make the input smaller"
	if _, err := op.Next(ctx); err == nil || err.Error() != want1 {
		t.Fatalf("a window without PARTITION BY under an exhausted limit: %v", err)
	}
}
