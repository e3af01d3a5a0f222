package bench

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// processRuns is how many times each whole process runs (after one
// untimed warm-up that also checks its answer).
var processRuns = envInt("BENCH_PROCESS_RUNS", quickOr(11, 31))

// processHeading starts RESULTS.md's whole-process section, which
// TestProcessHarness writes and TestHarness keeps.
const processHeading = "## Whole processes"

// processResult is one whole-process comparison.
type processResult struct {
	name                   string
	lakeWall, duckWall     time.Duration // medians
	lakeCPU, duckCPU       time.Duration // medians of user + system time
	lakeFaults, duckFaults int64         // medians of minor page faults
	verdict                string
}

// TestProcessHarness times what a user scripting `lakesql -e` waits for,
// start-up included, against a DuckDB process (cmd/duckdb-query, C on
// DuckDB's C API; see processSetup): `SELECT 1`
// and the tutorial's one-day query on the demo table (lakesql demo: 7 days,
// 10,000 events a day). It rewrites the whole-process section of
// RESULTS<suffix>.md, leaving the rest as TestHarness wrote it.
func TestProcessHarness(t *testing.T) {
	if testing.Short() {
		t.Skip("process harness: skipped in -short mode")
	}
	lakesql, duckdb, demo, empty := processSetup(t)
	lake1, duck1 := select1Args(lakesql, duckdb, empty)
	lakeDay, duckDay := oneDayArgs(lakesql, duckdb, demo)
	results := []processResult{
		measureProcesses(t, "`SELECT 1`", lake1, duck1, false),
		measureProcesses(t, "tutorial's one-day query on the demo table", lakeDay, duckDay, true),
	}
	lakeSize, duckSize := fileSize(t, lakesql), fileSize(t, duckdb)
	version, _ := runProcess(t, []string{duckdb, "SELECT library_version FROM pragma_version()"})
	section := processSection(results, lakeSize, duckSize, strings.TrimSpace(csvRows(version)))
	path := "RESULTS" + *harnessOut + ".md"
	old, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	head, _, _ := strings.Cut(string(old), processHeading)
	if head = strings.TrimRight(head, "\n"); head != "" {
		head += "\n\n"
	}
	if err := os.WriteFile(path, []byte(head+section), 0o644); err != nil {
		t.Fatal(err)
	}
	fmt.Print(section)
}

// keepProcessSection is RESULTS.md's whole-process section as the file at
// path has it, for TestHarness to keep when it rewrites the rest.
func keepProcessSection(path string) string {
	old, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	if _, section, ok := strings.Cut(string(old), processHeading); ok {
		return processHeading + section
	}
	return ""
}

// measureProcesses runs each command once untimed (comparing the answers'
// rows when compare is set), then processRuns times, alternating which
// engine goes first.
func measureProcesses(t *testing.T, name string, lake, duck []string, compare bool) processResult {
	res := processResult{name: name, verdict: "ok"}
	lakeOut, _ := runProcess(t, lake)
	duckOut, _ := runProcess(t, duck)
	if compare {
		// Both print CSV with a header; the column names may differ.
		if l, d := csvRows(lakeOut), csvRows(duckOut); l != d || l == "" {
			res.verdict = "WRONG"
			t.Errorf("%s: lakesql printed\n%s\nDuckDB printed\n%s", name, lakeOut, duckOut)
		}
	}
	var lw, dw, lc, dc []time.Duration
	var lf, df []int64
	for round := range processRuns {
		for k := range 2 {
			args, wall, cpu, faults := lake, &lw, &lc, &lf
			if (round+k)%2 == 1 {
				args, wall, cpu, faults = duck, &dw, &dc, &df
			}
			_, m := runProcess(t, args)
			*wall, *cpu, *faults = append(*wall, m.wall), append(*cpu, m.cpu), append(*faults, m.faults)
		}
	}
	res.lakeWall, res.duckWall = median(lw), median(dw)
	res.lakeCPU, res.duckCPU = median(lc), median(dc)
	res.lakeFaults, res.duckFaults = medianInt(lf), medianInt(df)
	return res
}

type processMeasure struct {
	wall, cpu time.Duration
	faults    int64
}

