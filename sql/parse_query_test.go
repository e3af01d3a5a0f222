package sql

import (
	"reflect"
	"strings"
	"testing"
)

func formatStmtQuery(t *testing.T, text string) string {
	t.Helper()
	qs, ok := mustParseOne(t, text).(*QueryStmt)
	if !ok {
		t.Fatalf("%s: not a *QueryStmt", text)
	}
	return FormatQuery(qs.Query)
}

// TestQueryFormat parses queries and checks their canonical form, which must
// parse back to itself.
func TestQueryFormat(t *testing.T) {
	tests := []struct{ in, want string }{
		{"SELECT 1", "SELECT 1"},
		{"select date, day from t", "SELECT date, day FROM t"},
		{"SELECT DISTINCT a AS x, b y, c \"Z\" FROM t", `SELECT DISTINCT a AS x, b AS y, c AS "Z" FROM t`},
		{"SELECT ALL a FROM t", "SELECT a FROM t"},
		{"SELECT a AS from FROM t", `SELECT a AS "from" FROM t`},
		{"SELECT *, t.*, ns.t.* FROM ns.t", "SELECT *, t.*, ns.t.* FROM ns.t"},
		// named windows are completed where they are used
		{"SELECT rank() OVER w, sum(x) OVER (w ROWS 2 PRECEDING) FROM t WINDOW w AS (PARTITION BY a ORDER BY b)",
			"SELECT rank() OVER (PARTITION BY a ORDER BY b), sum(x) OVER (PARTITION BY a ORDER BY b ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) FROM t"},
		{"SELECT first(x) OVER (w2) FROM t WINDOW w1 AS (PARTITION BY a), w2 AS (w1 ORDER BY b DESC)",
			"SELECT first(x) OVER (PARTITION BY a ORDER BY b DESC) FROM t"},
		{"SELECT a FROM t QUALIFY row_number() OVER w = 1 WINDOW w AS (ORDER BY b) ORDER BY lag(a) OVER w",
			"SELECT a FROM t QUALIFY (row_number() OVER (ORDER BY b) = 1) ORDER BY lag(a) OVER (ORDER BY b)"},
		{"SELECT (SELECT count(*) OVER w FROM u WINDOW w AS (ORDER BY c)), rank() OVER w FROM t WINDOW w AS (ORDER BY a)",
			"SELECT (SELECT count(*) OVER (ORDER BY c) FROM u), rank() OVER (ORDER BY a) FROM t"},
		{"SELECT lag(x, 2 IGNORE NULLS) OVER (), last_value(x) IGNORE NULLS OVER (), first_value(x RESPECT NULLS) OVER () FROM t",
			"SELECT lag(x, 2) IGNORE NULLS OVER (), last_value(x) IGNORE NULLS OVER (), first_value(x) OVER () FROM t"},
		{"SELECT * FROM t, LATERAL (SELECT t.a) s LEFT JOIN LATERAL (SELECT 1) AS r ON true",
			"SELECT * FROM (t CROSS JOIN (LATERAL (SELECT t.a) AS s LEFT JOIN LATERAL (SELECT 1) AS r ON TRUE))"},
		{"SELECT * FROM t CROSS JOIN LATERAL unnest(t.a) AS u (x)", "SELECT * FROM (t CROSS JOIN unnest(t.a) AS u (x))"},
		{"SELECT * FROM t PIVOT (sum(v) FOR k IN ('a', 2 AS two)) AS p",
			`SELECT * FROM (SELECT * EXCLUDE (k, v), sum(v) FILTER (WHERE (k IS NOT DISTINCT FROM 'a')) AS a, sum(v) FILTER (WHERE (k IS NOT DISTINCT FROM 2)) AS two FROM t GROUP BY ALL) AS p`},
		{"SELECT * FROM t UNPIVOT (v FOR k IN (a, b AS 'B'))",
			`SELECT * FROM (SELECT * EXCLUDE (__unpivot, a, b), (__unpivot).name AS k, (__unpivot).value AS v FROM (t CROSS JOIN unnest(array(named_struct('name', 'a', 'value', a), named_struct('name', 'B', 'value', b))) AS __unpivoted (__unpivot)) WHERE ((__unpivot).value IS NOT NULL))`},
		{"SELECT pivot FROM t pivot", "SELECT pivot FROM t AS pivot"},
		// DuckDB's friendly SQL
		{"SELECT * EXCLUDE (a, t.b) FROM t", "SELECT * EXCLUDE (a, t.b) FROM t"},
		{"SELECT t.* exclude a, 1 FROM t", "SELECT t.* EXCLUDE (a), 1 FROM t"},
		{"SELECT * REPLACE (a + 1 AS a, lower(b) AS \"B\") FROM t", "SELECT * REPLACE ((a + 1) AS a, lower(b) AS \"B\") FROM t"},
		{"SELECT * EXCLUDE (c) REPLACE (1 AS a) FROM t", "SELECT * EXCLUDE (c) REPLACE (1 AS a) FROM t"},
		{"SELECT a, count(*) FROM t GROUP BY ALL ORDER BY ALL", "SELECT a, count(*) FROM t GROUP BY ALL ORDER BY ALL"},
		{"SELECT a FROM t ORDER BY ALL DESC NULLS LAST LIMIT 3", "SELECT a FROM t ORDER BY ALL DESC NULLS LAST LIMIT 3"},
		{"SELECT 1 UNION SELECT 2 ORDER BY ALL", "(SELECT 1 UNION SELECT 2) ORDER BY ALL"},
		{"SELECT 1 AS a UNION ALL BY NAME SELECT 2 AS b UNION by name SELECT 3 AS a", "((SELECT 1 AS a UNION ALL BY NAME SELECT 2 AS b) UNION BY NAME SELECT 3 AS a)"},
		{"FROM t SELECT DISTINCT a, b WHERE a > 1", "SELECT DISTINCT a, b FROM t WHERE (a > 1)"},
		// samples: Trino's, Spark's (before the alias) and DuckDB's forms
		{"SELECT * FROM t AS s TABLESAMPLE BERNOULLI (12.5)", "SELECT * FROM t AS s TABLESAMPLE BERNOULLI (12.5)"},
		{"SELECT * FROM t TABLESAMPLE (10 PERCENT) s JOIN u TABLESAMPLE (5 ROWS) ON TRUE", "SELECT * FROM (t AS s TABLESAMPLE BERNOULLI (10) INNER JOIN u TABLESAMPLE (5 ROWS) ON TRUE)"},
		{"SELECT * FROM 'f.csv' TABLESAMPLE 1%, range(3) r(x) TABLESAMPLE SYSTEM (50)", "SELECT * FROM ('f.csv' TABLESAMPLE BERNOULLI (1) CROSS JOIN range(3) AS r (x) TABLESAMPLE BERNOULLI (50))"},
		{"SELECT a FROM t WHERE a > 1 USING SAMPLE 10", "SELECT a FROM t USING SAMPLE (10 ROWS) WHERE (a > 1)"},
		{"SELECT a FROM t USING SAMPLE reservoir (20 ROWS) GROUP BY a", "SELECT a FROM t USING SAMPLE (20 ROWS) GROUP BY a"},
		{"FROM t SELECT a, sum(b) GROUP BY ALL", "SELECT a, sum(b) FROM t GROUP BY ALL"},
		{"SELECT a FROM t WHERE b > 1 GROUP BY a, c HAVING count(*) > 2", "SELECT a FROM t WHERE (b > 1) GROUP BY a, c HAVING (count(*) > 2)"},
		{"SELECT a FROM t ORDER BY a DESC NULLS LAST, b ASC, c NULLS FIRST LIMIT 10 OFFSET 5",
			"SELECT a FROM t ORDER BY a DESC NULLS LAST, b, c NULLS FIRST LIMIT 10 OFFSET 5"},
		{"SELECT a FROM t OFFSET 5", "SELECT a FROM t OFFSET 5"},
		// QUALIFY and grouping sets
		{"SELECT a, row_number() OVER (PARTITION BY g ORDER BY a) AS r FROM t QUALIFY r <= 2 ORDER BY a",
			"SELECT a, row_number() OVER (PARTITION BY g ORDER BY a) AS r FROM t QUALIFY (r <= 2) ORDER BY a"},
		{"SELECT g, sum(a) FROM t GROUP BY g HAVING sum(a) > 1 QUALIFY rank() OVER (ORDER BY sum(a)) = 1",
			"SELECT g, sum(a) FROM t GROUP BY g HAVING (sum(a) > 1) QUALIFY (rank() OVER (ORDER BY sum(a)) = 1)"},
		{"FROM t SELECT a QUALIFY row_number() OVER () = 1", "SELECT a FROM t QUALIFY (row_number() OVER () = 1)"},
		{"SELECT a, b FROM t GROUP BY rollup (a, b)", "SELECT a, b FROM t GROUP BY ROLLUP (a, b)"},
		{"SELECT a FROM t GROUP BY a, CUBE ((b, c), d + 1)", "SELECT a FROM t GROUP BY a, CUBE ((b, c), ((d + 1)))"},
		{"SELECT a FROM t GROUP BY GROUPING SETS ((a, b), a, (), ROLLUP (c))", "SELECT a FROM t GROUP BY GROUPING SETS ((a, b), a, (), ROLLUP (c))"},
		{"SELECT count(*) FROM t GROUP BY ()", "SELECT count(*) FROM t GROUP BY GROUPING SETS (())"},
		{"SELECT cube, rollup FROM t GROUP BY cube, rollup + 1", "SELECT cube, rollup FROM t GROUP BY cube, (rollup + 1)"},
		{"SELECT a FROM t OFFSET 5 ROWS LIMIT 2", "SELECT a FROM t LIMIT 2 OFFSET 5"},
		{"SELECT a FROM t LIMIT ALL", "SELECT a FROM t"},
		// set operations: INTERSECT binds tighter, all left-associative
		{"SELECT 1 UNION SELECT 2 UNION ALL SELECT 3", "((SELECT 1 UNION SELECT 2) UNION ALL SELECT 3)"},
		{"SELECT 1 UNION SELECT 2 INTERSECT SELECT 3", "(SELECT 1 UNION (SELECT 2 INTERSECT SELECT 3))"},
		{"SELECT 1 INTERSECT SELECT 2 EXCEPT DISTINCT SELECT 3", "((SELECT 1 INTERSECT SELECT 2) EXCEPT SELECT 3)"},
		{"(SELECT 1 UNION SELECT 2) INTERSECT ALL SELECT 3", "((SELECT 1 UNION SELECT 2) INTERSECT ALL SELECT 3)"},
		{"(SELECT a FROM t ORDER BY a LIMIT 1) UNION (SELECT b FROM u)", "((SELECT a FROM t ORDER BY a LIMIT 1) UNION SELECT b FROM u)"},
		{"((SELECT 1))", "SELECT 1"},
		{"(SELECT 1) ORDER BY 1", "SELECT 1 ORDER BY 1"},
		{"(SELECT 1 ORDER BY 1)", "SELECT 1 ORDER BY 1"},
		{"VALUES (1, 'a'), (2, 'b')", "VALUES (1, 'a'), (2, 'b')"},
		{"SELECT * FROM (VALUES (1), (2)) AS v (x)", "SELECT * FROM (VALUES (1), (2)) AS v (x)"},
		{"WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT n FROM r",
			"WITH RECURSIVE r (n) AS ((SELECT 1 UNION ALL SELECT (n + 1) FROM r)) SELECT n FROM r"},
		{"WITH a AS (SELECT 1), b (x, y) AS (SELECT 1, 2) SELECT * FROM a, b",
			"WITH a AS (SELECT 1), b (x, y) AS (SELECT 1, 2) SELECT * FROM (a CROSS JOIN b)"},
		// FROM
		{"SELECT * FROM cat.ns.t.snapshots s", "SELECT * FROM cat.ns.t.snapshots AS s"},
		{"SELECT * FROM t FOR SYSTEM_VERSION AS OF 123 AS x", "SELECT * FROM t FOR SYSTEM_VERSION AS OF 123 AS x"},
		{"SELECT * FROM t FOR SYSTEM_TIME AS OF TIMESTAMP '2024-01-01' x", "SELECT * FROM t FOR SYSTEM_TIME AS OF TIMESTAMP '2024-01-01' AS x"},
		{"SELECT * FROM t VERSION AS OF 'tag1'", "SELECT * FROM t FOR SYSTEM_VERSION AS OF 'tag1'"},
		{"SELECT * FROM t TIMESTAMP AS OF '2024-01-01'", "SELECT * FROM t FOR SYSTEM_TIME AS OF '2024-01-01'"},
		{"SELECT * FROM t FOR VERSION AS OF 1", "SELECT * FROM t FOR SYSTEM_VERSION AS OF 1"},
		{"SELECT * FROM t version", "SELECT * FROM t AS version"},
		{"SELECT * FROM read_parquet('x/*.parquet', hive_partitioning => true) AS p (a, b)",
			"SELECT * FROM read_parquet('x/*.parquet', hive_partitioning => TRUE) AS p (a, b)"},
		{"SELECT * FROM range(10) r", "SELECT * FROM range(10) AS r"},
		{"SELECT * FROM (SELECT 1 AS a) sub", "SELECT * FROM (SELECT 1 AS a) AS sub"},
		{"SELECT * FROM ((SELECT 1) UNION (SELECT 2)) u", "SELECT * FROM ((SELECT 1 UNION SELECT 2)) AS u"},
		{"SELECT * FROM a JOIN b ON a.x = b.x", "SELECT * FROM (a INNER JOIN b ON (a.x = b.x))"},
		{"SELECT * FROM a INNER JOIN b USING (x, y)", "SELECT * FROM (a INNER JOIN b USING (x, y))"},
		{"SELECT * FROM a NATURAL JOIN b NATURAL FULL OUTER JOIN c", "SELECT * FROM ((a NATURAL INNER JOIN b) NATURAL FULL JOIN c)"},
		{"SELECT (a, b) FROM t WHERE (a, b) IN ((1, 2), (3, 4)) AND (a, b + 1) < (5, 6)",
			"SELECT (a, b) FROM t WHERE (((a, b) IN ((1, 2), (3, 4))) AND ((a, (b + 1)) < (5, 6)))"},
		{"SELECT * FROM a LEFT OUTER JOIN b ON p RIGHT JOIN c ON q FULL JOIN d ON r CROSS JOIN e",
			"SELECT * FROM ((((a LEFT JOIN b ON p) RIGHT JOIN c ON q) FULL JOIN d ON r) CROSS JOIN e)"},
		{"SELECT * FROM a, b JOIN c ON p", "SELECT * FROM (a CROSS JOIN (b INNER JOIN c ON p))"},
		{"SELECT * FROM (a JOIN b ON p) JOIN c ON q", "SELECT * FROM ((a INNER JOIN b ON p) INNER JOIN c ON q)"},
		{"SELECT * FROM a JOIN (b JOIN c ON p) ON q", "SELECT * FROM (a INNER JOIN (b INNER JOIN c ON p) ON q)"},
		{"SELECT * FROM a LEFT JOIN b ON a.id = b.id WHERE b.id IS NULL",
			"SELECT * FROM (a LEFT JOIN b ON (a.id = b.id)) WHERE (b.id IS NULL)"},
	}
	for _, tt := range tests {
		got := formatStmtQuery(t, tt.in)
		if got != tt.want {
			t.Errorf("%s\n got %s\nwant %s", tt.in, got, tt.want)
			continue
		}
		if again := formatStmtQuery(t, got); again != got {
			t.Errorf("%s does not round-trip: %s", got, again)
		}
	}
}

