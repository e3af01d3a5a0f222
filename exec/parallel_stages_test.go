package exec

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakesql/lakesql/planner"
)

// TestMaterializeInParallel materializes a filtered input large enough for
// its filter to run in workers, and compares the rows with one core's.
func TestMaterializeInParallel(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	recs := intBatches(mem, parallelAfterRows*3, func(i int) int64 { return int64(i * 7 % 1000) })
	defer releaseBatches(recs)
	// Nine rows in ten pass, so the workers take over after the first rows.
	keep := &planner.Call{Fn: planner.FnLt, Args: []planner.Expr{col(0, "k", tBig), &planner.Literal{Value: int64(900), T: tBig}}, T: planner.TypeBoolean}
	run := func(procs int) []string {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		ctx := WithAllocator(context.Background(), mem)
		op := NewFilter(NewBatches(recs[0].Schema(), recs), keep)
		if err := op.Open(ctx); err != nil {
			t.Fatal(err)
		}
		defer op.Close()
		b, err := materialize(ctx, op, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer b.Release()
		vals := b.Column(0).(interface{ Value(int) int64 })
		rows := make([]string, b.NumRows())
		for i := range rows {
			rows[i] = fmt.Sprint(vals.Value(i))
		}
		slices.Sort(rows)
		return rows
	}
	serial, parallel := run(1), run(2)
	if len(serial) == 0 || !slices.Equal(serial, parallel) {
		t.Errorf("%d rows serial, %d parallel, equal %v", len(serial), len(parallel), slices.Equal(serial, parallel))
	}
}
