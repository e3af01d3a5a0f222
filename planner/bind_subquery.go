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

// outerReference replaces the error for a column the current scope lacks when
// an enclosing query has it: lakesql runs subqueries once, so it cannot run
// one that depends on the outer row.
func (b *binder) outerReference(ref *sql.ColumnRef, err error) error {
	for _, s := range b.outer {
		if _, outerErr := s.resolve(ref); outerErr == nil {
			return kindErrorf(ErrUnsupported, ref.Pos, "correlated subqueries are not supported yet (%s refers to the outer query)", strings.Join(ref.Parts, "."))
		}
	}
	return err
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

// bindInSubquery binds x [NOT] IN (SELECT …); x and the subquery's column are
// brought to one type as for x = y.
func (b *binder) bindInSubquery(e *sql.InSubqueryExpr, s *scope) (Expr, error) {
	x, err := b.bindExpr(e.X, s)
	if err != nil {
		return nil, err
	}
	plan, err := b.singleColumn(e.Query, e.Pos, s)
	if err != nil {
		return nil, err
	}
	col := plan.Schema()[0]
	pair, err := unify(e.Pos, x, &ColumnRef{Name: col.Name, T: col.T})
	if err != nil {
		return nil, err
	}
	if _, isRef := pair[1].(*ColumnRef); !isRef {
		plan = &Project{Input: plan, Exprs: pair[1:], Names: []string{col.Name}}
	}
	return negateIf(e.Not, &Subquery{Kind: SubqueryIn, Plan: plan, X: pair[0], T: TypeBoolean}), nil
}

func negateIf(not bool, e Expr) Expr {
	if !not {
		return e
	}
	return &Call{Fn: FnNot, Args: []Expr{e}, T: TypeBoolean}
}
