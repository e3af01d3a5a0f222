package planner

import (
	"strings"

	"github.com/lakesql/lakesql/sql"
)

// bindSubqueryPlan binds a subquery used in an expression over scope s. s is
// pushed as an outer scope so that a reference to the enclosing query's
// columns is reported as correlated rather than as unknown.
func (b *binder) bindSubqueryPlan(q *sql.Query, s *scope) (Plan, error) {
	b.outer = append(b.outer, s)
	defer func() { b.outer = b.outer[:len(b.outer)-1] }()
	return b.bindQuery(q)
}

// outerReference resolves a column the current scope lacks in the
// enclosing queries, innermost first, as a correlated reference; the
// optimizer turns the subquery into a join. It returns err when no
// enclosing query has the column either.
func (b *binder) outerReference(ref *sql.ColumnRef, err error) (Expr, error) {
	for depth := 1; depth <= len(b.outer); depth++ {
		s := b.outer[len(b.outer)-depth]
		if i, outerErr := s.resolve(ref); outerErr == nil {
			if s.aggs != nil && s.aggs.forbidden == "" {
				// In a block that groups, the select list, HAVING and ORDER
				// BY read the aggregate's output: a GROUP BY column is its
				// group column there. Whether a block without GROUP BY
				// aggregates is known at its end (bind_select.go).
				col := &ColumnRef{Index: i, Name: s.cols[i].Name, T: s.cols[i].T}
				if g, grouped := s.aggs.groupKeys[exprKey(col)]; grouped {
					return &OuterRef{Depth: depth, Index: g, Name: col.Name, T: col.T, Pos: ref.Pos}, nil
				}
				if s.aggs.outerRef == nil {
					s.aggs.outerRef = kindErrorf(ErrUnsupported, ref.Pos, "a correlated subquery in the select list, HAVING or ORDER BY of a query that groups or aggregates may only read its GROUP BY columns (%s is not one)", strings.Join(ref.Parts, "."))
				}
			}
			return &OuterRef{Depth: depth, Index: i, Name: s.cols[i].Name, T: s.cols[i].T, Pos: ref.Pos}, nil
		}
	}
	return nil, err
}

// singleColumn binds a subquery that must return one column.
func (b *binder) singleColumn(q *sql.Query, pos sql.Pos, s *scope) (Plan, error) {
	plan, err := b.bindSubqueryPlan(q, s)
	if err != nil {
		return nil, err
	}
	if n := len(plan.Schema()); n != 1 {
		return nil, errorf(pos, "subquery must return one column, it returns %d", n)
	}
	return plan, nil
}

// bindScalarSubquery binds (SELECT …) used as a value.
func (b *binder) bindScalarSubquery(e *sql.SubqueryExpr, s *scope) (Expr, error) {
	plan, err := b.singleColumn(e.Query, e.Pos, s)
	if err != nil {
		return nil, err
	}
	return &Subquery{Kind: SubqueryScalar, Plan: plan, T: plan.Schema()[0].T}, nil
}

// bindExists binds [NOT] EXISTS (SELECT …).
func (b *binder) bindExists(e *sql.ExistsExpr, s *scope) (Expr, error) {
	plan, err := b.bindSubqueryPlan(e.Query, s)
	if err != nil {
		return nil, err
	}
	return negateIf(e.Not, &Subquery{Kind: SubqueryExists, Plan: plan, T: TypeBoolean}), nil
}

// bindInSubquery binds x [NOT] IN (SELECT …).
func (b *binder) bindInSubquery(e *sql.InSubqueryExpr, s *scope) (Expr, error) {
	if items, isRow := rowItems(e.X); isRow {
		return b.bindRowInSubquery(e, items, s)
	}
	x, plan, err := b.bindComparedSubquery(e.X, e.Query, e.Pos, s)
	if err != nil {
		return nil, err
	}
	return negateIf(e.Not, &Subquery{Kind: SubqueryIn, Plan: plan, X: x, T: TypeBoolean}), nil
}

// bindComparedSubquery binds x and the one-column subquery q that x is
// compared with (IN, ANY, ALL), both brought to one type as for x = y.
func (b *binder) bindComparedSubquery(xe sql.Expr, q *sql.Query, pos sql.Pos, s *scope) (Expr, Plan, error) {
	x, err := b.bindExpr(xe, s)
	if err != nil {
		return nil, nil, err
	}
	plan, err := b.singleColumn(q, pos, s)
	if err != nil {
		return nil, nil, err
	}
	col := plan.Schema()[0]
	pair, err := unify(pos, x, &ColumnRef{Name: col.Name, T: col.T})
	if err != nil {
		return nil, nil, err
	}
	// The cast of the subquery's column is no part of the expression the
	// outermost bindExpr localizes: a DATE compared with a TIMESTAMPTZ
	// starts its day in the session zone here too.
	if pair[1], err = b.localize(pair[1]); err != nil {
		return nil, nil, err
	}
	if _, isRef := pair[1].(*ColumnRef); !isRef {
		plan = &Project{Input: plan, Exprs: pair[1:], Names: []string{col.Name}}
	}
	return pair[0], plan, nil
}

func negateIf(not bool, e Expr) Expr {
	if !not {
		return e
	}
	return &Call{Fn: FnNot, Args: []Expr{e}, T: TypeBoolean}
}
