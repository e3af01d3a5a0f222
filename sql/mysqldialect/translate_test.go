package mysqldialect

import (
	"errors"
	"strings"
	"testing"

	"github.com/lakesql/lakesql/sql"
)

// translate parses and translates one MySQL statement and prints the
// resulting query in lakesql's canonical SQL.
func translate(t *testing.T, env *Env, text string) string {
	t.Helper()
	st, err := Parse(text)
	if err != nil {
		t.Fatalf("%s: %v", text, err)
	}
	out, err := st.Translate(env)
	if err != nil {
		t.Fatalf("%s: %v", text, err)
	}
	if out == nil {
		return ""
	}
	q, ok := out.(*sql.QueryStmt)
	if !ok {
		t.Fatalf("%s: got %T, want a query", text, out)
	}
	return sql.FormatQuery(q.Query)
}

func newEnv() *Env { return &Env{Vars: NewVariables(), Namespace: "db", User: "root", ConnectionID: 7} }

func TestTranslateQueries(t *testing.T) {
	cases := []struct{ mysql, want string }{
		{"SELECT `a`, b FROM `db`.`t` WHERE a > 1 LIMIT 5, 10",
			"SELECT a, b FROM db.t WHERE (a > 1) LIMIT 10 OFFSET 5"},
		{"SELECT IFNULL(a, 0), IF(a > 1, 'x', 'y') FROM t",
			"SELECT coalesce(a, 0) AS \"IFNULL(a, 0)\", if((a > 1), 'x', 'y') AS \"IF(a > 1, 'x', 'y')\" FROM t"},
		{"SELECT count(*) AS n FROM t GROUP BY a HAVING count(*) > 2 ORDER BY n DESC",
			"SELECT count(*) AS n FROM t GROUP BY a HAVING (count(*) > 2) ORDER BY n DESC NULLS LAST"},
		{"SELECT DATE_FORMAT(ts, '%Y-%m-%d %H:%i:%s') AS d FROM t",
			"SELECT strftime(ts, '%Y-%m-%d %H:%M:%S') AS d FROM t"},
		{"SELECT * FROM t WHERE ts >= DATE_SUB(NOW(), INTERVAL 7 DAY) AND d = CURDATE()",
			"SELECT * FROM t WHERE ((ts >= (now() - INTERVAL 7 DAY)) AND (d = current_date()))"},
		{"SELECT @@version_comment AS c, @@session.auto_increment_increment AS i",
			"SELECT 'lakesql: SQL over Apache Iceberg tables' AS c, 1 AS i"},
		{"SELECT a FROM t1 LEFT JOIN t2 USING (a) WHERE b IN (SELECT b FROM t3) AND c <=> NULL",
			"SELECT a FROM (t1 LEFT JOIN t2 USING (a)) WHERE ((b IN (SELECT b FROM t3)) AND (c IS NOT DISTINCT FROM NULL))"},
		{"SELECT a FROM t WHERE (a, b) IN ((1, 2), (3, 4)) AND ROW(a, b) < (5, 6)",
			"SELECT a FROM t WHERE (((a, b) IN ((1, 2), (3, 4))) AND ((a, b) < (5, 6)))"},
		{"WITH RECURSIVE r (n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 3) SELECT n FROM r",
			`WITH RECURSIVE r (n) AS ((SELECT 1 AS "1" UNION ALL SELECT (n + 1) AS "n + 1" FROM r WHERE (n < 3))) SELECT n FROM r`},
		{"WITH x AS (SELECT 1 AS a) SELECT a, row_number() OVER (PARTITION BY a ORDER BY a) AS r FROM x",
			"WITH x AS (SELECT 1 AS a) SELECT a, row_number() OVER (PARTITION BY a ORDER BY a NULLS FIRST) AS r FROM x"},
		{"SELECT sum(a) OVER w AS s, rank() OVER (w2 ROWS 1 PRECEDING) AS r FROM t WINDOW w AS (PARTITION BY b), w2 AS (w ORDER BY c) ORDER BY lag(a) OVER w2",
			"SELECT sum(a) OVER (PARTITION BY b) AS s, rank() OVER (PARTITION BY b ORDER BY c NULLS FIRST ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) AS r FROM t ORDER BY lag(a) OVER (PARTITION BY b ORDER BY c NULLS FIRST) NULLS FIRST"},
		{"SELECT sum(a) OVER w AS s FROM t WINDOW w AS (ORDER BY a) UNION ALL SELECT count(*) OVER w FROM u WINDOW w AS ()",
			`(SELECT sum(a) OVER (ORDER BY a NULLS FIRST) AS s FROM t UNION ALL SELECT count(*) OVER () AS "count(*) OVER w" FROM u)`},
		{"SELECT LAST_VALUE(a) IGNORE NULLS OVER (ORDER BY b) AS v FROM t",
			"SELECT last_value(a) IGNORE NULLS OVER (ORDER BY b NULLS FIRST) AS v FROM t"},
		{"SELECT CONCAT_WS('-', a, b), UNIX_TIMESTAMP(ts), FROM_UNIXTIME(1700000000) AS f FROM t",
			"SELECT concat_ws('-', a, b) AS \"CONCAT_WS('-', a, b)\", unix_timestamp(ts) AS \"UNIX_TIMESTAMP(ts)\", from_unixtime(1700000000) AS f FROM t"},
		{"SELECT STR_TO_DATE('2024-01-02', '%Y-%m-%d') AS d",
			"SELECT TRY_CAST('2024-01-02' AS DATE) AS d"},
		{"SELECT CAST(a AS SIGNED) AS s, CAST(b AS DECIMAL(10,2)) AS d, CAST(c AS CHAR) AS c FROM t",
			"SELECT CAST(a AS BIGINT) AS s, CAST(b AS DECIMAL(10, 2)) AS d, CAST(c AS STRING) AS c FROM t"},
		{"SELECT a FROM t UNION ALL SELECT b FROM u ORDER BY 1 LIMIT 3",
			"(SELECT a FROM t UNION ALL SELECT b FROM u) ORDER BY 1 NULLS FIRST LIMIT 3"},
		{"SELECT DATABASE() AS d, CONNECTION_ID() AS c", "SELECT 'db' AS d, 7 AS c"},
	}
	for _, c := range cases {
		if got := translate(t, newEnv(), c.mysql); got != c.want {
			t.Errorf("%s\n got: %s\nwant: %s", c.mysql, got, c.want)
		}
	}
}

