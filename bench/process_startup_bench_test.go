package bench

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// Whole-process benchmarks: what a user scripting `lakesql -e` waits for,
// start-up included, against a DuckDB process: cmd/duckdb-query, a small C
// program on DuckDB's C API, linked with the static library duckdb-go-bindings
// ships and built with gcc -O2, which opens an in-memory database, runs one
// statement and prints CSV, as the duckdb CLI does (no CLI is assumed). Each
// reports wall time per run (ns/op), the CPU time the process used
// (cpu-ms/op) and its minor page faults (faults/op), which a loaded machine
// disturbs far less: on a virtual machine each is tens of microseconds. TestProcessHarness
// (harness_process_test.go) puts the same two measurements in RESULTS.md.

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
	duckdb  string // cmd/duckdb-query, built with gcc
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

// lakesqlBuildFlags are the Makefile's build flags (make build).
var lakesqlBuildFlags = []string{"-ldflags=-s -w"}

// processSetup builds lakesql, the DuckDB process and the demo warehouse
// once per run.
func processSetup(tb testing.TB) (lakesql, duckdb, demo, empty string) {
	f := &processFixture
	f.once.Do(func() {
		f.dir, f.err = os.MkdirTemp("", "lakesql-process-bench")
		if f.err != nil {
			return
		}
		f.lakesql = filepath.Join(f.dir, "lakesql")
		build := exec.Command("go", append(append([]string{"build"}, lakesqlBuildFlags...), "-o", f.lakesql, "./cmd/lakesql")...)
		build.Dir = ".."
		build.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := build.CombinedOutput(); err != nil {
			f.err = fmt.Errorf("building lakesql: %v: %s", err, out)
			return
		}
		f.duckdb = filepath.Join(f.dir, "duckdb-query")
		if f.err = buildDuckDBQuery(f.duckdb); f.err != nil {
			return
		}
		f.demo, f.empty = filepath.Join(f.dir, "demo"), filepath.Join(f.dir, "empty")
		if f.err = os.Mkdir(f.empty, 0o755); f.err != nil {
			return
		}
		if out, err := exec.Command(f.lakesql, "demo", "--warehouse", f.demo).CombinedOutput(); err != nil {
			f.err = fmt.Errorf("lakesql demo: %v: %s", err, out)
		}
	})
	if f.err != nil {
		tb.Fatalf("setting up: %v", f.err)
	}
	return f.lakesql, f.duckdb, f.demo, f.empty
}

// buildDuckDBQuery compiles cmd/duckdb-query/duckdb_query.c with gcc -O2
// into out, linked with the static DuckDB libraries that duckdb-go-bindings
// ships for this platform (the bench's DuckDB version, go.mod). The linker
// flags are the #cgo LDFLAGS line of that module's prebuilt.go, as cgo
// links duckdb-go, so the library list follows a version bump.
func buildDuckDBQuery(out string) error {
	gcc, err := exec.LookPath("gcc")
	if err != nil {
		return fmt.Errorf("building cmd/duckdb-query: no gcc on PATH (the DuckDB process is a C program)")
	}
	module := "github.com/duckdb/duckdb-go-bindings/lib/" + runtime.GOOS + "-" + runtime.GOARCH
	dirOut, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", module).Output()
	dir := strings.TrimSpace(string(dirOut))
	if err != nil || dir == "" {
		return fmt.Errorf("building cmd/duckdb-query: no folder for module %s (run `go mod download %s` in bench/)", module, module)
	}
	src, err := os.ReadFile(filepath.Join(dir, "prebuilt.go"))
	if err != nil {
		return fmt.Errorf("building cmd/duckdb-query: %v", err)
	}
	var ldflags []string
	for line := range strings.Lines(string(src)) {
		if rest, ok := strings.CutPrefix(line, "#cgo LDFLAGS:"); ok {
			ldflags = append(ldflags, strings.Fields(strings.ReplaceAll(rest, "${SRCDIR}", dir))...)
		}
	}
	if len(ldflags) == 0 {
		return fmt.Errorf("building cmd/duckdb-query: %s has no #cgo LDFLAGS line", filepath.Join(dir, "prebuilt.go"))
	}
	args := append([]string{"-O2", "-I" + dir, "cmd/duckdb-query/duckdb_query.c", "-o", out}, ldflags...)
	args = append(args, "-lpthread")
	if msg, err := exec.Command(gcc, args...).CombinedOutput(); err != nil {
		return fmt.Errorf("building cmd/duckdb-query: gcc %s: %v: %s", strings.Join(args, " "), err, msg)
	}
	return nil
}

// benchProcess runs the command b.N times and reports its CPU time and
// page faults.
func benchProcess(b *testing.B, name string, args ...string) {
	b.Helper()
	var cpu time.Duration
	var faults int64
	b.ResetTimer()
	for range b.N {
		cmd := exec.Command(name, args...)
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("%s: %v: %s", name, err, out)
		}
		cpu += cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
		faults += minorFaults(cmd.ProcessState)
	}
	b.ReportMetric(float64(cpu.Microseconds())/1000/float64(b.N), "cpu-ms/op")
	b.ReportMetric(float64(faults)/float64(b.N), "faults/op")
}

// select1Args and oneDayArgs are the command lines of the two whole-process
// runs, lakesql's and DuckDB's.
func select1Args(lakesql, duckdb, empty string) (lake, duck []string) {
	return []string{lakesql, "--warehouse", empty, "-e", "SELECT 1"}, []string{duckdb, "SELECT 1"}
}

func oneDayArgs(lakesql, duckdb, demo string) (lake, duck []string) {
	return []string{lakesql, "--warehouse", demo, "--catalog", "oleander", "--format", "csv", "-e", tutorialOneDayQuery},
		[]string{duckdb, fmt.Sprintf(duckdbOneDayQuery, demo)}
}

func BenchmarkProcessSelect1(b *testing.B) {
	lakesql, duckdb, _, empty := processSetup(b)
	lake, duck := select1Args(lakesql, duckdb, empty)
	b.Run("lakesql", func(b *testing.B) { benchProcess(b, lake[0], lake[1:]...) })
	b.Run("duckdb", func(b *testing.B) { benchProcess(b, duck[0], duck[1:]...) })
}

func BenchmarkProcessOneDay(b *testing.B) {
	lakesql, duckdb, demo, _ := processSetup(b)
	lake, duck := oneDayArgs(lakesql, duckdb, demo)
	b.Run("lakesql", func(b *testing.B) { benchProcess(b, lake[0], lake[1:]...) })
	b.Run("duckdb", func(b *testing.B) { benchProcess(b, duck[0], duck[1:]...) })
}
