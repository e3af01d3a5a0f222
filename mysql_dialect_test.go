package lakesql_test

import (
	"context"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/lakesql/lakesql"
	"github.com/lakesql/lakesql/internal/testutil"
	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/sql/mysqldialect"
)

// pruningForms are the ways users write filters that must prune (DESIGN.md,
// "Pruning"), each in lakesql's dialect and as a MySQL client writes it.
var pruningForms = []struct{ lakesql, mysql string }{
	{"DATE(event_time) = '2026-01-15'", "DATE(`event_time`) = '2026-01-15'"},
	{"CAST(event_time AS DATE) BETWEEN DATE '2026-01-15' AND DATE '2026-01-16'", "CAST(event_time AS DATE) BETWEEN DATE '2026-01-15' AND DATE '2026-01-16'"},
	{"event_time >= '2026-01-15' AND event_time < '2026-01-16'", "event_time >= \"2026-01-15\" AND event_time < \"2026-01-16\""},
	{"YEAR(event_time) = 2025", "YEAR(event_time) = 2025"},
	{"date_trunc('day', event_time) = TIMESTAMP '2026-01-15 00:00:00'", "date_trunc('day', event_time) = TIMESTAMP '2026-01-15 00:00:00'"},
	{"DATE(event_time) IN (DATE '2026-01-14', DATE '2026-01-16')", "DATE(event_time) IN (DATE '2026-01-14', DATE '2026-01-16')"},
	{"(event_time < '2026-01-14' OR event_time >= '2026-01-17')", "(event_time < '2026-01-14' || event_time >= '2026-01-17')"},
	{"event_time >= now() - INTERVAL 2 DAY", "event_time >= DATE_SUB(NOW(), INTERVAL 2 DAY)"},
	{"event_time >= current_date - INTERVAL 1 DAY", "event_time >= CURDATE() - INTERVAL 1 DAY"},
	{"day = 15", "`day` = 15"},
}

