package sql

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// corpus gathers the statements of the table-driven tests.
func corpus() []string {
	return append(exprCorpus(),
		"CREATE TABLE IF NOT EXISTS t (id int NOT NULL COMMENT 'x', ts timestamp with time zone) USING iceberg PARTITIONED BY (day(ts), bucket(16, id), truncate(4, s)) TBLPROPERTIES ('a' = 'b') AS SELECT 1",
		"WITH a (x) AS (SELECT 1) SELECT DISTINCT a.*, count(*) OVER (PARTITION BY x ORDER BY y ROWS BETWEEN 1 PRECEDING AND UNBOUNDED FOLLOWING) FROM a LEFT JOIN b USING (x), (SELECT 2) s (y) WHERE x IN (SELECT 1) GROUP BY 1 HAVING 1 UNION ALL VALUES (1) INTERSECT (SELECT 3) ORDER BY 1 DESC NULLS FIRST LIMIT 1 OFFSET 2",
		"SELECT * FROM t FOR SYSTEM_TIME AS OF TIMESTAMP '2024-01-01' x JOIN f(a => 1) y (c) ON true CROSS JOIN (u JOIN v ON p)",
		"ALTER TABLE t REPLACE PARTITION FIELD a WITH hours(ts) AS h; ALTER TABLE t WRITE LOCALLY ORDERED BY a DESC",
		"ALTER TABLE t ADD COLUMNS (a int); ALTER TABLE t ALTER COLUMN a SET DATA TYPE bigint; ALTER TABLE t UNSET TBLPROPERTIES IF EXISTS ('k')",
		"CALL system.f(table => 't', options => map('k', 'v')); SET TIME ZONE 'UTC'; SET a.b TO -1",
		"DESCRIBE TABLE EXTENDED t; INSERT OVERWRITE TABLE t (a) VALUES (1); DELETE FROM t WHERE a = 1",
		"OPTIMIZE t WHERE a > 1 ZORDER BY (a, b); VACUUM t RETAIN 1 HOURS DRY RUN; EXPLAIN ANALYZE SELECT 1",
		"DROP SCHEMA IF EXISTS ns CASCADE; SHOW TABLES IN ns; SHOW CREATE TABLE t; SHOW PARTITIONS t",
		"SELECT CASE x WHEN 1 THEN 'a' ELSE 'b' END, TRIM(LEADING 'x' FROM s), SUBSTRING(s FROM 1 FOR 2), EXTRACT(year FROM ts)",
		"SELECT 'unterminated /* \"x\n`y",
	)
}

func exprCorpus() []string {
	var all []string
	for _, e := range []string{
		"a OR b AND NOT c = d IS NOT DISTINCT FROM e BETWEEN 1 AND 2",
		"x::decimal(10, 2) || - 1 - -1 * 'it''s' % \"Mixed Case\"",
		"INTERVAL '2' HOURS + INTERVAL -1 DAY + DATE '2024-01-01' + TIMESTAMP WITH TIME ZONE 'x'",
		"NOT EXISTS (SELECT 1) AND a NOT LIKE 'b' ESCAPE 'c' AND c NOT IN (1, 2) AND (SELECT 1) IS TRUE",
	} {
		all = append(all, "SELECT "+e)
	}
	return all
}

// TestPrefixesNeverPanic feeds every prefix of every corpus statement to Parse
// and Split; each must return statements or an error, never panic.
func TestPrefixesNeverPanic(t *testing.T) {
	for _, s := range corpus() {
		for i := range len(s) + 1 {
			checkNoPanic(t, s[:i])
			checkNoPanic(t, s[i:])
		}
	}
}

func TestDeepNesting(t *testing.T) {
	for _, text := range []string{
		"SELECT " + strings.Repeat("(", 10000),
		"SELECT " + strings.Repeat("(", 10000) + "1" + strings.Repeat(")", 10000),
		"SELECT " + strings.Repeat("- ", 10000) + "1",
		"SELECT " + strings.Repeat("NOT ", 10000) + "1",
		"SELECT * FROM " + strings.Repeat("(", 10000) + "t",
		strings.Repeat("(", 10000) + "SELECT 1",
		strings.Repeat("EXPLAIN ", 10000) + "SELECT 1",
	} {
		var e *Error
		if _, err := Parse(text); !errors.As(err, &e) || e.Msg != "statement is nested too deeply" {
			t.Errorf("%.20s…: %v", text, err)
		}
	}
	if _, err := Parse("SELECT " + strings.Repeat("(", 200) + "1" + strings.Repeat(")", 200)); err != nil {
		t.Errorf("200 parentheses: %v", err)
	}
}

func checkNoPanic(t *testing.T, text string) {
	defer func() {
		if r := recover(); r != nil {
			t.Fatalf("Parse(%q) panicked: %v", text, r)
		}
	}()
	stmts, err := Parse(text)
	if _, ok := err.(*Error); err != nil && !ok {
		t.Errorf("Parse(%q) error %T is not *Error", text, err)
	}
	if slices.Contains(stmts, nil) {
		t.Errorf("Parse(%q) returned a nil statement", text)
	}
	Split(text)
}

func FuzzParse(f *testing.F) {
	for _, s := range corpus() {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		stmts, err := Parse(text)
		if err == nil {
			for _, s := range stmts {
				if qs, ok := s.(*QueryStmt); ok {
					FormatQuery(qs.Query)
				}
			}
		}
		Split(text)
	})
}
