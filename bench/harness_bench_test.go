package bench

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"sync"
	"testing"

	"github.com/lakesql/lakesql"
)

// The harness's Q7/Q8 on a warehouse of the harness's quick layout
// (BENCH_Q_SCALE events over BENCH_Q_DAYS days, default 10^6 over 730).
var (
	qOnce sync.Once
	qWH   string
	qErr  error
)

func qWarehouse(b *testing.B) string {
	qOnce.Do(func() {
		// A fixed directory, reused across runs when BENCH_Q_DIR is set.
		dir := os.Getenv("BENCH_Q_DIR")
		if dir != "" {
			if _, err := os.Stat(filepath.Join(dir, "ready")); err == nil {
				qWH = filepath.Join(dir, "wh")
				return
			}
		} else if dir, qErr = os.MkdirTemp("", "lakesql-q78-"); qErr != nil {
			return
		}
		days := envInt("BENCH_Q_DAYS", 730)
		opts := lakesql.DemoOptions{Warehouse: filepath.Join(dir, "wh"), Days: days, EventsPerDay: max(1, envInt("BENCH_Q_SCALE", 1_000_000)/days)}
		ctx := context.Background()
		if qErr = lakesql.BuildDemo(ctx, opts); qErr != nil {
			return
		}
		var s *lakesql.Session
		if s, qErr = lakesql.Open(ctx, lakesql.Options{Warehouse: opts.Warehouse}); qErr != nil {
			return
		}
		qErr = lakeExec(ctx, s, harnessTables...)
		qWH = opts.Warehouse
		qErr = os.WriteFile(filepath.Join(dir, "ready"), nil, 0o644)
	})
	if qErr != nil {
		b.Fatal(qErr)
	}
	return qWH
}

func benchHarnessQuery(b *testing.B, id int, fresh bool) {
	wh := qWarehouse(b)
	s, err := lakesql.Open(context.Background(), lakesql.Options{Warehouse: wh})
	if err != nil {
		b.Fatal(err)
	}
	var q string
	for _, hq := range harnessQueries() {
		if hq.id == id {
			q = hq.sql
		}
	}
	runQuery(b, s, q)
	b.ResetTimer()
	for range b.N {
		if fresh {
			// As the harness measures: free heap handed back to the OS first.
			b.StopTimer()
			runtime.GC()
			debug.FreeOSMemory()
			b.StartTimer()
		}
		runQuery(b, s, q)
	}
}

func BenchmarkQ4(b *testing.B)      { benchHarnessQuery(b, 4, false) }
func BenchmarkQ7(b *testing.B)      { benchHarnessQuery(b, 7, false) }
func BenchmarkQ8(b *testing.B)      { benchHarnessQuery(b, 8, false) }
func BenchmarkQ7Fresh(b *testing.B) { benchHarnessQuery(b, 7, true) }
func BenchmarkQ8Fresh(b *testing.B) { benchHarnessQuery(b, 8, true) }
