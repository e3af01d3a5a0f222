package exec

import (
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakesql/lakesql/planner"
)

// TestAggregateSpillsClosedGroups aggregates many groups with memory short
// from the start, so every state closes at its minimum size and spills,
// through several levels of partitions, on the serial and the parallel
// path, and compares every result row with the aggregation in memory.
func TestAggregateSpillsClosedGroups(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	ctx := WithAllocator(context.Background(), mem)
	k, s, x := col(0, "k", tBig), col(1, "s", tStr), col(2, "x", tBig)
	calls := []*planner.AggCall{
		agg(planner.AggCount, nil, tBig), agg(planner.AggSum, x, tBig), agg(planner.AggMin, s, tStr),
		agg(planner.AggMax, x, tBig), {Fn: planner.AggCount, Arg: x, Distinct: true, T: tBig},
	}
	names := []string{"k", "s", "count", "sum", "min", "max", "distinct"}
	for _, tc := range []struct {
		name   string
		rows   int
		groups int
	}{
		{"serial, one level", 100_000, 60_000},
		{"parallel, two levels", 600_000, 500_000},
	} {
		t.Run(tc.name, func(t *testing.T) {
			recs := groupedBatches(mem, rand.New(rand.NewPCG(uint64(tc.rows), 3)), tc.rows, tc.groups)
			defer releaseBatches(recs)
			schema := recs[0].Schema()
			groupBy := []planner.Expr{k, &planner.Call{Fn: planner.FnLower, Args: []planner.Expr{s}, T: tStr}}
			withMemoryLimit(t, 0)
			want := drain(t, ctx, NewHashAggregate(NewBatches(schema, recs), groupBy, calls, names))
			withMemoryLimit(t, 1) // memory is short from the first batch on
			runtime.GC()          // the live heap is measured by collections
			op := NewHashAggregate(NewBatches(schema, recs), groupBy, calls, names).(*hashAggregate)
			spilled := false
			got := drain(t, ctx, &onFirstBatch{Operator: op, then: func() { spilled = op.spilled != nil }})
			if !spilled {
				t.Fatal("the aggregation did not spill")
			}
			slices.Sort(want)
			slices.Sort(got)
			if !slices.Equal(got, want) {
				t.Fatalf("spilled aggregation differs: %d groups, want %d", len(got), len(want))
			}
		})
	}
}

// groupedBatches makes rows of (k BIGINT with NULLs, s STRING, x BIGINT)
// with about groups distinct (k, lower(s)) pairs.
func groupedBatches(mem memory.Allocator, rng *rand.Rand, rows, groups int) []arrow.RecordBatch {
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "k", Type: tBig, Nullable: true}, {Name: "s", Type: tStr, Nullable: true}, {Name: "x", Type: tBig, Nullable: true},
	}, nil)
	var recs []arrow.RecordBatch
	for start := 0; start < rows; start += BatchSize {
		bld := array.NewRecordBuilder(mem, schema)
		for range min(BatchSize, rows-start) {
			g := rng.IntN(groups)
			if g%97 == 0 {
				bld.Field(0).(*array.Int64Builder).AppendNull()
			} else {
				bld.Field(0).(*array.Int64Builder).Append(int64(g / 3))
			}
			bld.Field(1).(*array.StringBuilder).Append(fmt.Sprint([]string{"a", "B", "b"}[g%3], g%5))
			if rng.IntN(10) == 0 {
				bld.Field(2).(*array.Int64Builder).AppendNull()
			} else {
				bld.Field(2).(*array.Int64Builder).Append(int64(rng.IntN(1000)))
			}
		}
		recs = append(recs, bld.NewRecordBatch())
		bld.Release()
	}
	return recs
}

// TestOperatorsThatCannotSpillFailInOneLine checks that a hash join's build
// side and a window function stop with one line naming themselves and the
// limit when memory is exhausted.
func TestOperatorsThatCannotSpillFailInOneLine(t *testing.T) {
	withMemoryLimit(t, 1)
	runtime.GC() // the live heap is measured by collections
	for _, what := range []string{"the build side of a hash join", "a window function"} {
		err := checkMemory(what)
		want := what + " needs more memory than memory_limit (1 B) allows and cannot spill to disk yet; raise memory_limit or make the input smaller"
		if err == nil || err.Error() != want {
			t.Errorf("error %v, want %q", err, want)
		}
	}
}
