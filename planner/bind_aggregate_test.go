package planner

import (
	"context"
	"strings"
	"testing"

	"github.com/lakesql/lakesql/sql"
)

// bindText binds a query over an inline relation t(a INT, b STRING, d DOUBLE).
func bindText(t *testing.T, query string) (Plan, error) {
	t.Helper()
	text := strings.ReplaceAll(query, "FROM t", "FROM (SELECT 1 AS a, 'x' AS b, 2.5e0 AS d) t")
	stmt, err := sql.ParseOne(text)
	if err != nil {
		t.Fatalf("%s: %v", text, err)
	}
	return BindQuery(context.Background(), nil, stmt.(*sql.QueryStmt).Query)
}

func TestBindAggregatePlans(t *testing.T) {
	cases := []struct {
		query string
		want  []string // plan lines, from the top, up to the Aggregate/Sort of interest
	}{
		{"SELECT b, count(*) AS c, sum(a) FROM t GROUP BY b", []string{
			"Project b, c, sum(a)",
			"  Aggregate group=[b] aggs=[count(*) AS c, sum(CAST(a AS BIGINT)) AS sum(a)]"}},
		{"SELECT b AS k, avg(d) FROM t GROUP BY k HAVING count(*) > 1 ORDER BY 2 DESC LIMIT 5", []string{
			"TopN 5 keys=[avg(d) DESC NULLS LAST]",
			"  Project b AS k, avg(d)",
			"    Filter (count(*) > 1)",
			"      Aggregate group=[b] aggs=[avg(d), count(*)]"}},
		{"SELECT a FROM t ORDER BY d, a DESC NULLS LAST", []string{
			"Project a",
			"  Sort keys=[d ASC NULLS LAST, a DESC NULLS LAST] (materializes input)",
			"    Project a, d"}},
		{"SELECT DISTINCT b FROM t", []string{"Distinct", "  Project b"}},
		{"SELECT a + 1, count(DISTINCT b) FROM t GROUP BY 1", []string{
			"Project (a + 1), count(DISTINCT b)",
			"  Aggregate group=[(a + 1)] aggs=[count(DISTINCT b)]"}},
		// A FILTER makes a call of its own; the same call and condition twice are one.
		{"SELECT count(*) FILTER (WHERE a > 1), count(*), sum(a) FILTER (WHERE b = 'x'), sum(a) FILTER (WHERE b = 'x') + 1 FROM t", []string{
			"Project count(*) FILTER (WHERE (a > 1)), count(*), sum(a) FILTER (WHERE (b = 'x')), (sum(CAST(a AS BIGINT)) FILTER (WHERE (b = 'x')) + 1) AS (sum(a) FILTER (WHERE (b = 'x')) + 1)",
			"  Aggregate group=[] aggs=[count(*) FILTER (WHERE (a > 1)), count(*), sum(CAST(a AS BIGINT)) FILTER (WHERE (b = 'x')) AS sum(a) FILTER (WHERE (b = 'x'))]"}},
		{"SELECT max_by(b, d), arg_min(a, b), list(d), collect_list(b), mode(a) FROM t", []string{
			"Project max_by(b, d), arg_min(a, b), list(d), collect_list(b), mode(a)",
			"  Aggregate group=[] aggs=[max_by(b, d), min_by(a, b) AS arg_min(a, b), array_agg(d) AS list(d), collect_list(b), mode(a)]"}},
	}
	for _, tc := range cases {
		p, err := bindText(t, tc.query)
		if err != nil {
			t.Errorf("%s: %v", tc.query, err)
			continue
		}
		lines := strings.Split(Format(p), "\n")
		if got := strings.Join(lines[:min(len(lines), len(tc.want))], "\n"); got != strings.Join(tc.want, "\n") {
			t.Errorf("%s\n got:\n%s\nwant:\n%s", tc.query, Format(p), strings.Join(tc.want, "\n"))
		}
	}
}

func TestBindAggregateErrors(t *testing.T) {
	cases := []struct{ query, want string }{
		{"SELECT b, count(*) FROM t", `column "b" must appear in the GROUP BY clause or be used in an aggregate function (at line 1, column 8)`},
		{"SELECT a + d FROM t GROUP BY a", `column "d" must appear in the GROUP BY clause`},
		{"SELECT a FROM t WHERE sum(a) > 1", "aggregate functions are not allowed in WHERE"},
		{"SELECT sum(max(a)) FROM t", "aggregate function calls cannot be nested"},
		{"SELECT a FROM t GROUP BY sum(a)", "aggregate functions are not allowed in GROUP BY"},
		{"SELECT a FROM t GROUP BY 3", "GROUP BY position 3 is not in select list"},
		{"SELECT a FROM t ORDER BY 2", "ORDER BY position 2 is not in select list"},
		{"SELECT DISTINCT a FROM t ORDER BY d", "ORDER BY expressions must appear in the select list"},
		{"SELECT sum(b) FROM t", "sum: needs a number, got STRING"},
		{"SELECT a FROM t HAVING a > 1", `column "a" must appear in the GROUP BY clause`},
		{"SELECT sum(a) FILTER (WHERE b) FROM t", "FILTER (WHERE …) of sum must be BOOLEAN, got STRING (at line 1, column 29)"},
		{"SELECT upper(b) FILTER (WHERE a > 1) FROM t", "FILTER (WHERE …) is only allowed with aggregate functions; upper is not one"},
		{"SELECT rank() FILTER (WHERE a > 1) OVER () FROM t", "FILTER (WHERE …) is only allowed with aggregate functions; rank is not one"},
		{"SELECT count(*) FILTER (WHERE max(a) > 1) FROM t", "aggregate function calls cannot be nested"},
		{"SELECT sum(a) FILTER (WHERE row_number() OVER () > 1) FROM t", "window functions are not allowed in FILTER"},
		{"SELECT max_by(a) FROM t", "max_by takes (value, ordering key), got 1 arguments"},
		{"SELECT min_by(DISTINCT a, d) FROM t", "min_by(DISTINCT …) is not supported"},
		{"SELECT array_agg(a, d) FROM t", "array_agg needs 1 argument, got 2"},
		{"SELECT upper(b ORDER BY a) FROM t", "ORDER BY inside the parentheses is only allowed with aggregate functions; upper is not one"},
		{"SELECT lag(a ORDER BY d) OVER () FROM t", "ORDER BY inside lag(…) is only allowed with aggregate functions; order the window instead"},
	}
	for _, tc := range cases {
		_, err := bindText(t, tc.query)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want %q", tc.query, err, tc.want)
		}
	}
}
