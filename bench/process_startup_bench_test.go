package bench

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// Whole-process benchmarks: what a user scripting `lakesql -e` waits for,
// start-up included, against DuckDB's CLI when one is on PATH (or named by
// $DUCKDB_CLI). Each reports wall time per run (ns/op) and the CPU time the
// process used (cpu-ms/op), which a loaded machine disturbs far less.

// tutorialOneDayQuery is the tutorial's one-day query (README.md).
const tutorialOneDayQuery = `SELECT event_type, COUNT(*) AS event_count
FROM oleander.tutorial.retail_clickstream_events
WHERE event_time >= TIMESTAMP '2026-01-01 00:00:00'
  AND event_time <  TIMESTAMP '2026-01-02 00:00:00'
GROUP BY event_type
ORDER BY event_type`

// duckdbOneDayQuery is the same question over the demo table's Parquet files.
const duckdbOneDayQuery = `SELECT event_type, COUNT(*) AS event_count
FROM read_parquet('%s/tutorial/retail_clickstream_events/data/**/*.parquet')
WHERE event_time >= TIMESTAMP '2026-01-01 00:00:00'
  AND event_time <  TIMESTAMP '2026-01-02 00:00:00'
GROUP BY event_type
ORDER BY event_type`

var processFixture struct {
	once    sync.Once
	dir     string
	lakesql string // binary, built as `make build` does
	demo    string // demo warehouse: 7 days, 10,000 events a day
	empty   string // empty warehouse
	err     error
}

// TestMain removes the process benchmarks' binary and warehouses.
func TestMain(m *testing.M) {
	code := m.Run()
	if processFixture.dir != "" {
		os.RemoveAll(processFixture.dir)
	}
	os.Exit(code)
}

// processSetup builds lakesql and the demo warehouse once per run.
func processSetup(b *testing.B) (lakesql, demo, empty string) {
	f := &processFixture
	f.once.Do(func() {
		f.dir, f.err = os.MkdirTemp("", "lakesql-process-bench")
		if f.err != nil {
			return
		}
		f.lakesql = filepath.Join(f.dir, "lakesql")
		build := exec.Command("go", "build", "-o", f.lakesql, "./cmd/lakesql")
		build.Dir = ".."
		build.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := build.CombinedOutput(); err != nil {
			f.err = &exec.ExitError{Stderr: out}
			return
		}
		f.demo, f.empty = filepath.Join(f.dir, "demo"), filepath.Join(f.dir, "empty")
		if f.err = os.Mkdir(f.empty, 0o755); f.err != nil {
			return
		}
		if out, err := exec.Command(f.lakesql, "demo", "--warehouse", f.demo).CombinedOutput(); err != nil {
			f.err = &exec.ExitError{Stderr: out}
		}
	})
	if f.err != nil {
		b.Fatalf("setting up: %v", f.err)
	}
	return f.lakesql, f.demo, f.empty
}

// benchProcess runs the command b.N times and reports its CPU time.
func benchProcess(b *testing.B, name string, args ...string) {
	b.Helper()
	var cpu time.Duration
	b.ResetTimer()
	for range b.N {
		cmd := exec.Command(name, args...)
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("%s: %v: %s", name, err, out)
		}
		cpu += cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	}
	b.ReportMetric(float64(cpu.Milliseconds())/float64(b.N), "cpu-ms/op")
}

func duckdbCLI(b *testing.B) string {
	if p := os.Getenv("DUCKDB_CLI"); p != "" {
		return p
	}
	p, err := exec.LookPath("duckdb")
	if err != nil {
		b.Skip("no DuckDB CLI on PATH (set $DUCKDB_CLI)")
	}
	return p
}

func BenchmarkProcessSelect1(b *testing.B) {
	lakesql, _, empty := processSetup(b)
	b.Run("lakesql", func(b *testing.B) {
		benchProcess(b, lakesql, "--warehouse", empty, "-e", "SELECT 1")
	})
	b.Run("duckdb", func(b *testing.B) {
		benchProcess(b, duckdbCLI(b), "-c", "SELECT 1")
	})
}

func BenchmarkProcessOneDay(b *testing.B) {
	lakesql, demo, _ := processSetup(b)
	b.Run("lakesql", func(b *testing.B) {
		benchProcess(b, lakesql, "--warehouse", demo, "--catalog", "oleander", "-e", tutorialOneDayQuery)
	})
	b.Run("duckdb", func(b *testing.B) {
		benchProcess(b, duckdbCLI(b), "-c", fmt.Sprintf(duckdbOneDayQuery, demo))
	})
}
