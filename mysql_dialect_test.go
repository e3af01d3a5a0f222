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
