package bench

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lakesql/lakesql"
)

// TPC-H settings, from the environment so that make can pass them: SF is
// the scale factor, TPCH_QUICK=1 the development subset of SF=1,
// TPCH_RUNS the timed runs per query and engine, TPCH_TIMEOUT the seconds
// one run of one query may take before it counts as a timeout.
var (
	tpchQuick   = os.Getenv("TPCH_QUICK") != ""
	tpchSF      = envInt("SF", 1)
	tpchRuns    = envInt("TPCH_RUNS", 5)
	tpchTimeout = time.Duration(envInt("TPCH_TIMEOUT", 120)) * time.Second
)

// tpchQuickPercent is the share of SF=1's orders (with their lineitems)
// the quick run keeps; the other tables are whole.
const tpchQuickPercent = 10

// quickSubset is the SQL of the quick data set: the first tenth of the
// orders by key with their lineitems, every row of the other tables.
func quickSubset(table string) string {
	firstOrders := fmt.Sprintf("SELECT o_orderkey FROM orders ORDER BY o_orderkey LIMIT (SELECT count(*) * %d // 100 FROM orders)", tpchQuickPercent)
	switch table {
	case "orders":
		return "SELECT * FROM orders WHERE o_orderkey IN (" + firstOrders + ") ORDER BY o_orderkey"
	case "lineitem":
		return "SELECT * FROM lineitem WHERE l_orderkey IN (" + firstOrders + ") ORDER BY l_orderkey, l_linenumber"
	}
	return "SELECT * FROM " + table
}

// tpchEngines holds both engines over the same TPC-H tables: lakesql's
// Iceberg tables loaded by CTAS, and DuckDB views over those tables' data
// files, so both read the same Parquet.
type tpchEngines struct {
	lake *lakesql.Session
	duck *sql.DB
}

// TestTPCH runs the 22 TPC-H queries in lakesql and DuckDB and writes
// RESULTS-tpch.md (`make tpch`). A query that fails, is wrong or times
// out in lakesql is reported as such; the others still run.
func TestTPCH(t *testing.T) {
	if testing.Short() {
		t.Skip("tpch: skipped in -short mode")
	}
	ctx := t.Context()
	lakesql.TuneGC() // as the lakesql binary runs
	loadBefore := loadAverage()
	var (
		data  string
		err   error
		scale = fmt.Sprintf("SF=%d", tpchSF)
	)
	if tpchQuick {
		scale = fmt.Sprintf("quick: the first %d %% of SF=1's orders with their lineitems, the other tables whole", tpchQuickPercent)
		data, err = tpchSubset(ctx, "quick", quickSubset)
	} else {
		data, err = tpchDataset(ctx, tpchSF)
	}
	if err != nil {
		t.Fatal(err)
	}
	e, err := openTPCH(ctx, t.TempDir(), data)
	if err != nil {
		t.Fatal(err)
	}
	defer e.close()
	queries, err := tpchQueries()
	if err != nil {
		t.Fatal(err)
	}
	refs, err := referenceAnswers(tpchQuick || tpchSF != 1)
	if err != nil {
		t.Fatal(err)
	}
	var results []tpchResult
	for _, q := range queries {
		r := e.runQuery(ctx, q, refs[q.id])
		t.Logf("Q%02d: lakesql %s, duckdb %s, %s", q.id, formatDuration(r.median[engineLake]), formatDuration(r.median[engineDuck]), r.verdict())
		results = append(results, r)
	}
	var duckVersion string
	if err := e.duck.QueryRowContext(ctx, "SELECT version()").Scan(&duckVersion); err != nil {
		t.Fatal(err)
	}
	if err := writeTPCHResults("RESULTS-tpch.md", scale, duckVersion, loadBefore, results); err != nil {
		t.Fatal(err)
	}
	fmt.Print(tpchResultsTable(results))
}

// openTPCH loads every table of data into a lakesql warehouse with CTAS,
// as a user would, and makes DuckDB see the same files under the same
// names. Both engines then run the unqualified standard texts (USE tpch).
func openTPCH(ctx context.Context, warehouse, data string) (e *tpchEngines, err error) {
	begin := time.Now()
	e = &tpchEngines{}
	defer func() {
		if err != nil {
			e.close()
		}
	}()
	if e.lake, err = lakesql.Open(ctx, lakesql.Options{Warehouse: warehouse}); err != nil {
		return nil, err
	}
	if e.duck, err = openDuck(); err != nil {
		return nil, err
	}
	if err := lakeExec(ctx, e.lake, "CREATE NAMESPACE tpch"); err != nil {
		return nil, err
	}
	for _, tb := range tpchTables {
		ctas := fmt.Sprintf("CREATE TABLE tpch.%s AS SELECT * FROM read_parquet('%s')", tb.name, filepath.Join(data, tb.name+".parquet"))
		if err := lakeExec(ctx, e.lake, ctas); err != nil {
			return nil, err
		}
		if err := duckViewOf(ctx, e.lake, e.duck, "tpch."+tb.name); err != nil {
			return nil, err
		}
	}
	if err := errors.Join(lakeExec(ctx, e.lake, "USE tpch"), duckExec(ctx, e.duck, "USE tpch")); err != nil {
		return nil, err
	}
	fmt.Printf("tpch: loaded %s into lakesql in %v\n", data, time.Since(begin).Round(time.Second))
	return e, nil
}

