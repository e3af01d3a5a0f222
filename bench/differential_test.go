package bench

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lakesql/lakesql"
	"github.com/lakesql/lakesql/internal/demo"
)

// diffCase is one query of the differential test. Its SQL runs unchanged in
// both engines (DuckDB sees the lakesql tables under the same names), so
// every query is written in the dialect the two share. Results compare as
// multisets unless ordered, which is set only when the ORDER BY fixes the
// order of every row.
type diffCase struct {
	sql     string
	ordered bool
}

// Small hand-made tables with NULLs and edge values, in namespace diff.
var diffFixtures = []string{
	`CREATE NAMESPACE diff`,
	`CREATE TABLE diff.t (id INT, i INT, b BIGINT, d DOUBLE, m DECIMAL(10,3), s STRING, dt DATE, ts TIMESTAMP, flag BOOLEAN)`,
	`INSERT INTO diff.t VALUES
		(1, -7, 9000000000, -2.5, -1.255, 'héllo', DATE '2024-02-29', TIMESTAMP '2024-02-29 13:45:30.25', true),
		(2, 0, NULL, 0.0, 2.345, '', DATE '1969-12-31', TIMESTAMP '1969-12-31 23:30:15', false),
		(3, NULL, -1, NULL, NULL, NULL, NULL, NULL, NULL),
		(4, 2147483647, -9223372036854775807, 1e300, 9999999.999, '  Spark SQL  ', DATE '2000-01-01', TIMESTAMP '2000-01-01 00:00:00', true),
		(5, 3, 3, 3.5, 0.001, 'a%b_c', DATE '2024-12-31', TIMESTAMP '2024-12-31 23:59:59.999999', false),
		(6, -2147483647, 0, -0.0, -0.001, 'ABC', DATE '2024-01-01', TIMESTAMP '2024-06-15 12:00:00', NULL),
		(7, 3, 3, 3.5, 0.001, 'abc', DATE '2024-03-01', TIMESTAMP '2024-03-01 00:00:00.000001', true)`,
	`CREATE TABLE diff.l (id INT, s STRING)`,
	`INSERT INTO diff.l VALUES (1, 'a'), (2, 'b'), (2, 'b2'), (3, 'c'), (NULL, 'n'), (5, NULL)`,
	`CREATE TABLE diff.r (id INT, t STRING)`,
	`INSERT INTO diff.r VALUES (2, 'x'), (3, 'y'), (3, 'y2'), (4, 'z'), (NULL, 'rn')`,
	`CREATE TABLE diff.a (x INT, s STRING)`,
	`INSERT INTO diff.a VALUES (1, 'p'), (1, 'p'), (2, 'q'), (NULL, NULL), (3, 'r'), (3, 'r')`,
	`CREATE TABLE diff.b (y INT, t STRING)`,
	`INSERT INTO diff.b VALUES (1, 'p'), (3, 'r'), (NULL, NULL), (4, 's'), (3, 'r')`,
	`CREATE TABLE diff.f (id INT, f DOUBLE, g REAL)`,
	`INSERT INTO diff.f VALUES (1, CAST('NaN' AS DOUBLE), 1.5), (2, CAST('Infinity' AS DOUBLE), -1.5), (3, CAST('-Infinity' AS DOUBLE), NULL),
		(4, -0.0, 0.0), (5, 0.0, 0.1), (6, NULL, 2.5), (7, 1e-300, -2.5), (8, 2.5, 3.0)`,
	`CREATE TABLE diff.empty (id INT, v DOUBLE)`,
}

// diffTables are the tables the differential queries read.
var diffTables = []string{"tutorial.retail_clickstream_events", "tutorial.retail_daily_traffic_summary",
	"diff.t", "diff.l", "diff.r", "diff.a", "diff.b", "diff.f"}

// diffEngines is the pair of engines over the same data.
type diffEngines struct {
	lake *lakesql.Session
	duck *sql.DB
}

// setupDifferential builds a small demo warehouse plus the fixtures and opens
// DuckDB with a view per table over the same Parquet files.
func setupDifferential(t *testing.T) diffEngines {
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "wh")
	if err := demo.Build(ctx, demo.Options{Warehouse: dir, Days: 5, EventsPerDay: 2000}); err != nil {
		t.Fatal(err)
	}
	lake, err := lakesql.Open(ctx, lakesql.Options{Warehouse: dir})
	if err != nil {
		t.Fatal(err)
	}
	if err := lakeExec(ctx, lake, diffFixtures...); err != nil {
		t.Fatal(err)
	}
	duck, err := openDuck()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { duck.Close() })
	for _, table := range diffTables {
		if err := duckViewOf(ctx, lake, duck, table); err != nil {
			t.Fatal(err)
		}
	}
	// diff.empty has no data file to read; DuckDB gets an empty table.
	if err := duckExec(ctx, duck, `CREATE TABLE diff.empty (id INT, v DOUBLE)`); err != nil {
		t.Fatal(err)
	}
	return diffEngines{lake: lake, duck: duck}
}

// check runs one case in both engines and describes a mismatch, or returns
// "" when the engines agree.
func (e diffEngines) check(ctx context.Context, c diffCase) string {
	want, duckErr := duckRows(ctx, e.duck, c.sql)
	got, lakeErr := lakeRows(ctx, e.lake, c.sql)
	switch {
	case duckErr != nil && lakeErr != nil:
		return fmt.Sprintf("both engines failed\n  duckdb:  %v\n  lakesql: %v", duckErr, lakeErr)
	case duckErr != nil:
		return fmt.Sprintf("duckdb failed: %v\n  lakesql:\n%s", duckErr, formatRows(got.rows, 10))
	case lakeErr != nil:
		return fmt.Sprintf("lakesql failed: %v\n  duckdb:\n%s", lakeErr, formatRows(want.rows, 10))
	}
	diff := diffResults(want, got, c.ordered)
	if diff == "" {
		return ""
	}
	if !c.ordered {
		want.rows, got.rows = sortedRows(want.rows), sortedRows(got.rows)
	}
	return fmt.Sprintf("%s\n  duckdb:\n%s  lakesql:\n%s", diff, formatRows(want.rows, 10), formatRows(got.rows, 10))
}

// TestDifferential runs the hand-written and generated queries in lakesql and
// DuckDB and fails on every query whose answers differ.
func TestDifferential(t *testing.T) {
	e := setupDifferential(t)
	ctx := context.Background()
	cases := append(handWrittenCases(), generatedCases(diffSeed, diffGenerated)...)
	passed, failed := 0, 0
	for i, c := range cases {
		if msg := e.check(ctx, c); msg != "" {
			failed++
			t.Errorf("query %d: %s\n  %s", i+1, strings.Join(strings.Fields(c.sql), " "), msg)
			continue
		}
		passed++
	}
	fmt.Printf("differential: %d passed, %d failed\n", passed, failed)
}

// Generated queries: a fixed seed keeps runs reproducible.
const (
	diffSeed      = 20260115
	diffGenerated = 200
)
