package bench

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	_ "github.com/duckdb/duckdb-go/v2" // registers the "duckdb" database/sql driver

	"github.com/lakesql/lakesql"
)

// openDuck opens an in-memory DuckDB with the settings both engines must
// share for a fair, comparable run: two threads (the machine lakesql runs
// on) and UTC, the only time zone lakesql computes in. One connection keeps
// SET statements and views on the same session.
func openDuck() (*sql.DB, error) {
	db, err := sql.Open("duckdb", "")
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1)
	for _, st := range []string{`SET threads = 2`, `SET TimeZone = 'UTC'`} {
		if _, err := db.Exec(st); err != nil {
			db.Close()
			return nil, fmt.Errorf("duckdb %s: %w", st, err)
		}
	}
	return db, nil
}

// result is a query's answer in canonical values.
type result struct {
	columns []string
	rows    [][]value
}

// duckRows runs a query in DuckDB and returns its rows as canonical values.
func duckRows(ctx context.Context, db *sql.DB, query string) (result, error) {
	rows, err := db.QueryContext(ctx, query)
	if err != nil {
		return result{}, err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return result{}, err
	}
	out := result{columns: cols}
	for rows.Next() {
		cells := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range cells {
			ptrs[i] = &cells[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return result{}, err
		}
		row := make([]value, len(cols))
		for i, c := range cells {
			if row[i], err = fromDuck(c); err != nil {
				return result{}, fmt.Errorf("column %s: %w", cols[i], err)
			}
		}
		out.rows = append(out.rows, row)
	}
	return out, rows.Err()
}

// lakeRows runs a query in lakesql and returns its rows as canonical values.
func lakeRows(ctx context.Context, s *lakesql.Session, query string) (result, error) {
	res, err := s.Exec(ctx, query)
	if err != nil {
		return result{}, err
	}
	defer res.Close()
	var out result
	if res.Schema != nil {
		for _, f := range res.Schema.Fields() {
			out.columns = append(out.columns, f.Name)
		}
	}
	for {
		batch, err := res.Next(ctx)
		if err != nil {
			return result{}, err
		}
		if batch == nil {
			return out, nil
		}
		out.rows, err = appendBatch(out.rows, batch)
		batch.Release()
		if err != nil {
			return result{}, err
		}
	}
}

func appendBatch(out [][]value, batch arrow.RecordBatch) ([][]value, error) {
	cols := batch.Columns()
	for r := range int(batch.NumRows()) {
		row := make([]value, len(cols))
		for c, col := range cols {
			v, err := fromArrow(col, r)
			if err != nil {
				return nil, fmt.Errorf("column %s: %w", batch.ColumnName(c), err)
			}
			row[c] = v
		}
		out = append(out, row)
	}
	return out, nil
}

// lakeExec runs statements that return nothing worth keeping (DDL, DML, SET).
func lakeExec(ctx context.Context, s *lakesql.Session, statements ...string) error {
	for _, st := range statements {
		if _, err := lakeRows(ctx, s, st); err != nil {
			return fmt.Errorf("lakesql: %s: %w", firstLine(st), err)
		}
	}
	return nil
}

// duckExec runs DuckDB statements in order.
func duckExec(ctx context.Context, db *sql.DB, statements ...string) error {
	for _, st := range statements {
		if _, err := db.ExecContext(ctx, st); err != nil {
			return fmt.Errorf("duckdb: %s: %w", firstLine(st), err)
		}
	}
	return nil
}

// dataFiles lists the live data files of a lakesql table from its files
// metadata table. Globbing the data folder would also pick up files that a
// later snapshot removed.
func dataFiles(ctx context.Context, s *lakesql.Session, table string) ([]string, error) {
	res, err := lakeRows(ctx, s, "SELECT file_path FROM "+table+".files")
	if err != nil {
		return nil, err
	}
	files := make([]string, len(res.rows))
	for i, r := range res.rows {
		files[i] = strings.TrimPrefix(r[0].s, "file://")
	}
	return files, nil
}

// parquetSource is a DuckDB read_parquet over the given files. Hive
// partitioning is off: lakesql's day folders (event_time_day=…) would
// otherwise surface as an extra column.
func parquetSource(files []string) string {
	quoted := make([]string, len(files))
	for i, f := range files {
		quoted[i] = "'" + strings.ReplaceAll(filepath.Clean(f), "'", "''") + "'"
	}
	return "read_parquet([" + strings.Join(quoted, ", ") + "], hive_partitioning = false)"
}

// duckViewOf makes DuckDB see a lakesql table under the same qualified name,
// so one SQL text runs in both engines.
func duckViewOf(ctx context.Context, s *lakesql.Session, db *sql.DB, table string) error {
	files, err := dataFiles(ctx, s, table)
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return fmt.Errorf("%s has no data files", table)
	}
	ns := table[:strings.IndexByte(table, '.')]
	return duckExec(ctx, db,
		"CREATE SCHEMA IF NOT EXISTS "+ns,
		"CREATE OR REPLACE VIEW "+table+" AS SELECT * FROM "+parquetSource(files))
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i] + " …"
	}
	return s
}
