package bench

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/lakesql/lakesql"
	"github.com/lakesql/lakesql/internal/demo"
)

// The harness's queries as Go benchmarks, for profiling one at a time
// (go test -bench Q7 -cpuprofile …), on a warehouse of the harness's quick
// layout (BENCH_Q_SCALE events over BENCH_Q_DAYS days, default 10^6 over
// 730).
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
		opts := demo.Options{Warehouse: filepath.Join(dir, "wh"), Days: days, EventsPerDay: max(1, envInt("BENCH_Q_SCALE", 1_000_000)/days)}
		ctx := context.Background()
		if qErr = demo.Build(ctx, opts); qErr != nil {
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

func benchHarnessQuery(b *testing.B, id int) {
	s := qSession(b)
	var q string
	for _, hq := range harnessQueries() {
		if hq.id == id {
			q = hq.sql
		}
	}
	runQuery(b, s, q)
	b.ResetTimer()
	for range b.N {
		runQuery(b, s, q)
	}
}

func qSession(b *testing.B) *lakesql.Session {
	lakesql.TuneGC() // as the lakesql binary and the harness run
	s, err := lakesql.Open(context.Background(), lakesql.Options{Warehouse: qWarehouse(b)})
	if err != nil {
		b.Fatal(err)
	}
	return s
}

func BenchmarkQ4(b *testing.B) { benchHarnessQuery(b, 4) }
func BenchmarkQ7(b *testing.B) { benchHarnessQuery(b, 7) }
func BenchmarkQ8(b *testing.B) { benchHarnessQuery(b, 8) }

// BenchmarkQ9 times the harness's rewrite: rewrite_data_files of a fresh
// unpartitioned 30-day copy into day partitions (the copy is made untimed).
func BenchmarkQ9(b *testing.B) {
	s := qSession(b)
	ctx := context.Background()
	for range b.N {
		b.StopTimer()
		if err := lakeExec(ctx, s, "DROP TABLE IF EXISTS "+rewriteTable,
			"CREATE TABLE "+rewriteTable+" AS SELECT * FROM tutorial.events_30d",
			"ALTER TABLE "+rewriteTable+" ADD PARTITION FIELD day(event_time)"); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		if err := lakeExec(ctx, s, "CALL system.rewrite_data_files(table => '"+rewriteTable+"')"); err != nil {
			b.Fatal(err)
		}
	}
}