func TestQueryTree(t *testing.T) {
	q := mustParseOne(t, "SELECT a FROM t AS x LIMIT 3").(*QueryStmt).Query
	clearPos(reflect.ValueOf(q))
	want := &Query{
		Body: &Select{
			Items: []SelectItem{{Expr: &ColumnRef{Parts: []string{"a"}}}},
			From:  &TableName{Name: ObjectName{Parts: []string{"t"}}, Alias: "x"},
		},
		Limit: &Literal{Kind: LitInteger, Value: "3"},
	}
	if !reflect.DeepEqual(q, want) {
		t.Errorf("got %#v", q)
	}
}

func TestParseDistinctOn(t *testing.T) {
	for text, want := range map[string]string{
		"SELECT DISTINCT ON (u) u, v FROM e ORDER BY u, ts DESC":                   "QUALIFY (row_number() OVER (PARTITION BY u ORDER BY u, ts DESC) = 1)",
		"SELECT DISTINCT ON (a, b % 2) * FROM t":                                   "QUALIFY (row_number() OVER (PARTITION BY a, (b % 2)) = 1)",
		"SELECT DISTINCT ON (a) a FROM t UNION ALL SELECT 1":                       "QUALIFY (row_number() OVER (PARTITION BY a) = 1)",
		"SELECT (SELECT DISTINCT ON (x) x FROM s ORDER BY x, y) FROM t ORDER BY 1": "PARTITION BY x ORDER BY x, y",
	} {
		stmt := mustParseOne(t, text)
		if got := FormatQuery(stmt.(*QueryStmt).Query); !strings.Contains(got, want) {
			t.Errorf("%s\n parsed as %s\n want it to hold %s", text, got, want)
		}
	}
	for _, text := range []string{
		"SELECT DISTINCT ON (u) u FROM e ORDER BY 1",
		"SELECT DISTINCT ON (u) u FROM e ORDER BY ALL",
		"SELECT DISTINCT ON (u) u FROM e QUALIFY u > 1",
	} {
		if _, err := ParseOne(text); err == nil {
			t.Errorf("%s: parsed, want an error", text)
		}
	}
}
