package planner

import (
	"strings"

	"github.com/lakesql/lakesql/sql"
)

// bindQualify binds QUALIFY (DuckDB, Snowflake, Spark, BigQuery): a filter
// on the rows once the block's window functions are computed. It is bound
// in the block's scope, so its window and aggregate calls join the
// block's, and a name no input column has may be a select alias (input
// columns first, as DuckDB resolves them). As in DuckDB, a block with
// QUALIFY must compute a window function in its select list or in QUALIFY:
// without one, QUALIFY is a misplaced WHERE or HAVING.
func (b *binder) bindQualify(sel *sql.Select, s *scope, items []selectItem) (*selectItem, error) {
	if sel.Qualify == nil {
		return nil, nil
	}
	qs := *s
	qs.aliases = map[string]Expr{}
	for _, it := range items {
		qs.addAlias(it.name, it.expr)
	}
	x, err := b.bindExpr(sel.Qualify, &qs)
	if err != nil {
		return nil, err
	}
	if len(s.windows.calls) == 0 {
		return nil, errorf(sel.Qualify.Position(), "QUALIFY needs a window function in the select list or in QUALIFY; filter with WHERE or HAVING instead")
	}
	return &selectItem{expr: x, src: sel.Qualify}, nil
}

// addAlias makes name stand for the bound select item x, unless an
// earlier item has the name.
func (s *scope) addAlias(name string, x Expr) {
	if _, dup := s.aliases[strings.ToLower(name)]; !dup {
		s.aliases[strings.ToLower(name)] = x
	}
}

// alias returns the select item a bare column name that no input column
// has names, where the scope allows aliases (QUALIFY, HAVING, and the
// select list after the item). An item computed by a window or aggregate
// call is an error where such a call would be one (inside another call of
// its kind, or in a clause that forbids it).
func (s *scope) alias(ref *sql.ColumnRef) (Expr, bool, error) {
	if s.aliases == nil || len(ref.Parts) != 1 {
		return nil, false, nil
	}
	x, ok := s.aliases[strings.ToLower(ref.Parts[0])]
	if !ok {
		return nil, false, nil
	}
	var msg string
	Walk(x, func(e Expr) {
		switch e.(type) {
		case *windowOutput:
			switch {
			case s.windows == nil:
				msg = "window function calls cannot be nested"
			case s.windows.forbidden != "":
				msg = s.windows.forbidden
			}
		case *aggOutput:
			switch {
			case s.aggs == nil:
				msg = "aggregate function calls cannot be nested"
			case s.aggs.forbidden != "":
				msg = s.aggs.forbidden
			}
		}
	})
	if msg != "" {
		return nil, true, errorf(ref.Pos, "%s: %s is computed by one", msg, ref.Parts[0])
	}
	return x, true, nil
}

// qualifyPlan filters the Window's rows by the QUALIFY condition, which
// windower.plan has rewritten to read the Window's columns.
func qualifyPlan(plan Plan, q *selectItem) (Plan, error) {
	cond, err := requireBoolean(q.expr, q.src.Position(), "QUALIFY")
	if err != nil {
		return nil, err
	}
	return &Filter{Input: plan, Cond: cond}, nil
}
