package sql

import (
	"errors"
	"testing"
)

func TestParseErrors(t *testing.T) {
	tests := []struct {
		in  string
		pos Pos
		msg string
	}{
		{"SELECT a FORM t", Pos{1, 15}, `unexpected "t", expected ",", FROM, WHERE, … or end of statement`},
		{"SELECT a FROM t WHERE", Pos{1, 22}, "unexpected end of statement, expected expression"},
		{"SELECT\n  a,\n  b +\nFROM t", Pos{4, 1}, `unexpected "FROM", expected expression`},
		{"SELECT 1;\nSELECT (1 + 2", Pos{2, 8}, `unclosed parenthesis: unexpected end of statement, expected ")"`},
		{"SELECT (1 + 2;", Pos{1, 8}, `unclosed parenthesis: unexpected end of statement, expected ")"`},
		{"SELECT count(* FROM t", Pos{1, 13}, `unclosed parenthesis: unexpected "FROM", expected ")"`},
		{"SELECT f(a, (b + c) FROM t", Pos{1, 9}, `unclosed parenthesis: unexpected "FROM", expected "," or ")"`},
		{"SELECT count(*) + (1 FROM t WHERE (a)", Pos{1, 19}, `unclosed parenthesis: unexpected "FROM", expected ")"`},
		{"SELECT a FROM t QUALIFY", Pos{1, 24}, "unexpected end of statement, expected expression"},
		{"SELECT a FROM t GROUP BY GROUPING SETS (a, (b)", Pos{1, 40}, `unclosed parenthesis: unexpected end of statement, expected "," or ")"`},
		{"SELECT * FROM a NATURAL CROSS JOIN b", Pos{1, 17}, "NATURAL CROSS JOIN is not a join: a cross join has no columns to match"},
		{"SELECT * FROM a NATURAL b", Pos{1, 25}, `unexpected "b", expected JOIN, INNER, LEFT, … or CROSS`},
		{"SELECT rank() OVER w FROM t", Pos{1, 20}, `window w is not defined`},
		{"SELECT rank() OVER (byday) FROM t WINDOW w1 AS (), by_day AS (ORDER BY a)", Pos{1, 21}, `window byday is not defined; did you mean by_day?`},
		{"SELECT 1 FROM t WINDOW w AS (), w AS ()", Pos{1, 33}, `window w is defined twice`},
		{"SELECT 1 FROM t WINDOW w2 AS (w1), w1 AS ()", Pos{1, 31}, `window w1 is not defined`},
		{"SELECT rank() OVER (w PARTITION BY a) FROM t WINDOW w AS ()", Pos{1, 21}, `a window that refers to window w takes its PARTITION BY and cannot have its own`},
		{"SELECT rank() OVER (w ORDER BY a) FROM t WINDOW w AS (ORDER BY b)", Pos{1, 21}, `window w has an ORDER BY already; a window that refers to it cannot add one`},
		{"SELECT sum(a) OVER (w ROWS 1 PRECEDING) FROM t WINDOW w AS (ROWS 2 PRECEDING)", Pos{1, 21}, `window w has a frame already; a window that refers to it cannot add one`},
		{"SELECT 1 UNION SELECT 2 FROM t WINDOW w AS () ORDER BY rank() OVER w", Pos{1, 68}, `window w is not defined`},
		{"UPDATE t SET a = rank() OVER w", Pos{1, 30}, `window w is not defined: only a SELECT can define one (WINDOW w AS (…))`},
		{"SELECT lag(x IGNORE NULLS) RESPECT NULLS OVER () FROM t", Pos{1, 28}, "IGNORE NULLS or RESPECT NULLS may be given once"},
		{"SELEC 1", Pos{1, 1}, `unexpected "SELEC", expected statement (did you mean SELECT?)`},
		{"SELECT * EXCLUDE () FROM t", Pos{1, 19}, `unexpected ")", expected identifier`},
		{"SELECT * REPLACE (a + 1) FROM t", Pos{1, 24}, `unexpected ")", expected AS`},
		{"SELECT * REPLACE (a + 1 AS a FROM t", Pos{1, 18}, `unclosed parenthesis: unexpected "FROM", expected "," or ")"`},
		{"SELECT a FROM t ORDER BY ALL, a", Pos{1, 29}, "ORDER BY ALL orders by every column; it cannot be combined with other ORDER BY keys"},
		{"SELECT * FROM t TABLESAMPLE BERNOULLI (101)", Pos{1, 40}, "sample percentage 101 is not between 0 and 100"},
		{"SELECT * FROM t TABLESAMPLE (1.5 ROWS)", Pos{1, 30}, "sample size 1.5 is not a whole number of rows"},
		{"SELECT * FROM t TABLESAMPLE (x)", Pos{1, 30}, `unexpected "x", expected sample size`},
		{"SELECT * FROM t TABLESAMPLE SYSTEM (1) REPEATABLE (7)", Pos{1, 40}, "REPEATABLE is not supported: a sample is drawn anew at every run"},
		{"craete table t (a int)", Pos{1, 1}, `unexpected "craete", expected statement (did you mean CREATE?)`},
		{"SELECT a FROM t WHER a = 1", Pos{1, 22}, `unexpected "a", expected JOIN, INNER, LEFT, … or end of statement`},
		{"SELECT 'abc", Pos{1, 8}, "unterminated string literal"},
		{"SELECT 1 +\n'abc", Pos{2, 1}, "unterminated string literal"},
		{"SELECT FROM t; SELECT 'abc", Pos{1, 8}, `unexpected "FROM", expected expression`},
		{"SELECT * FROM t /* open", Pos{1, 17}, "unterminated comment"},
		{"SELECT a IS 3", Pos{1, 13}, `unexpected "3", expected NOT, NULL, TRUE, … or DISTINCT`},
		{"SELECT CAST(a AS foo)", Pos{1, 18}, "unknown type FOO"},
		{"SELECT * FROM a JOIN b", Pos{1, 23}, "unexpected end of statement, expected AS, ON or USING"},
		{"SELECT * FROM a LEFT b", Pos{1, 22}, `unexpected "b", expected JOIN`},
		{"SELECT * FROM a.b.c.d.e", Pos{1, 23}, "name has more than 4 parts"},
		{"SELECT 1 2", Pos{1, 10}, `unexpected "2", expected AS, ",", FROM, … or end of statement`},
		{"VALUES (1), (1, 2)", Pos{1, 13}, "VALUES row has 2 columns, the first row has 1"},
		{"SELECT INTERVAL 1", Pos{1, 18}, "unexpected end of statement, expected interval unit"},
		{"CREATE TABLE t", Pos{1, 15}, "CREATE TABLE needs a column list or AS query"},
		{"CREATE TABLE t (a int) USING parquet", Pos{1, 30}, "unsupported table format parquet: lakesql tables are Iceberg tables, write USING iceberg or leave USING out (MERGE, OPTIMIZE, VACUUM and time travel work on them)"},
		{"CREATE TABLE t (a int) PARTITIONED BY (a) PARTITIONED BY (a)", Pos{1, 43}, "duplicate PARTITIONED clause"},
		{"CREATE TABLE t (a int) PARTITIONED BY (week(a))", Pos{1, 40}, "unknown partition transform week"},
		{"CREATE TABLE t (a int) PARTITIONED BY (bucket(0, a))", Pos{1, 47}, "bucket needs a positive integer"},
		{"CREATE TABLE t (a int) PARTITIONED BY (a AS b)", Pos{1, 42}, `unexpected "AS", expected "," or ")"`},
		{"CREATE FUNCTION f", Pos{1, 8}, `unexpected "FUNCTION", expected NAMESPACE, SCHEMA, DATABASE or TABLE`},
		{"CREATE VIEW v", Pos{1, 14}, `unexpected end of statement, expected AS`},
		{"CREATE GLOBAL VIEW v AS SELECT 1", Pos{1, 15}, `unexpected "VIEW", expected TEMPORARY`},
		{"ALTER TABLE t ADD PARTITION (a = 1", Pos{1, 35}, `unexpected end of statement, expected )`},
		{"DROP TABLE t; DROP TABLE", Pos{1, 25}, "unexpected end of statement, expected IF or identifier"},
		{"INSERT t VALUES (1)", Pos{1, 8}, `unexpected "t", expected INTO or OVERWRITE`},
		{"INSERT INTO t (a) SELEC 1", Pos{1, 19}, `unexpected "SELEC", expected WITH, SELECT, VALUES or "(" (did you mean SELECT?)`},
		{"SET x y", Pos{1, 7}, `unexpected "y", expected "=" or TO`},
		{"ALTER TABLE t FOO", Pos{1, 15}, `unexpected "FOO", expected ADD, DROP, REPLACE, … or UNSET`},
		{"SELECT 1 SELECT 2", Pos{1, 10}, `unexpected "SELECT", expected AS, ",", FROM, … or end of statement`},
		{"SELECT " + "a_very_long_column_name_indeed + FROM", Pos{1, 41}, `unexpected "FROM", expected expression`},
		{"SELECT x FROM a_very_long_table_name_indeed_yes y z", Pos{1, 51}, `unexpected "z", expected JOIN, INNER, LEFT, … or end of statement`},
		{"SELECT 'it''s' 'a very long string literal indeed'", Pos{1, 16}, `unexpected "'a very long string …", expected AS, ",", FROM, … or end of statement`},
	}
	for _, tt := range tests {
		_, err := Parse(tt.in)
		var e *Error
		if !errors.As(err, &e) {
			t.Errorf("Parse(%q) = %v, want an *Error", tt.in, err)
			continue
		}
		if e.Pos != tt.pos || e.Msg != tt.msg {
			t.Errorf("Parse(%q)\n got %d:%d %s\nwant %d:%d %s", tt.in, e.Pos.Line, e.Pos.Col, e.Msg, tt.pos.Line, tt.pos.Col, tt.msg)
		}
	}
}

func TestErrorString(t *testing.T) {
	_, err := Parse("SELECT\n  1 +")
	want := "syntax error at line 2, column 6: unexpected end of statement, expected expression"
	if err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
}

func TestParseOne(t *testing.T) {
	if _, err := ParseOne("SELECT 1;"); err != nil {
		t.Errorf("trailing ';': %v", err)
	}
	_, err := ParseOne("SELECT 1; SELECT 2")
	var e *Error
	if !errors.As(err, &e) || e.Pos != (Pos{1, 11}) || e.Msg != `unexpected "SELECT", expected end of input` {
		t.Errorf("two statements: %v", err)
	}
	_, err = ParseOne(" ")
	if !errors.As(err, &e) || e.Pos != (Pos{1, 2}) || e.Msg != "unexpected end of statement, expected statement" {
		t.Errorf("empty text: %v", err)
	}
}
