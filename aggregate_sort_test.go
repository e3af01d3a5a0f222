package lakesql_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/lakesql/lakesql"
)

// TestAggregateSortEndToEnd runs GROUP BY, aggregates, HAVING, DISTINCT,
// ORDER BY and TopN through a session over a real table.
func TestAggregateSortEndToEnd(t *testing.T) {
	ctx := context.Background()
	sess, err := lakesql.Open(ctx, lakesql.Options{Warehouse: t.TempDir(), Catalog: "lakesql"})
	if err != nil {
		t.Fatal(err)
	}
	var values []string
	for i := range 3000 {
		cat := fmt.Sprintf("'c%d'", i%7)
		if i%100 == 0 {
			cat = "NULL"
		}
		values = append(values, fmt.Sprintf("(%d, %s, %d.%02d, %d)", i, cat, i%50, i%100, i%3))
	}
	for _, stmt := range []string{
		"CREATE NAMESPACE db",
		"CREATE TABLE db.t (id BIGINT, cat STRING, price DECIMAL(10,2), q INT)",
		"INSERT INTO db.t VALUES " + strings.Join(values, ", "),
		"CREATE TABLE db.e (a INT, s STRING)",
	} {
		if _, err := execute(ctx, sess, stmt); err != nil {
			t.Fatalf("%s: %v", stmt[:min(len(stmt), 60)], err)
		}
	}
	cases := []struct {
		sql  string
		want string // rows joined by " | ", cells by ","; or "error: <substring>"
	}{
		{"SELECT count(*), count(cat), count(DISTINCT cat), sum(q), min(id), max(id) FROM db.t",
			"3000,2970,7,3000,0,2999"},
		{"SELECT q, count(*) AS n, sum(price) FROM db.t GROUP BY q ORDER BY q",
			"0,1000,24995.00 | 1,1000,24995.00 | 2,1000,24995.00"},
		{"SELECT cat, count(*) FROM db.t GROUP BY 1 HAVING count(*) <> 424 ORDER BY cat NULLS FIRST",
			"NULL,30 | c1,425 | c3,425"},
		{"SELECT id FROM db.t ORDER BY price DESC, id LIMIT 3", "99 | 199 | 299"},
		{"SELECT id FROM db.t ORDER BY id DESC LIMIT 2 OFFSET 10", "2989 | 2988"},
		{"SELECT DISTINCT q FROM db.t ORDER BY 1 DESC", "2 | 1 | 0"},
		{"SELECT q, avg(id) FROM db.t GROUP BY q ORDER BY avg(id) LIMIT 1", "0,1498.5"},
		{"SELECT count(*), sum(a), avg(a), min(s) FROM db.e", "0,NULL,NULL,NULL"},
		{"SELECT a, count(*) FROM db.e GROUP BY a", ""},
		{"SELECT cat, id FROM db.t GROUP BY cat", `error: column "id" must appear in the GROUP BY clause or be used in an aggregate function (at line 1, column 13)`},
		{"SELECT id FROM db.t WHERE max(id) > 1", "error: aggregate functions are not allowed in WHERE (at line 1, column 27)"},
		{"SELECT max(count(*)) FROM db.t", "error: aggregate function calls cannot be nested"},
	}
	for _, tc := range cases {
		rows, err := execute(ctx, sess, tc.sql)
		got := strings.ReplaceAll(strings.Join(rows, " | "), "\t", ",")
		if err != nil {
			got = "error: " + err.Error()
		}
		if !strings.HasPrefix(tc.want, "error: ") && got != tc.want || strings.HasPrefix(tc.want, "error: ") && !strings.Contains(got, tc.want) {
			t.Errorf("%s\n got %s\nwant %s", tc.sql, got, tc.want)
		}
	}
}
