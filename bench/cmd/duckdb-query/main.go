// Command duckdb-query runs one SQL statement in an in-memory DuckDB and
// prints its result as CSV with a header. It is the "DuckDB process" of the
// bench's whole-process timings (start-up included) where no duckdb CLI is
// installed: like the CLI, it is one process that links DuckDB, opens a
// database, runs the statement and prints the rows.
package main

import (
	"database/sql"
	"encoding/csv"
	"fmt"
	"os"

	_ "github.com/duckdb/duckdb-go/v2" // registers the "duckdb" driver
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: duckdb-query SQL")
		os.Exit(2)
	}
	if err := run(os.Args[1]); err != nil {
		fmt.Fprintf(os.Stderr, "Error: %v\n", err)
		os.Exit(1)
	}
}

func run(query string) error {
	db, err := sql.Open("duckdb", "")
	if err != nil {
		return err
	}
	defer db.Close()
	db.SetMaxOpenConns(1) // the SET below and the query share one session
	// UTC, as the bench's in-process DuckDB: lakesql computes in UTC only.
	if _, err := db.Exec(`SET TimeZone = 'UTC'`); err != nil {
		return err
	}
	rows, err := db.Query(query)
	if err != nil {
		return err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return err
	}
	w := csv.NewWriter(os.Stdout)
	if err := w.Write(cols); err != nil {
		return err
	}
	cells, ptrs := make([]any, len(cols)), make([]any, len(cols))
	record := make([]string, len(cols))
	for i := range cells {
		ptrs[i] = &cells[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return err
		}
		for i, c := range cells {
			record[i] = ""
			if c != nil {
				record[i] = fmt.Sprint(c)
			}
		}
		if err := w.Write(record); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return err
	}
	w.Flush()
	return w.Error()
}
