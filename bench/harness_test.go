package bench

import (
	"context"
	"database/sql"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/lakesql/lakesql"
	"github.com/lakesql/lakesql/internal/demo"
)

// Harness flags; each also reads an environment variable so that make can
// pass them without knowing the test binary's flags. BENCH_QUICK=1 is the
// development scale.
var (
	harnessScale = flag.Int("scale", envInt("BENCH_SCALE", quickOr(1_000_000, 20_000_000)), "harness: events in total")
	harnessDays  = flag.Int("days", envInt("BENCH_SCALE_DAYS", 730), "harness: days the events span")
	harnessRuns  = flag.Int("runs", envInt("BENCH_RUNS", quickOr(3, 5)), "harness: timed runs per query and engine")
	// harnessOut names the results: RESULTS<suffix>.md with ratios<suffix>.png.
	harnessOut = flag.String("out", os.Getenv("BENCH_OUT"), "harness: suffix of the results files, as in RESULTS<suffix>.md")
)

func quickOr(quick, full int) int {
	if os.Getenv("BENCH_QUICK") != "" {
		return quick
	}
	return full
}

// The demo starts on 2026-01-01; the queries look at days well inside the
// two years the full scale spans (and the 730 days the quick one does).
const (
	harnessDay   = "2026-06-15"
	harnessMonth = "2026-06-01"
	harnessNext  = "2026-07-01"
	harnessWeek  = "2026-06-08"
)

// harness holds both engines over one generated data set.
type harness struct {
	dir  string
	lake *lakesql.Session
	// lakeOff is a second session on the same warehouse with SET pruning =
	// off: every file and row group is read, so it shows what pruning saves.
	lakeOff *lakesql.Session
	duck    *sql.DB
}

// TestHarness compares lakesql with DuckDB on the nine queries and
// writes RESULTS.md and ratios.png (BENCH_OUT=-1e8 writes RESULTS-1e8.md
// and ratios-1e8.png). It is the long-running part of
// `make bench`, so -short skips it.
func TestHarness(t *testing.T) {
	if testing.Short() {
		t.Skip("harness: skipped in -short mode")
	}
	h := setupHarness(t)
	var results []queryResult
	for _, q := range harnessQueries() {
		results = append(results, h.runQuery(t, q))
	}
	results = append(results, h.runRewrite(t))
	env, err := h.describeEnvironment()
	if err != nil {
		t.Fatal(err)
	}
	chart := "ratios" + *harnessOut + ".png"
	if err := writeResults("RESULTS"+*harnessOut+".md", chart, env, results); err != nil {
		t.Fatal(err)
	}
	if err := writeRatioChart(chart, results); err != nil {
		t.Fatal(err)
	}
	fmt.Print(resultsTable(results))
}

// setupHarness generates the demo events and lays them out three ways: the
// day-partitioned Iceberg table lakesql queries (DuckDB reads its data
// files), a bucket(16, user_id) copy for the point lookup, and a hive-style
// copy written by DuckDB.
func setupHarness(t *testing.T) *harness {
	ctx := context.Background()
	lakesql.TuneGC() // as the lakesql binary runs
	dir := t.TempDir()
	days := *harnessDays
	opts := demo.Options{Warehouse: filepath.Join(dir, "wh"), Days: days, EventsPerDay: max(1, *harnessScale/days)}
	begin := time.Now()
	if err := demo.Build(ctx, opts); err != nil {
		t.Fatal(err)
	}
	lake, err := lakesql.Open(ctx, lakesql.Options{Warehouse: opts.Warehouse})
	if err != nil {
		t.Fatal(err)
	}
	if err := lakeExec(ctx, lake, harnessTables...); err != nil {
		t.Fatal(err)
	}
	lakeOff, err := lakesql.Open(ctx, lakesql.Options{Warehouse: opts.Warehouse})
	if err != nil {
		t.Fatal(err)
	}
	if err := lakeExec(ctx, lakeOff, "SET pruning = off"); err != nil {
		t.Fatal(err)
	}
	duck, err := openDuck()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { duck.Close() })
	h := &harness{dir: dir, lake: lake, lakeOff: lakeOff, duck: duck}
	for _, table := range []string{"tutorial.events_by_day", "tutorial.events_by_user", "tutorial.products", "tutorial.events_30d"} {
		if err := duckViewOf(ctx, lake, duck, table); err != nil {
			t.Fatal(err)
		}
	}
	if err := h.writeHiveCopy(ctx); err != nil {
		t.Fatal(err)
	}
	t.Logf("harness: %d events over %d days set up in %v", opts.EventsPerDay*days, days, time.Since(begin).Round(time.Second))
	return h
}

