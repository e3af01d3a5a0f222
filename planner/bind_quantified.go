package planner

import (
	"github.com/lakesql/lakesql/sql"
)

// negatedComparisons maps a comparison to the one that is TRUE exactly
// where it is FALSE.
var negatedComparisons = map[string]string{FnEq: FnNe, FnNe: FnEq, FnLt: FnGe, FnLe: FnGt, FnGt: FnLe, FnGe: FnLt}

// bindQuantified binds x op ANY|ALL (SELECT …). x op ALL (…) is
// NOT (x negated-op ANY (…)): both are FALSE, NULL and TRUE on the same
// rows the other way round, which three-valued NOT keeps. = ANY is IN and
// <> ALL is NOT IN, so that they look values up, join and prune as IN
// does. Over an uncorrelated subquery the others are expanded here into
// the comparison with its smallest or largest value (ExpandAny); over a
// correlated one they stay a SubqueryAny for decorrelation to join.
func (b *binder) bindQuantified(e *sql.QuantifiedExpr, s *scope) (Expr, error) {
	fn := comparisonFns[e.Op]
	if e.All {
		fn = negatedComparisons[fn]
	}
	if items, isRow := rowItems(e.X); isRow {
		if fn != FnEq {
			return nil, kindErrorf(ErrUnsupported, e.Pos, "a row value compares with a subquery's rows only by = ANY (IN) or <> ALL (NOT IN)")
		}
		return b.bindRowInSubquery(&sql.InSubqueryExpr{X: e.X, Query: e.Query, Not: e.All, Pos: e.Pos}, items, s)
	}
	x, plan, err := b.bindComparedSubquery(e.X, e.Query, e.Pos, s)
	if err != nil {
		return nil, err
	}
	sq := &Subquery{Kind: SubqueryAny, Plan: plan, X: x, Op: fn, T: TypeBoolean}
	var quantified Expr = sq
	switch {
	case fn == FnEq:
		sq.Kind, sq.Op = SubqueryIn, ""
	case !HasOuterRef(plan, 1):
		quantified = ExpandAny(sq)
	}
	return negateIf(e.All, quantified), nil
}

// ExpandQuantified expands the quantified comparisons of e (ExpandAny):
// where decorrelation could not make one a join, or in the executor,
// which evaluates scalar subqueries.
func ExpandQuantified(e Expr) Expr {
	return Rewrite(e, func(x Expr) Expr {
		if sq, ok := x.(*Subquery); ok && sq.Kind == SubqueryAny {
			return ExpandAny(sq)
		}
		return x
	})
}

// ExpandAny writes sq, a SubqueryAny, as a scalar subquery: the
// subquery's smallest and largest values and its counts of rows and of
// non-NULL values, as one struct, and the comparison of X with the value
// that decides it:
//
//	CASE WHEN rows = 0 THEN FALSE
//	     WHEN values < rows THEN cmp OR NULL
//	     ELSE cmp END
//
// where cmp is X < max (for < and <=), X > min (for > and >=), or
// X <> min OR X <> max (for <>). X op y holds for some y exactly when cmp
// is TRUE; cmp is NULL when X is NULL or every y is NULL, and a NULL y
// makes a FALSE into NULL. The struct is one subquery, so it runs once.
func ExpandAny(sq *Subquery) Expr {
	col := sq.Plan.Schema()[0]
	y := &ColumnRef{Name: col.Name, T: col.T}
	agg := &Aggregate{
		Input: sq.Plan,
		Aggs: []*AggCall{
			{Fn: AggMin, Arg: y, T: col.T},
			{Fn: AggMax, Arg: y, T: col.T},
			{Fn: AggCount, T: TypeBigint},
			{Fn: AggCount, Arg: y, T: TypeBigint},
		},
		Names: []string{"lo", "hi", "rows", "values"},
	}
	var fields []Expr
	for i, c := range agg.Schema() {
		fields = append(fields, stringLit(c.Name), &ColumnRef{Index: i, Name: c.Name, T: c.T})
	}
	summary, _ := makeStruct(&funcCall{name: FnMakeStruct}, fields)
	scalar := &Subquery{Kind: SubqueryScalar, T: summary.Type(),
		Plan: &Project{Input: agg, Exprs: []Expr{summary}, Names: []string{"summary"}}}
	field := func(i int) Expr {
		c := agg.Schema()[i]
		return &Call{Fn: FnGetField, Args: []Expr{scalar, stringLit(c.Name)}, T: c.T}
	}
	compare := func(fn string, y Expr) Expr {
		return &Call{Fn: fn, Args: []Expr{sq.X, y}, T: TypeBoolean}
	}
	or := func(a, b Expr) Expr { return &Call{Fn: FnOr, Args: []Expr{a, b}, T: TypeBoolean} }
	var cmp Expr
	switch sq.Op {
	case FnLt, FnLe:
		cmp = compare(sq.Op, field(1))
	case FnGt, FnGe:
		cmp = compare(sq.Op, field(0))
	default: // FnNe
		cmp = or(compare(FnNe, field(0)), compare(FnNe, field(1)))
	}
	rows, values := field(2), field(3)
	zero := &Literal{Value: int64(0), T: TypeBigint}
	return &Case{
		Whens: []CaseWhen{
			{Cond: &Call{Fn: FnEq, Args: []Expr{rows, zero}, T: TypeBoolean}, Result: &Literal{Value: false, T: TypeBoolean}},
			{Cond: &Call{Fn: FnLt, Args: []Expr{values, rows}, T: TypeBoolean}, Result: or(cmp, &Literal{T: TypeBoolean})},
		},
		Else: cmp,
		T:    TypeBoolean,
	}
}