// runProcess runs one command to its end and returns its standard output.
func runProcess(t *testing.T, args []string) (string, processMeasure) {
	t.Helper()
	cmd := exec.Command(args[0], args[1:]...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	begin := time.Now()
	err := cmd.Run()
	wall := time.Since(begin)
	if err != nil {
		t.Fatalf("%s: %v: %s", strings.Join(args, " "), err, stderr.String())
	}
	ps := cmd.ProcessState
	m := processMeasure{wall: wall, cpu: ps.UserTime() + ps.SystemTime(), faults: minorFaults(ps)}
	return stdout.String(), m
}

// minorFaults is the page faults a finished process took without reading
// the disk: the pages of its binary and heap it touched.
func minorFaults(ps *os.ProcessState) int64 {
	if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
		return ru.Minflt
	}
	return 0
}

// csvRows is CSV output without its header line.
func csvRows(out string) string {
	_, rows, _ := strings.Cut(out, "\n")
	return rows
}

func medianInt(ns []int64) int64 {
	ds := make([]time.Duration, len(ns))
	for i, n := range ns {
		ds[i] = time.Duration(n)
	}
	return int64(median(ds))
}

func fileSize(t *testing.T, path string) int64 {
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Size()
}

// processSection is RESULTS.md's whole-process section.
func processSection(results []processResult, lakeSize, duckSize int64, duckVersion string) string {
	var sb strings.Builder
	sb.WriteString(processHeading + "\n\n")
	sb.WriteString("Generated by `make bench` (`TestProcessHarness`, `bench/harness_process_test.go`).\n\n")
	fmt.Fprintf(&sb, "- lakesql: the binary as `make build` builds it (CGO_ENABLED=0, `-ldflags=-s -w`, %s), `lakesql -e`.\n", humanBytes(float64(lakeSize)))
	fmt.Fprintf(&sb, "- DuckDB: `bench/cmd/duckdb-query` (%s), a C program on DuckDB %s's C API, linked with the static library that duckdb-go-bindings ships and built with `gcc -O2`: one native process that opens an in-memory database, runs the statement and prints CSV — what the duckdb CLI does (none is installed here).\n", humanBytes(float64(duckSize)), duckVersion)
	fmt.Fprintf(&sb, "- Runs: one untimed run each (answers compared), then %d runs each, engines alternating; medians of wall time, of CPU time (user + system, which a loaded machine disturbs less) and of minor page faults.\n", processRuns)
	fmt.Fprintf(&sb, "- Generated: %s, load average %s.\n\n", time.Now().UTC().Format("2006-01-02 15:04 MST"), loadAverage())
	sb.WriteString("| process | lakesql wall | duckdb wall | ratio | lakesql CPU | duckdb CPU | ratio | lakesql faults | duckdb faults | answers |\n")
	sb.WriteString("|---|---:|---:|---:|---:|---:|---:|---:|---:|---|\n")
	for _, r := range results {
		fmt.Fprintf(&sb, "| %s | %s | %s | %s | %s | %s | %s | %d | %d | %s |\n", r.name,
			formatDuration(r.lakeWall), formatDuration(r.duckWall), formatRatio(r.lakeWall, r.duckWall),
			formatDuration(r.lakeCPU), formatDuration(r.duckCPU), formatRatio(r.lakeCPU, r.duckCPU),
			r.lakeFaults, r.duckFaults, r.verdict)
	}
	sb.WriteString(processNotes)
	return sb.String()
}

const processNotes = `
How to read it:

- The one-day query reads the demo warehouse's
  ` + "`oleander.tutorial.retail_clickstream_events`" + ` through its Iceberg metadata
  (lakesql) and the table's Parquet files through ` + "`read_parquet('…/data/**/*.parquet')`" + `
  (DuckDB); both answers are compared row for row.
- Nearly all of lakesql's time on ` + "`SELECT 1`" + ` is the Go runtime starting a
  large binary and the package initialisers of its dependencies (arrow's
  compute registry, the TiDB parser, vitess, the AWS SDK, protobuf
  descriptors); ` + "`GODEBUG=inittrace=1 lakesql -e 'SELECT 1'`" + ` lists them.
`
