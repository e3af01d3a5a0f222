package planner

import (
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakesql/lakesql/sql"
)

// bindAggFilter binds the condition of agg(…) FILTER (WHERE cond) over the
// block's input, as the aggregate's argument is. The aggregate then sees
// only the rows where it is TRUE (exec/aggregate_filter.go).
func (b *binder) bindAggFilter(e *sql.FuncCall, s *scope) (Expr, error) {
	inner := forbidWindows(aggregateArgs(s), "window functions are not allowed in FILTER (WHERE …)")
	cond, err := b.bindExpr(e.Filter, inner)
	if err != nil {
		return nil, err
	}
	if id := cond.Type().ID(); id != arrow.BOOL && id != arrow.NULL {
		return nil, errorf(e.Filter.Position(), "FILTER (WHERE …) of %s must be BOOLEAN, got %s", e.Name, TypeString(cond.Type()))
	}
	return cond, nil
}

// aggregateClausesPlaced rejects FILTER (WHERE …) and an ORDER BY inside
// the parentheses on a call that is not an aggregate (over a window or
// not): ranking and value window functions and scalar functions.
func aggregateClausesPlaced(e *sql.FuncCall) error {
	switch {
	case IsAggregateFunction(e.Name) || e.Filter == nil && len(e.OrderBy) == 0:
		return nil
	case e.Filter != nil:
		return errorf(e.Pos, "FILTER (WHERE …) is only allowed with aggregate functions; %s is not one", e.Name)
	case e.Over != nil:
		return errorf(e.Pos, "ORDER BY inside %s(…) is only allowed with aggregate functions; order the window instead", e.Name)
	}
	return errorf(e.Pos, "ORDER BY inside the parentheses is only allowed with aggregate functions; %s is not one", e.Name)
}
