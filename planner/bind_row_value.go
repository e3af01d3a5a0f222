package planner

import "github.com/lakesql/lakesql/sql"

// Row values (a, b, …) compare item by item, as the SQL standard, DuckDB
// and Trino define it, with three-valued logic:
//
//   - (a, b) = (c, d) is a = c AND b = d, and <> its negation: TRUE as soon
//     as one pair differs, NULL when none does but one is unknown;
//   - (a, b) < (c, d) is a < c OR (a = c AND b < d), lexicographically,
//     <= taking <= for the last pair (>, >= mirror them);
//   - IS [NOT] DISTINCT FROM compares every pair so;
//   - (a, b) IN ((c, d), …) is (a, b) = (c, d) OR ….
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
