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

// TestDistinctSpills removes duplicates with memory short from the start,
// so the rows seen close at their minimum size and the rest spill, through
// two levels of partitions for the larger input, and compares the rows
// with DISTINCT in memory: the same rows, NULLs included, each once.
func TestDistinctSpills(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	ctx := WithAllocator(context.Background(), mem)
	for _, tc := range []struct {
		name         string
		rows, groups int
	}{
		{"one level", 100_000, 60_000},
		{"two levels", 400_000, 300_000},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if testing.Short() && tc.rows > 100_000 {
				t.Skip("slow; make stress runs it")
			}
			recs := groupedBatches(mem, rand.New(rand.NewPCG(uint64(tc.rows), 5)), tc.rows, tc.groups)
			defer releaseBatches(recs)
			// Only (k, s) (x dropped): rows repeat.
			schema := recs[0].Schema()
			withMemoryLimit(t, 0)
			want := drain(t, ctx, NewDistinct(NewProject(NewBatches(schema, recs), []planner.Expr{col(0, "k", tBig), col(1, "s", tStr)}, []string{"k", "s"})))
			withMemoryLimit(t, 1) // memory is short from the first batch on
			runtime.GC()          // the live heap is measured by collections
			op := NewDistinct(NewProject(NewBatches(schema, recs), []planner.Expr{col(0, "k", tBig), col(1, "s", tStr)}, []string{"k", "s"})).(*distinct)
			spilled := false
			got := drain(t, ctx, &onEveryBatch{Operator: op, then: func() { spilled = spilled || op.spill.spilled != nil }})
			if !spilled {
				t.Fatal("DISTINCT did not spill")
			}
			if len(want) >= tc.groups || len(want) < tc.groups/2 {
				t.Fatalf("%d distinct rows of about %d groups: the input does not repeat as meant", len(want), tc.groups)
			}
			slices.Sort(want)
			slices.Sort(got)
			if !slices.Equal(got, want) {
				t.Fatalf("spilled DISTINCT differs: %d rows, want %d", len(got), len(want))
			}
		})
	}
}

// onEveryBatch calls then after each Next of its operator.
type onEveryBatch struct {
	Operator
	then func()
}

func (o *onEveryBatch) Next(ctx context.Context) (arrow.RecordBatch, error) {
	b, err := o.Operator.Next(ctx)
	o.then()
	return b, err
}
