// Package bench measures lakesql on the demo data. It is its own module so
// that comparison engines it may link never reach the lakesql binary.
package bench

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"

	"github.com/lakesql/lakesql"
	"github.com/lakesql/lakesql/internal/demo"
)

var (
	demoOnce sync.Once
	demoDir  string
	demoErr  error
)

// demoWarehouse builds one demo warehouse per run: BENCH_DAYS days of
// BENCH_EVENTS_PER_DAY events (defaults 1095 × 5 000: the tutorial's three
// years, at a size a 2-core machine builds in seconds).
func demoWarehouse(b *testing.B) string {
	demoOnce.Do(func() {
		demoDir, demoErr = os.MkdirTemp("", "lakesql-bench-")
		if demoErr != nil {
			return
		}
		opts := demo.Options{Warehouse: filepath.Join(demoDir, "wh"), Days: envInt("BENCH_DAYS", 1095), EventsPerDay: envInt("BENCH_EVENTS_PER_DAY", 5000)}
		demoErr = demo.Build(context.Background(), opts)
	})
	if demoErr != nil {
		b.Fatal(demoErr)
	}
	return filepath.Join(demoDir, "wh")
}

func envInt(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil && v > 0 {
		return v
	}
	return def
}

// runQuery runs a query to the end and returns the rows it produced.
func runQuery(b *testing.B, s *lakesql.Session, query string) int64 {
	return runQueryAt(context.Background(), b, s, query)
}

// runQueryAt is runQuery in ctx (which may fix the statement clock).
func runQueryAt(ctx context.Context, b *testing.B, s *lakesql.Session, query string) int64 {
	res, err := s.Exec(ctx, query)
	if err != nil {
		b.Fatal(err)
	}
	defer res.Close()
	var rows int64
	for {
		batch, err := res.Next(ctx)
		if err != nil {
			b.Fatal(err)
		}
		if batch == nil {
			return rows
		}
		rows += batch.NumRows()
		batch.Release()
	}
}

func BenchmarkScanOneDayFilter(b *testing.B) {
	s, err := lakesql.Open(context.Background(), lakesql.Options{Warehouse: demoWarehouse(b)})
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for range b.N {
		runQuery(b, s, `SELECT event_type FROM tutorial.retail_clickstream_events
			WHERE event_time >= TIMESTAMP '2026-01-15 00:00:00' AND event_time < TIMESTAMP '2026-01-16 00:00:00'`)
	}
}

func BenchmarkScanFullTwoColumns(b *testing.B) {
	s, err := lakesql.Open(context.Background(), lakesql.Options{Warehouse: demoWarehouse(b)})
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for range b.N {
		runQuery(b, s, `SELECT event_type, price FROM tutorial.retail_clickstream_events`)
	}
}