func (e *tpchEngines) close() {
	if e.lake != nil {
		e.lake.Close()
	}
	if e.duck != nil {
		e.duck.Close()
	}
}

// tpchQuery is one of the 22 query texts in tpch/queries.
type tpchQuery struct {
	id   int
	text string
}

func tpchQueries() ([]tpchQuery, error) {
	var qs []tpchQuery
	for id := 1; id <= 22; id++ {
		text, err := os.ReadFile(filepath.Join("tpch", "queries", fmt.Sprintf("q%02d.sql", id)))
		if err != nil {
			return nil, err
		}
		qs = append(qs, tpchQuery{id: id, text: strings.TrimSpace(string(text))})
	}
	return qs, nil
}

// tpchResult is what RESULTS-tpch.md says about one query.
type tpchResult struct {
	id     int
	median map[string]time.Duration // engine → median of the timed runs
	peak   map[string]int64         // engine → bytes; -1 when not measurable
	rows   int
	// failure is lakesql's one-line error or timeout, "" when it answered.
	failure string
	// wrong says how lakesql's answer differs from DuckDB's, or DuckDB's
	// from the reference answer; "" when they agree.
	wrong string
	// checkedRef is whether a reference answer applied to this query.
	checkedRef bool
}

func (r tpchResult) correct() bool { return r.failure == "" && r.wrong == "" }

func (r tpchResult) verdict() string {
	switch {
	case r.failure != "":
		return r.failure
	case r.wrong != "":
		return "wrong: " + r.wrong
	case r.checkedRef:
		return "yes (DuckDB and reference)"
	}
	return "yes"
}

// runQuery runs one query in both engines: one warm-up run each (whose
// answers are compared), tpchRuns timed runs each with the engines
// alternating, then one untimed run each for peak memory. An engine stops
// at its first failure; the failure is the query's verdict.
func (e *tpchEngines) runQuery(ctx context.Context, q tpchQuery, ref *referenceAnswer) tpchResult {
	res := tpchResult{id: q.id, median: map[string]time.Duration{}, peak: map[string]int64{}}
	targets := []target{
		{engine: engineLake, run: withTimeout(func(ctx context.Context) (result, error) { return lakeRows(ctx, e.lake, q.text) })},
		{engine: engineDuck, run: withTimeout(func(ctx context.Context) (result, error) { return duckRows(ctx, e.duck, q.text) })},
	}
	duck, err := measure(ctx, targets[1], false)
	if err != nil {
		res.failure = "DuckDB: " + oneLine(err)
		return res
	}
	res.rows = len(duck.answer.rows)
	if ref != nil {
		res.checkedRef = true
		if d := ref.diff(duck.answer); d != "" {
			res.wrong = "DuckDB differs from the reference: " + d
		}
	}
	// A target that fails drops out of the later runs (lakesql failing its
	// warm-up, or a timed run timing out on a busy machine); the other keeps
	// its timings.
	failed := make([]bool, len(targets))
	lake, err := measure(ctx, targets[0], false)
	if err != nil {
		res.failure = oneLine(err)
		failed[0] = true
	} else if d := diffResultsWith(duck.answer, lake.answer, true, tpchEqual); d != "" && res.wrong == "" {
		res.wrong = d
	}
	times := make([][]time.Duration, len(targets))
	for round := range tpchRuns {
		for k := range targets {
			i := (round + k) % len(targets)
			if failed[i] {
				continue
			}
			m, err := measure(ctx, targets[i], false)
			if err != nil {
				res.failure = fmt.Sprintf("%s, timed run %d: %s", targets[i].engine, round+1, oneLine(err))
				failed[i] = true
				continue
			}
			times[i] = append(times[i], m.elapsed)
		}
	}
	for i, tg := range targets {
		if failed[i] {
			continue
		}
		res.median[tg.engine] = median(times[i])
		m, err := measure(ctx, tg, true)
		if err != nil {
			res.failure = fmt.Sprintf("%s, memory run: %s", tg.engine, oneLine(err))
			continue
		}
		res.peak[tg.engine] = m.peak
	}
	return res
}

// errAbandoned marks a run that ignored its context's deadline.
var errAbandoned = errors.New("did not stop after its deadline; left running")

// withTimeout bounds a run by tpchTimeout. The engines stop when their
// context is done; a run that does not within a grace period is left
// behind (its goroutine keeps running) so that the harness still ends.
func withTimeout(run func(ctx context.Context) (result, error)) func(ctx context.Context) (result, error) {
	return func(ctx context.Context) (result, error) {
		ctx, cancel := context.WithTimeout(ctx, tpchTimeout)
		defer cancel()
		type outcome struct {
			r   result
			err error
		}
		done := make(chan outcome, 1)
		go func() {
			r, err := run(ctx)
			done <- outcome{r, err}
		}()
		select {
		case o := <-done:
			if ctx.Err() != nil {
				return result{}, fmt.Errorf("timeout after %v", tpchTimeout)
			}
			return o.r, o.err
		case <-time.After(tpchTimeout + 30*time.Second):
			return result{}, fmt.Errorf("timeout after %v: %w", tpchTimeout, errAbandoned)
		}
	}
}

// oneLine shortens an error to its first line for the results table.
func oneLine(err error) string {
	s := strings.ReplaceAll(firstLine(err.Error()), "|", `\|`)
	if len(s) > 160 {
		s = s[:157] + "…"
	}
	return s
}