// Pruning works the same through both front ends: every pruning form gives
// the same EXPLAIN in lakesql's dialect and in MySQL's, and
// testdata/mysql_dialect_pruning.golden records which files each keeps.
func TestPruningSameInBothDialects(t *testing.T) {
	s, dir := testutil.Open(t,
		"CREATE NAMESPACE db",
		"CREATE TABLE db.events (event_time TIMESTAMP, day INT, n BIGINT) PARTITIONED BY (day(event_time))")
	for d := 10; d <= 19; d++ {
		testutil.Exec(t, s, "INSERT INTO db.events VALUES "+
			"(TIMESTAMP '2026-01-"+itoa2(d)+" 08:00:00', "+itoa2(d)+", 1), (TIMESTAMP '2026-01-"+itoa2(d)+" 20:00:00', "+itoa2(d)+", 2)")
	}
	mysql := testutil.OpenWith(t, lakesql.Options{Warehouse: dir, Dialect: lakesql.DialectMySQL}, "USE db")
	testutil.Exec(t, s, "USE db")
	ctx := planner.WithStatementTime(context.Background(), time.Date(2026, 1, 18, 12, 0, 0, 0, time.UTC))
	var golden strings.Builder
	for _, f := range pruningForms {
		want := explainAt(ctx, t, s, "SELECT sum(n) FROM events WHERE "+f.lakesql)
		got := explainAt(ctx, t, mysql, "SELECT sum(n) FROM events WHERE "+f.mysql)
		if got != want {
			t.Errorf("%s\nMySQL dialect:\n%s\nlakesql dialect:\n%s", f.mysql, got, want)
		}
		golden.WriteString(f.mysql + "\n  " + prunedFiles(t, got) + "\n")
	}
	const path = "testdata/mysql_dialect_pruning.golden"
	if *rewrite {
		if err := os.WriteFile(path, []byte(golden.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if golden.String() != string(want) {
		t.Errorf("pruning differs from %s (-rewrite):\n%s", path, golden.String())
	}
}

func explainAt(ctx context.Context, t *testing.T, s *lakesql.Session, query string) string {
	t.Helper()
	return strings.Join(testutil.RowsAt(ctx, t, s, "EXPLAIN "+query), "\n")
}

var dataFiles = regexp.MustCompile(`data files \d+/\d+[^;]*`)

// prunedFiles is the EXPLAIN line part that counts the data files kept.
func prunedFiles(t *testing.T, explain string) string {
	t.Helper()
	m := dataFiles.FindString(explain)
	if m == "" {
		t.Fatalf("no data file counts in\n%s", explain)
	}
	return m
}

func itoa2(n int) string { return string([]byte{byte('0' + n/10), byte('0' + n%10)}) }

// SET sql_dialect switches a session between the dialects; the MySQL one
// falls back to lakesql's parser for what the TiDB parser rejects.
func TestSetSQLDialect(t *testing.T) {
	s, _ := testutil.Open(t,
		"CREATE NAMESPACE db",
		"CREATE TABLE db.t (a INT, b STRING)",
		"INSERT INTO db.t VALUES (1, 'x'), (2, NULL), (3, 'z')")
	testutil.WantError(t, s, "SELECT `a` FROM db.t LIMIT 1, 1", "syntax error")
	testutil.Exec(t, s, "SET sql_dialect = 'mysql'", "USE db")
	testutil.WantRows(t, s, "SELECT `a`, IFNULL(b, '-') FROM t ORDER BY a LIMIT 1, 2", "2|-", "3|z")
	testutil.WantRows(t, s, "SELECT @@version", mysqldialect.ServerVersion)
	// lakesql's dialect, which TiDB's parser rejects, still runs.
	testutil.Exec(t, s, "ALTER TABLE t ADD PARTITION FIELD bucket(4, a)")
	testutil.WantRows(t, s, "SELECT a FROM t WHERE a IS DISTINCT FROM 1 ORDER BY a NULLS LAST", "2", "3")
	testutil.WantError(t, s, "SELECT FROM WHERE", "syntax error at line 1, column 11")
	testutil.WantError(t, s, "SET sql_dialect = 'oracle'", `unknown SQL dialect "oracle" (dialects: lakesql, mysql)`)
	testutil.Exec(t, s, "SET sql_dialect = 'lakesql'")
	testutil.WantError(t, s, "SELECT `a` FROM t LIMIT 1, 1", "syntax error")
	testutil.WantError(t, s, "SELECT a FROM t WHERE a = ?", "unexpected character '?'")
}

// information_schema lists the catalog in both dialects.
func TestInformationSchema(t *testing.T) {
	s, _ := testutil.Open(t,
		"CREATE NAMESPACE db",
		"CREATE TABLE db.t (id BIGINT NOT NULL COMMENT 'key', price DECIMAL(9,3), at TIMESTAMP) PARTITIONED BY (day(at))",
		"INSERT INTO db.t VALUES (1, 1.5, TIMESTAMP '2026-01-01 00:00:00')",
		"CREATE VIEW db.v AS SELECT id FROM db.t")
	testutil.WantRows(t, s, "SELECT schema_name FROM information_schema.schemata", "db", "information_schema")
	testutil.WantRows(t, s, "SELECT table_name, table_type, table_rows FROM information_schema.tables WHERE table_schema = 'db'",
		"t|BASE TABLE|1", "v|VIEW|NULL")
	testutil.WantRows(t, s, "SELECT table_name, column_name, ordinal_position, is_nullable, data_type, column_type, numeric_precision, numeric_scale, column_comment FROM information_schema.columns WHERE table_schema = 'db'",
		"t|at|3|YES|datetime|datetime(6)|NULL|NULL|",
		"t|id|1|NO|bigint|bigint|19|0|key",
		"t|price|2|YES|decimal|decimal(9,3)|9|3|",
		"v|id|1|YES|bigint|bigint|19|0|")
	testutil.WantRows(t, s, "SELECT table_name, view_definition FROM information_schema.views", "v|SELECT id FROM db.t")
	testutil.WantRows(t, s, "SELECT count(*) FROM information_schema.statistics", "0")
	testutil.WantError(t, s, "SELECT * FROM information_schema.routines",
		"unknown table information_schema.routines (information_schema has schemata, tables, columns, views, statistics)")
}

// A query being prepared is described without running it; statements that
// are not queries are not translated, so a prepared SET changes nothing.
func TestResultColumnsOfPreparedQuery(t *testing.T) {
	s, dir := testutil.Open(t, "CREATE NAMESPACE db", "CREATE TABLE db.t (a INT, b STRING)")
	mysql := testutil.OpenWith(t, lakesql.Options{Warehouse: dir, Dialect: lakesql.DialectMySQL}, "USE db")
	ctx := context.Background()
	schema := mysql.ResultColumns(ctx, "SELECT a, b AS name, a + ? AS x FROM t WHERE b = ?", 2)
	if schema == nil || schema.String() != "schema:\n  fields: 3\n    - a: type=int32, nullable\n    - name: type=utf8, nullable\n    - x: type=int32, nullable" {
		t.Errorf("columns: %v", schema)
	}
	for _, stmt := range []string{"INSERT INTO t VALUES (?, ?)", "SET autocommit = ?", "SELECT nope FROM t", "SELEC"} {
		if schema := mysql.ResultColumns(ctx, stmt, 2); schema != nil {
			t.Errorf("%s: columns %v, want none", stmt, schema)
		}
	}
	testutil.WantRows(t, mysql, "SELECT @@autocommit", "1")
	testutil.WantRows(t, s, "SELECT count(*) FROM db.t", "0")
}
