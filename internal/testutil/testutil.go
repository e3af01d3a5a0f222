// Package testutil holds the helpers the end-to-end tests of package lakesql
// share: open a session on a fresh warehouse, run statements, read rows as
// text, expect errors, list a table's files and read a table with iceberg-go.
//
// Every helper takes the test first and fails it (t.Fatal) on an unexpected
// error, so tests read as a list of statements and expectations. Rows are
// rendered as their cells joined by "|", each cell as the golden scripts
// print it (see cell), so a row written in a Go test reads like one in a
// script with "|" for the tab.
package testutil

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/iceberg-go/table"

	"github.com/lakesql/lakesql"
	"github.com/lakesql/lakesql/storage"
	"github.com/lakesql/lakesql/value"
)

// cell renders row i of a column: the one place that decides how values
// print in tests: value.Format, as the golden runner and the CLI print them.
func cell(col arrow.Array, i int) string { return value.Format(col, i) }

// appendRows renders each row of batch as its cells joined by "|".
func appendRows(rows []string, batch arrow.RecordBatch) []string {
	cells := make([]string, batch.NumCols())
	for i := range int(batch.NumRows()) {
		for j := range cells {
			cells[j] = cell(batch.Column(j), i)
		}
		rows = append(rows, strings.Join(cells, "|"))
	}
	return rows
}

// Open opens a session on a fresh warehouse in a temporary folder, runs the
// setup statements, and returns the session with the warehouse folder. The
// session is closed when the test ends.
func Open(t testing.TB, setup ...string) (*lakesql.Session, string) {
	t.Helper()
	dir := t.TempDir()
	return OpenWith(t, lakesql.Options{Warehouse: dir}, setup...), dir
}

// OpenWith opens a session with opts (e.g. on an existing warehouse, or
// with another catalog name), runs the setup statements and closes the
// session when the test ends.
func OpenWith(t testing.TB, opts lakesql.Options, setup ...string) *lakesql.Session {
	t.Helper()
	s, err := lakesql.Open(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	Exec(t, s, setup...)
	return s
}

// Exec runs statements, reading their results to the end, and fails the
// test at the first error.
func Exec(t testing.TB, s *lakesql.Session, statements ...string) {
	t.Helper()
	for _, st := range statements {
		if _, err := run(s, st); err != nil {
			t.Fatalf("%s: %v", st, err)
		}
	}
}

// run executes one statement and renders its rows in order.
func run(s *lakesql.Session, statement string) (rows []string, err error) {
	return runAt(context.Background(), s, statement)
}

// runAt is run in the context ctx (which may fix the statement's clock:
// planner.WithStatementTime).
func runAt(ctx context.Context, s *lakesql.Session, statement string) (rows []string, err error) {
	res, err := s.Exec(ctx, statement)
	if err != nil {
		return nil, err
	}
	defer func() {
		if cerr := res.Close(); err == nil {
			err = cerr
		}
	}()
	for {
		batch, err := res.Next(ctx)
		if err != nil {
			return nil, err
		}
		if batch == nil {
			return rows, nil
		}
		rows = appendRows(rows, batch)
		batch.Release()
	}
}

// RowsInOrder runs a query and returns its rows in the order they came.
func RowsInOrder(t testing.TB, s *lakesql.Session, query string) []string {
	t.Helper()
	rows, err := run(s, query)
	if err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return rows
}

// RowsAt is RowsInOrder in the context ctx.
func RowsAt(ctx context.Context, t testing.TB, s *lakesql.Session, query string) []string {
	t.Helper()
	rows, err := runAt(ctx, s, query)
	if err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return rows
}

// Rows runs a query and returns its rows sorted.
func Rows(t testing.TB, s *lakesql.Session, query string) []string {
	t.Helper()
	rows := RowsInOrder(t, s, query)
	slices.Sort(rows)
	return rows
}

// WantRows fails the test unless query returns the rows want, in any order.
func WantRows(t testing.TB, s *lakesql.Session, query string, want ...string) {
	t.Helper()
	got := Rows(t, s, query)
	want = slices.Sorted(slices.Values(want))
	if !slices.Equal(got, want) {
		t.Fatalf("%s\ngot\n%s\nwant\n%s", query, showRows(got), showRows(want))
	}
}

// showRows prints rows for a failure message, one a line.
func showRows(rows []string) string {
	if len(rows) == 0 {
		return "(no rows)"
	}
	return strings.Join(rows, "\n")
}

// Message runs a statement and returns the message of its result (e.g. "3
// rows deleted").
func Message(t testing.TB, s *lakesql.Session, statement string) string {
	t.Helper()
	ctx := context.Background()
	res, err := s.Exec(ctx, statement)
	if err != nil {
		t.Fatalf("%s: %v", statement, err)
	}
	defer res.Close()
	return res.Message
}

// Error runs a statement that must fail, when it starts or while its rows
// are read, and returns the error message.
func Error(t testing.TB, s *lakesql.Session, statement string) string {
	t.Helper()
	_, err := run(s, statement)
	if err == nil {
		t.Fatalf("%s: succeeded, want an error", statement)
	}
	return err.Error()
}

// WantError fails the test unless statement fails with a one-line message
// containing want.
func WantError(t testing.TB, s *lakesql.Session, statement, want string) {
	t.Helper()
	if msg := Error(t, s, statement); !strings.Contains(msg, want) || strings.Contains(msg, "\n") {
		t.Fatalf("%s: error %q, want one line containing %q", statement, msg, want)
	}
}

// Explain returns the EXPLAIN output of query, its lines joined by newlines.
func Explain(t testing.TB, s *lakesql.Session, query string) string {
	t.Helper()
	return strings.Join(RowsInOrder(t, s, "EXPLAIN "+query), "\n")
}

// WantContains fails the test unless text contains every part.
func WantContains(t testing.TB, text string, parts ...string) {
	t.Helper()
	for _, p := range parts {
		if !strings.Contains(text, p) {
			t.Fatalf("want %q in\n%s", p, text)
		}
	}
}

// Table loads ns.name from the session's warehouse.
func Table(t testing.TB, s *lakesql.Session, ns, name string) *table.Table {
	t.Helper()
	tbl, err := s.Warehouse().LoadTable(context.Background(), ns, name)
	if err != nil {
		t.Fatal(err)
	}
	return tbl
}

// LiveFiles lists the paths of the live data files of ns.name's current
// snapshot, sorted.
func LiveFiles(t testing.TB, s *lakesql.Session, ns, name string) []string {
	t.Helper()
	tbl := Table(t, s, ns, name)
	plan, err := storage.PlanScan(context.Background(), s.Warehouse().FS(), storage.ScanRequest{Metadata: tbl.Metadata(), Snapshot: tbl.CurrentSnapshot(), Schema: tbl.Schema()})
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, df := range plan.Files {
		paths = append(paths, df.FilePath())
	}
	slices.Sort(paths)
	return paths
}

// FilesBelow lists the files below dir, relative to it, sorted; none if dir
// does not exist.
func FilesBelow(t testing.TB, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			rel, err := filepath.Rel(dir, path)
			if err != nil {
				return err
			}
			out = append(out, rel)
		}
		return nil
	})
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return out
}

// WriteFile writes content to path, creating its folders.
func WriteFile(t testing.TB, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Try runs a statement and returns its rows sorted, or its error, for
// tests (such as fuzz targets) where a statement may fail.
func Try(s *lakesql.Session, statement string) ([]string, error) {
	rows, err := run(s, statement)
	slices.Sort(rows)
	return rows, err
}
