package sql

import (
	"slices"
	"testing"
)

// TestInspect lists the function calls Inspect reaches: those of every
// clause of an expression, not those inside a subquery, and none below an
// expression whose callback returned false.
func TestInspect(t *testing.T) {
	sel := mustParseOne(t, `SELECT CASE WHEN f(a) THEN g(b[h(1)]) ELSE (SELECT k(x) FROM u) END
		+ percentile_cont(0.5) WITHIN GROUP (ORDER BY m(c) + n(d)) + sum(o(skipped(c))) OVER (PARTITION BY p(e) ORDER BY q(f) ROWS BETWEEN r(1) PRECEDING AND CURRENT ROW)
		+ count(*) FILTER (WHERE fi(a)) + (s(g) IN (SELECT z(y) FROM v)) + cast(w(h) AS int) FROM t`).(*QueryStmt).Query.Body.(*Select)
	var calls []string
	Inspect(sel.Items[0].Expr, func(e Expr) bool {
		if call, ok := e.(*FuncCall); ok {
			calls = append(calls, call.Name)
			return call.Name != "o"
		}
		return true
	})
	slices.Sort(calls)
	if want := []string{"count", "f", "fi", "g", "h", "m", "n", "o", "p", "percentile_cont", "q", "r", "s", "sum", "w"}; !slices.Equal(calls, want) {
		t.Errorf("Inspect reached %v, want %v", calls, want)
	}
}
