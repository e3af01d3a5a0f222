package exec

import (
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
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
			checkSpilledAggregate(t, ctx, schema, recs, groupBy, calls, names)
		})
	}
}

// checkSpilledAggregate aggregates recs in memory, then again with memory
// short from the first batch on, and fails unless the second spilled and
// both give the same rows.
func checkSpilledAggregate(t *testing.T, ctx context.Context, schema *arrow.Schema, recs []arrow.RecordBatch, groupBy []planner.Expr, calls []*planner.AggCall, names []string) {
	t.Helper()
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

// TestSessionMemoryLimit checks that a statement under a session's
// memory limit (WithMemoryLimit) spills and stops by it, and that the
// process's limit stays the ceiling: a session cannot hold more.
func TestSessionMemoryLimit(t *testing.T) {
	withMemoryLimit(t, 1<<30)
	background := context.Background()
	small := WithMemoryLimit(background, 1)
	large := WithMemoryLimit(background, 1<<40)
	for _, c := range []struct {
		name string
		ctx  context.Context
		want int64
	}{{"no session limit", background, 1 << 30}, {"a lower one", small, 1}, {"a higher one", large, 1 << 30}, {"none set", WithMemoryLimit(background, 0), 1 << 30}} {
		if got := memoryLimitOf(c.ctx); got != c.want {
			t.Errorf("%s: the statement's limit is %d, want %d", c.name, got, c.want)
		}
	}
	if got, want := spillThreshold(WithMemoryLimit(background, 10<<20)), int64(10<<20*spillShare); got != want {
		t.Errorf("a sort under a 10 MiB session limit spills past %d bytes, want %d", got, want)
	}
	runtime.GC()
	if err := checkMemory(small, "a window function"); err == nil || !strings.Contains(err.Error(), "memory_limit (1 B)") {
		t.Errorf("under a 1-byte session limit: %v", err)
	}
	if err := checkMemory(background, "a window function"); err != nil {
		t.Errorf("under the process's 1 GiB: %v", err)
	}
}

// TestOperatorsThatCannotSpillFailInOneLine checks that a hash join's build
// side and a window function stop with one line naming themselves and the
// limit when memory is exhausted.
func TestOperatorsThatCannotSpillFailInOneLine(t *testing.T) {
	withMemoryLimit(t, 1)
	runtime.GC() // the live heap is measured by collections
	for _, what := range []string{"the build side of a hash join", "a window function"} {
		err := checkMemory(context.Background(), what)
		want := what + " needs more memory than memory_limit (1 B) allows and cannot spill to disk yet; raise memory_limit or make the input smaller"
		if err == nil || err.Error() != want {
			t.Errorf("error %v, want %q", err, want)
		}
	}
}
