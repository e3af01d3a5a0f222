package exec

import (
	"context"
	"math/rand/v2"
	"os"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakesql/lakesql/planner"
)

// TestSortSpillsAndMergesRuns sorts random rows with many ties and NULLs
// under a memory limit small enough to write many runs, and compares every
// row with the in-memory sort: the merged runs must give the same rows in
// the same (stable) order, and leave nothing in the temp directory.
func TestSortSpillsAndMergesRuns(t *testing.T) {
	tmp := t.TempDir()
	SetTempDirectory(tmp)
	t.Cleanup(func() { SetTempDirectory("") })
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	ctx := WithAllocator(context.Background(), mem)
	keyings := [][]planner.SortKey{
		{{Expr: col(0, "k", tBig), Desc: true}, {Expr: col(1, "s", tStr), NullsFirst: true}},
		{{Expr: col(1, "s", tStr)}},
		{{Expr: col(0, "k", tBig), NullsFirst: true}},
	}
	mostRuns := 0
	defer func() {
		if mostRuns < 4 {
			t.Errorf("no sort merged more than %d runs", mostRuns)
		}
	}()
	for seed := range uint64(6) {
		rng := rand.New(rand.NewPCG(seed, 2))
		recs := randomBatches(mem, rng, 1+rng.IntN(80_000))
		schema := recs[0].Schema()
		keys := keyings[int(seed)%len(keyings)]
		withMemoryLimit(t, 0)
		inMemory := drain(t, ctx, NewSort(NewBatches(schema, recs), keys))
		// A threshold of 60 KB: runs of a few batches.
		withMemoryLimit(t, 200_000)
		sorter := NewSort(NewBatches(schema, recs), keys).(*sortOp)
		runs := 0
		spilled := drain(t, ctx, &onFirstBatch{Operator: sorter, then: func() {
			if sorter.merge != nil {
				runs = len(sorter.merge.runs)
			}
		}})
		withMemoryLimit(t, 0)
		var total int64
		for _, r := range recs {
			total += batchBytes(r)
		}
		if total > 60_000 && runs == 0 {
			t.Errorf("seed %d: %d bytes of rows were sorted in memory", seed, total)
		}
		mostRuns = max(mostRuns, runs)
		if !slices.Equal(inMemory, spilled) {
			t.Errorf("seed %d: spilled sort differs from the in-memory one (%d and %d rows)", seed, len(inMemory), len(spilled))
		}
		if entries, _ := os.ReadDir(tmp); len(entries) > 0 {
			t.Errorf("seed %d: %d files left in the temp directory", seed, len(entries))
		}
		releaseBatches(recs)
	}
}

// TestSortSpillToMissingFolderIsOneLine checks the error of a sort that must
// spill but cannot.
func TestSortSpillToMissingFolderIsOneLine(t *testing.T) {
	SetTempDirectory("/nonexistent/lakesql")
	t.Cleanup(func() { SetTempDirectory("") })
	withMemoryLimit(t, 100_000)
	mem := memory.NewGoAllocator()
	rng := rand.New(rand.NewPCG(1, 2))
	recs := randomBatches(mem, rng, 100_000)
	defer releaseBatches(recs)
	op := NewSort(NewBatches(recs[0].Schema(), recs), []planner.SortKey{{Expr: col(0, "k", tBig)}})
	if err := op.Open(context.Background()); err != nil {
		t.Fatal(err)
	}
	_, err := op.Next(context.Background())
	want := "ORDER BY needs more than the memory limit and cannot spill to temp_directory /nonexistent/lakesql: no such file or directory"
	if err == nil || err.Error() != want {
		t.Fatalf("error %v, want %q", err, want)
	}
	op.Close()
}

// onFirstBatch calls then after its operator's first batch.
type onFirstBatch struct {
	Operator
	then func()
}

func (o *onFirstBatch) Next(ctx context.Context) (arrow.RecordBatch, error) {
	b, err := o.Operator.Next(ctx)
	if o.then != nil {
		o.then()
		o.then = nil
	}
	return b, err
}

// withMemoryLimit sets the memory limit operators spill by, not the
// collector's (which would make the test crawl), until the test ends.
func withMemoryLimit(t *testing.T, bytes int64) {
	old := MemoryLimit()
	memoryLimit.Store(bytes)
	t.Cleanup(func() { memoryLimit.Store(old) })
}