// harnessTables derive the benchmark tables from the demo clickstream.
var harnessTables = []string{
	`CREATE TABLE tutorial.events_by_day PARTITIONED BY (day(event_time)) AS SELECT * FROM tutorial.retail_clickstream_events`,
	`CREATE TABLE tutorial.events_by_user PARTITIONED BY (bucket(16, user_id)) AS SELECT * FROM tutorial.retail_clickstream_events`,
	`CREATE TABLE tutorial.products AS SELECT DISTINCT product_id, category FROM tutorial.retail_clickstream_events WHERE product_id IS NOT NULL`,
	`CREATE TABLE tutorial.events_30d AS SELECT * FROM tutorial.retail_clickstream_events WHERE event_time < TIMESTAMP '2026-01-31 00:00:00'`,
}

// writeHiveCopy writes event_date=YYYY-MM-DD/part.parquet with DuckDB from
// the same rows and puts a view hive.events_by_day over it.
func (h *harness) writeHiveCopy(ctx context.Context) error {
	out := filepath.Join(h.dir, "hive")
	return duckExec(ctx, h.duck,
		fmt.Sprintf(`COPY (SELECT *, CAST(event_time AS DATE) AS event_date FROM tutorial.events_by_day)
			TO '%s' (FORMAT parquet, PARTITION_BY (event_date), FILENAME_PATTERN 'part')`, out),
		`CREATE SCHEMA hive`,
		fmt.Sprintf(`CREATE VIEW hive.events_by_day AS SELECT * FROM read_parquet('%s/*/*.parquet', hive_partitioning = true)`, out))
}

// engine names, in the order of the results table.
const (
	engineLake    = "lakesql"
	engineDuck    = "duckdb"
	engineHive    = "duckdb-hive"
	engineLakeOff = "lakesql pruning=off"
)

// target is one engine's way to run a benchmark query: run is timed and
// returns the answer, prepare (optional) is untimed set-up before each run.
type target struct {
	engine  string
	prepare func(ctx context.Context) error
	run     func(ctx context.Context) (result, error)
}

// queryResult is what the harness reports for one query.
type queryResult struct {
	id      int
	name    string
	median  map[string]time.Duration
	peak    map[string]int64 // bytes; -1 when not measurable
	reads   scanReads
	verdict string // "ok", or what differed
}

// measureTargets runs the targets once to warm up and to compare answers,
// then times runs rounds, rotating which engine goes first each round so
// that neither always runs on a cache the other warmed, and ends with one
// untimed memory run per target.
func measureTargets(t *testing.T, id int, name string, ordered bool, targets []target) queryResult {
	ctx := context.Background()
	res := queryResult{id: id, name: name, median: map[string]time.Duration{}, peak: map[string]int64{}, verdict: "ok"}
	answers := make([]result, len(targets))
	for i, tg := range targets {
		m, err := measure(ctx, tg, false)
		if err != nil {
			t.Fatalf("query %d (%s) on %s: %v", id, name, tg.engine, err)
		}
		answers[i] = m.answer
	}
	// The first DuckDB target is the reference every other engine must match.
	for i := range targets {
		if i == 1 {
			continue
		}
		if d := diffResults(answers[1], answers[i], ordered); d != "" {
			res.verdict = "WRONG (" + targets[i].engine + ")"
			t.Errorf("query %d (%s): %s differs from %s: %s\n  %s:\n%s  %s:\n%s", id, name, targets[i].engine, targets[1].engine, d,
				targets[1].engine, formatRows(answers[1].rows, 10), targets[i].engine, formatRows(answers[i].rows, 10))
		}
	}
	times := make([][]time.Duration, len(targets))
	for round := range *harnessRuns {
		for k := range targets {
			i := (round + k) % len(targets)
			m, err := measure(ctx, targets[i], false)
			if err != nil {
				t.Fatalf("query %d (%s) on %s: %v", id, name, targets[i].engine, err)
			}
			times[i] = append(times[i], m.elapsed)
		}
	}
	for i, tg := range targets {
		res.median[tg.engine] = median(times[i])
		m, err := measure(ctx, tg, true)
		if err != nil {
			t.Fatalf("query %d (%s) on %s: %v", id, name, tg.engine, err)
		}
		res.peak[tg.engine] = m.peak
	}
	return res
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