func TestTranslateSetRecordsVariables(t *testing.T) {
	env := newEnv()
	translate(t, env, "SET NAMES latin1")
	translate(t, env, "SET autocommit = 0, @@session.sql_mode = 'ANSI'")
	for name, want := range map[string]string{"character_set_client": "latin1", "character_set_results": "latin1", "autocommit": "0", "sql_mode": "ANSI"} {
		if got, _ := env.Vars.Get(name); got != want {
			t.Errorf("@@%s = %q, want %q", name, got, want)
		}
	}
	st, err := Parse("SET sql_dialect = 'lakesql'")
	if err != nil {
		t.Fatal(err)
	}
	out, err := st.Translate(env)
	if set, ok := out.(*sql.Set); err != nil || !ok || set.Name != "sql_dialect" || set.Value != "lakesql" {
		t.Fatalf("SET sql_dialect: got %#v, %v", out, err)
	}
}

func TestTranslateErrors(t *testing.T) {
	cases := []struct{ mysql, want string }{
		{"SET @x = (SELECT 1)", "line 1, column 10: a user variable set to anything but a constant is not supported"},
		{"REPLACE INTO t VALUES (1)", "line 1, column 1: REPLACE INTO is not supported"},
		{"SELECT\n DATE_FORMAT(ts, '%D')", "line 2, column 18: DATE_FORMAT conversion %D is not supported"},
		{"SELECT sum(a) OVER v FROM t WINDOW w AS ()", "line 1, column 8: window v is not defined"},
		{"SELECT sum(a) OVER (w ORDER BY a) FROM t WINDOW w AS (ORDER BY b)", "line 1, column 8: window w has an ORDER BY already"},
		{"SELECT @@nope", "line 1, column 8: unknown system variable 'nope'"},
	}
	for _, c := range cases {
		st, err := Parse(c.mysql)
		if err == nil {
			_, err = st.Translate(newEnv())
		}
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%s: got %v, want %s…", c.mysql, err, c.want)
		}
	}
	_, err := Parse("SELECT FROM WHERE")
	if err == nil || !strings.HasPrefix(err.Error(), "syntax error at line 1, column ") {
		t.Errorf("syntax error: got %v", err)
	}
	st, _ := Parse("SET @y = a + 1")
	if _, err := st.Translate(newEnv()); !errors.Is(err, ErrUnsupported) {
		t.Errorf("user variable: %v is not ErrUnsupported", err)
	}
}

func TestParamCountAndArgs(t *testing.T) {
	st, err := Parse("SELECT a FROM t WHERE a = ? AND b < ? AND d = ?")
	if err != nil {
		t.Fatal(err)
	}
	if n := st.ParamCount(); n != 3 {
		t.Fatalf("ParamCount = %d, want 3", n)
	}
	env := newEnv()
	env.Args = []any{int64(5), "x'y", Typed{Kind: sql.LitDate, Value: "2024-01-02"}}
	out, err := st.Translate(env)
	if err != nil {
		t.Fatal(err)
	}
	got := sql.FormatQuery(out.(*sql.QueryStmt).Query)
	want := "SELECT a FROM t WHERE (((a = 5) AND (b < 'x''y')) AND (d = DATE '2024-01-02'))"
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	env.Args = env.Args[:1]
	if _, err := st.Translate(env); err == nil || !strings.Contains(err.Error(), "parameter 2 has no value (1 given)") {
		t.Errorf("missing argument: %v", err)
	}
}

// TestUserVariables: SET @name = constant keeps the value for the
// connection, later statements read it, and one never set is NULL.
func TestUserVariables(t *testing.T) {
	env := newEnv()
	set, err := Parse("SET @x = 41, @S = 'it''s', @n = -2.5")
	if err != nil {
		t.Fatal(err)
	}
	if out, err := set.Translate(env); err != nil || out != nil {
		t.Fatalf("SET: %v, %v", out, err)
	}
	st, err := Parse("SELECT @x + 1, @s, @N, @never")
	if err != nil {
		t.Fatal(err)
	}
	out, err := st.Translate(env)
	if err != nil {
		t.Fatal(err)
	}
	got := sql.FormatQuery(out.(*sql.QueryStmt).Query)
	if want := `SELECT (41 + 1) AS "@x + 1", 'it''s' AS "@s", -2.5 AS "@N", NULL AS "@never"`; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}
