package mysqlserver

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"testing"

	"github.com/go-sql-driver/mysql"

	"github.com/lakesql/lakesql"
	"github.com/lakesql/lakesql/internal/demo"
	"github.com/lakesql/lakesql/internal/testutil"
)

// typesSetup is a table with a column of every type lakesql serves, with
// NULLs, in a namespace of its own.
var typesSetup = []string{
	"CREATE NAMESPACE shop",
	`CREATE TABLE shop.items (id BIGINT NOT NULL, small INT, flag BOOLEAN, ratio DOUBLE, price DECIMAL(10,2),
		day DATE, at TIMESTAMP, at_tz TIMESTAMPTZ, name STRING, raw BINARY) PARTITIONED BY (day(at))`,
	`INSERT INTO shop.items VALUES
		(1, 10, true, 0.5, 12.34, DATE '2026-01-15', TIMESTAMP '2026-01-15 10:20:30.123456', TIMESTAMPTZ '2026-01-15 10:20:30+00', 'apple', CAST('ab' AS BINARY)),
		(2, NULL, false, NULL, NULL, NULL, TIMESTAMP '2026-01-16 00:00:00', NULL, NULL, NULL),
		(3, -7, NULL, -1.25, 0.01, DATE '1969-12-31', TIMESTAMP '2026-01-17 23:59:59', TIMESTAMPTZ '1969-12-31 23:59:59+00', 'it''s', CAST('' AS BINARY))`,
}

// warehouse builds a warehouse with the demo tutorial tables and typesSetup.
func warehouse(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	if err := demo.Build(context.Background(), demo.Options{Warehouse: dir, Days: 3, EventsPerDay: 300}); err != nil {
		t.Fatal(err)
	}
	testutil.OpenWith(t, lakesql.Options{Warehouse: dir}, typesSetup...)
	return dir
}

// start serves dir on an ephemeral loopback port until the test ends.
func start(t testing.TB, dir string, users map[string]string) *Server {
	t.Helper()
	srv, err := Start(Config{Addr: "127.0.0.1:0", Session: lakesql.Options{Warehouse: dir}, Users: users})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	return srv
}

// dsn is go-sql-driver's data source name for user on srv, with params.
func dsn(srv *Server, user, password, db string, params ...string) string {
	cfg := mysql.NewConfig()
	cfg.User, cfg.Passwd, cfg.Net, cfg.Addr, cfg.DBName = user, password, "tcp", srv.Addr().String(), db
	s := cfg.FormatDSN()
	if len(params) > 0 {
		sep := "?"
		if strings.Contains(s, "?") {
			sep = "&"
		}
		s += sep + strings.Join(params, "&")
	}
	return s
}

// open connects database/sql to srv as root.
func open(t testing.TB, srv *Server, db string, params ...string) *sql.DB {
	t.Helper()
	conn, err := sql.Open("mysql", dsn(srv, "root", "", db, params...))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return conn
}

// queryRows runs a query on db and renders its rows (see scanRows).
func queryRows(t testing.TB, db *sql.DB, query string, args ...any) []string {
	t.Helper()
	rows, err := scanRows(db.Query(query, args...))
	if err != nil {
		t.Fatalf("%s: %s", query, mysqlError(err))
	}
	return rows
}

// scanRows renders each row as its cells (NULL for NULL) joined by "|",
// in order, and closes rows.
func scanRows(rows *sql.Rows, err error) ([]string, error) {
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return nil, err
	}
	var out []string
	for rows.Next() {
		cells := make([]sql.NullString, len(cols))
		ptrs := make([]any, len(cols))
		for i := range cells {
			ptrs[i] = &cells[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return nil, err
		}
		text := make([]string, len(cols))
		for i, c := range cells {
			text[i] = "NULL"
			if c.Valid {
				text[i] = c.String
			}
		}
		out = append(out, strings.Join(text, "|"))
	}
	return out, rows.Err()
}

// mysqlError is err's MySQL error number and SQLSTATE, for messages.
func mysqlError(err error) string {
	me, ok := err.(*mysql.MySQLError)
	if !ok {
		return fmt.Sprintf("not a MySQL error: %v", err)
	}
	return fmt.Sprintf("%d %s: %s", me.Number, string(me.SQLState[:]), me.Message)
}
