package lakesql_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/lakesql/lakesql"
	"github.com/lakesql/lakesql/exec"
)

// relationalRows runs a statement and renders its rows as "a,b" strings.
func relationalRows(ctx context.Context, sess *lakesql.Session, stmt string) ([]string, error) {
	res, err := sess.Exec(ctx, stmt)
	if err != nil {
		return nil, err
	}
	defer res.Close()
	var rows []string
	for {
		b, err := res.Next(ctx)
		if err != nil {
			return nil, err
		}
		if b == nil {
			return rows, nil
		}
		for r := range int(b.NumRows()) {
			cells := make([]string, b.NumCols())
			for c := range cells {
				cells[c] = exec.FormatValue(b.Column(c), r)
			}
			rows = append(rows, strings.Join(cells, ","))
		}
		b.Release()
	}
}

// TestJoinSetOpSubqueryEndToEnd runs joins, set operations, CTEs and
// subqueries through a session over real tables, two of which were written
// by several inserts (several data files).
func TestJoinSetOpSubqueryEndToEnd(t *testing.T) {
	ctx := context.Background()
	sess, err := lakesql.Open(ctx, lakesql.Options{Warehouse: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	for _, stmt := range []string{
		"CREATE NAMESPACE db",
		"CREATE TABLE db.orders (id BIGINT, customer INT, amount DOUBLE)",
		"INSERT INTO db.orders VALUES (1, 10, 5.0), (2, 10, 7.5), (3, 20, 1.0)",
		"INSERT INTO db.orders VALUES (4, NULL, 2.0), (5, 40, 9.0)",
		"CREATE TABLE db.customers (id INT, name STRING)",
		"INSERT INTO db.customers VALUES (10, 'ann'), (20, 'bob'), (30, 'cy')",
		"INSERT INTO db.customers VALUES (NULL, 'nobody')",
		"CREATE TABLE db.empty (id INT, name STRING)",
	} {
		if _, err := relationalRows(ctx, sess, stmt); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
	cases := []struct {
		sql  string
		want string // sorted rows joined by " | "; or "error: <substring>"
	}{
		{"SELECT o.id, c.name FROM db.orders o JOIN db.customers c ON o.customer = c.id",
			"1,ann | 2,ann | 3,bob"},
		{"SELECT o.id, c.name FROM db.orders o LEFT JOIN db.customers c ON o.customer = c.id",
			"1,ann | 2,ann | 3,bob | 4,NULL | 5,NULL"},
		{"SELECT o.id, c.name FROM db.orders o RIGHT JOIN db.customers c ON o.customer = c.id",
			"1,ann | 2,ann | 3,bob | NULL,cy | NULL,nobody"},
		{"SELECT o.id, c.name FROM db.orders o FULL JOIN db.customers c ON o.customer = c.id AND o.amount > 6",
			"1,NULL | 2,ann | 3,NULL | 4,NULL | 5,NULL | NULL,bob | NULL,cy | NULL,nobody"},
		{"SELECT o.id, c.name FROM db.orders o, db.customers c WHERE o.id = 1", "1,ann | 1,bob | 1,cy | 1,nobody"},
		{"SELECT o.id, c.id FROM db.orders o JOIN db.customers c ON o.amount > c.id / 4", "1,10 | 2,10 | 2,20 | 5,10 | 5,20 | 5,30"},
		{"SELECT id, name FROM db.customers JOIN (SELECT customer AS id, amount FROM db.orders) o USING (id) WHERE amount < 6",
			"10,ann | 20,bob"},
		{"SELECT * FROM db.orders o JOIN db.empty e ON o.customer = e.id", ""},
		{"SELECT id FROM db.orders JOIN db.customers ON customer = name", "error: cannot compare INT with STRING"},
		{"SELECT id FROM db.orders JOIN db.customers ON customer = customers.id", `error: column reference "id" is ambiguous`},
		{"SELECT customer FROM db.orders UNION SELECT id FROM db.customers", "10 | 20 | 30 | 40 | NULL"},
		{"SELECT customer FROM db.orders UNION ALL SELECT id FROM db.customers WHERE id > 10", "10 | 10 | 20 | 20 | 30 | 40 | NULL"},
		{"SELECT customer FROM db.orders INTERSECT SELECT id FROM db.customers", "10 | 20 | NULL"},
		{"SELECT customer FROM db.orders EXCEPT SELECT id FROM db.customers", "40"},
		{"SELECT customer FROM db.orders EXCEPT ALL SELECT id FROM db.customers", "10 | 40"},
		{"SELECT id FROM db.orders UNION SELECT id, name FROM db.customers", "error: must have the same number of columns"},
		{"WITH big AS (SELECT * FROM db.orders WHERE amount > 4) SELECT b.id, c.name FROM big b JOIN db.customers c ON b.customer = c.id",
			"1,ann | 2,ann"},
		{"WITH customers AS (SELECT 1 AS n) SELECT n FROM customers", "1"},
		{"SELECT id FROM db.orders WHERE customer IN (SELECT id FROM db.customers WHERE name < 'c')", "1 | 2 | 3"},
		{"SELECT id FROM db.orders WHERE customer NOT IN (SELECT id FROM db.customers)", ""},
		{"SELECT id FROM db.orders WHERE customer NOT IN (SELECT id FROM db.customers WHERE id IS NOT NULL)", "5"},
		{"SELECT id FROM db.orders WHERE amount > (SELECT amount FROM db.orders WHERE id = 4)", "1 | 2 | 5"},
		{"SELECT id FROM db.orders WHERE EXISTS (SELECT 1 FROM db.empty)", ""},
		{"SELECT (SELECT name FROM db.customers WHERE id = 30), (SELECT name FROM db.empty)", "cy,NULL"},
		{"SELECT (SELECT name FROM db.customers)", "error: scalar subquery returned more than one row"},
		{"SELECT id FROM db.orders o WHERE EXISTS (SELECT 1 FROM db.customers c WHERE c.id = o.customer) ORDER BY id",
			"1 | 2 | 3"},
	}
	for _, tc := range cases {
		rows, err := relationalRows(ctx, sess, tc.sql)
		slices.Sort(rows)
		got := strings.Join(rows, " | ")
		if err != nil {
			got = "error: " + err.Error()
		}
		ok := got == tc.want
		if strings.HasPrefix(tc.want, "error: ") {
			ok = err != nil && strings.Contains(got, strings.TrimPrefix(tc.want, "error: "))
		}
		if !ok {
			t.Errorf("%s\n got %s\nwant %s", tc.sql, got, tc.want)
		}
	}
}
