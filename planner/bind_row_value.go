package planner

import (
	"fmt"

	"github.com/lakesql/lakesql/sql"
)

// Row values (a, b, …) compare item by item, as the SQL standard, DuckDB
// and Trino define it, with three-valued logic:
//
//   - (a, b) = (c, d) is a = c AND b = d, and <> its negation: TRUE as soon
//     as one pair differs, NULL when none does but one is unknown;
//   - (a, b) < (c, d) is a < c OR (a = c AND b < d), lexicographically,
//     <= taking <= for the last pair (>, >= mirror them);
//   - IS [NOT] DISTINCT FROM compares every pair so;
//   - (a, b) IN ((c, d), …) is (a, b) = (c, d) OR …, and so is
//     (a, b) IN (SELECT c, d …) over the subquery's rows.
//
// Elsewhere a row value is a struct (bind_expr.go).

// rowItems returns the items of e when it is a row value.
func rowItems(e sql.Expr) ([]sql.Expr, bool) {
	if r, ok := e.(*sql.RowExpr); ok {
		return r.Items, true
	}
	return nil, false
}

// bindRowComparison binds fn (a comparison or IS [NOT] DISTINCT FROM)
// between two row values of as many items.
func (b *binder) bindRowComparison(fn string, le, re sql.Expr, pos sql.Pos, s *scope) (Expr, error) {
	l, lok := rowItems(le)
	r, rok := rowItems(re)
	if !lok || !rok || len(l) != len(r) {
		return nil, kindErrorf(ErrType, pos, "a row value can only be compared with a row value of as many items: %s vs %s", sql.Format(le), sql.Format(re))
	}
	pairs := make([]Expr, len(l))
	for i := range l {
		pairFn := fn
		switch fn {
		case FnNe:
			pairFn = FnEq
		case FnIsDistinct:
			pairFn = FnIsNotDistinct
		case FnLe, FnGe:
			if i < len(l)-1 {
				pairFn = map[string]string{FnLe: FnLt, FnGe: FnGt}[fn]
			}
		}
		x, err := b.bindComparison(pairFn, l[i], r[i], pos, s)
		if err != nil {
			return nil, err
		}
		pairs[i] = x
	}
	switch fn {
	case FnEq, FnIsNotDistinct:
		return Conjunction(pairs), nil
	case FnNe, FnIsDistinct:
		return &Call{Fn: FnNot, Args: []Expr{Conjunction(pairs)}, T: TypeBoolean}, nil
	}
	// Lexicographic: from the last pair out, pairs[i] OR (l_i = r_i AND rest).
	out := pairs[len(pairs)-1]
	for i := len(pairs) - 2; i >= 0; i-- {
		eq, err := b.bindComparison(FnEq, l[i], r[i], pos, s)
		if err != nil {
			return nil, err
		}
		out = &Call{Fn: FnOr, T: TypeBoolean, Args: []Expr{pairs[i], Conjunction([]Expr{eq, out})}}
	}
	return out, nil
}

// bindRowInList binds (a, b) [NOT] IN ((c, d), …).
func (b *binder) bindRowInList(e *sql.InListExpr, s *scope) (Expr, error) {
	var out Expr
	for _, item := range e.List {
		eq, err := b.bindRowComparison(FnEq, e.X, item, e.Pos, s)
		if err != nil {
			return nil, err
		}
		if out == nil {
			out = eq
		} else {
			out = &Call{Fn: FnOr, Args: []Expr{out, eq}, T: TypeBoolean}
		}
	}
	if e.Not {
		out = &Call{Fn: FnNot, Args: []Expr{out}, T: TypeBoolean}
	}
	return out, nil
}

// bindRowInSubquery binds (a, b, …) [NOT] IN (SELECT c, d, …): each item
// is brought to one type with its column, as for a = c, and X is the row
// value as a struct, which Subquery.InOperands takes apart.
func (b *binder) bindRowInSubquery(e *sql.InSubqueryExpr, items []sql.Expr, s *scope) (Expr, error) {
	plan, err := b.bindSubqueryPlan(e.Query, s)
	if err != nil {
		return nil, err
	}
	cols := plan.Schema()
	if len(cols) != len(items) {
		return nil, kindErrorf(ErrType, e.Pos, "a row value of %d items cannot be compared with a subquery of %d columns", len(items), len(cols))
	}
	row := make([]Expr, 0, 2*len(items))
	proj := &Project{Input: plan}
	cast := false
	for i, item := range items {
		x, err := b.bindExpr(item, s)
		if err != nil {
			return nil, err
		}
		pair, err := unify(e.Pos, x, &ColumnRef{Index: i, Name: cols[i].Name, T: cols[i].T})
		if err != nil {
			return nil, err
		}
		if pair[1], err = b.localize(pair[1]); err != nil { // as bindComparedSubquery does
			return nil, err
		}
		row = append(row, stringLit(fmt.Sprintf("col%d", i+1)), pair[0])
		proj.Exprs, proj.Names = append(proj.Exprs, pair[1]), append(proj.Names, cols[i].Name)
		if _, isRef := pair[1].(*ColumnRef); !isRef {
			cast = true
		}
	}
	if cast {
		plan = proj
	}
	x, err := makeStruct(&funcCall{name: FnMakeStruct, pos: e.Pos}, row)
	if err != nil {
		return nil, err
	}
	return negateIf(e.Not, &Subquery{Kind: SubqueryIn, Plan: plan, X: x, T: TypeBoolean}), nil
}

// InRows is (x1, x2, …) IN (rows), each row as many constants of the
// operands' types: the OR of each row's AND of equalities, as the standard
// defines it; FALSE for no rows. The ORs nest as a balanced tree, so many
// rows make a shallow expression.
func InRows(operands []Expr, rows [][]Expr) Expr {
	switch len(rows) {
	case 0:
		return &Literal{Value: false, T: TypeBoolean}
	case 1:
		eqs := make([]Expr, len(operands))
		for i, x := range operands {
			eqs[i] = &Call{Fn: FnEq, Args: []Expr{x, rows[0][i]}, T: TypeBoolean}
		}
		return Conjunction(eqs)
	}
	half := len(rows) / 2
	return &Call{Fn: FnOr, Args: []Expr{InRows(operands, rows[:half]), InRows(operands, rows[half:])}, T: TypeBoolean}
}
