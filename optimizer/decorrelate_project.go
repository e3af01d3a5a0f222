package optimizer

import (
	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/sql"
)

// decorrelateProject turns the correlated subqueries of a select list into
// left joins, as decorrelateFilter does for WHERE: an aggregate scalar
// subquery becomes its aggregate grouped by the correlated columns, a
// scalar subquery without one (a lookup) its rows grouped so, checked to
// be one per key, [NOT] EXISTS a test of whether the row found a match
// among the subquery's distinct correlated keys (a mark join), and [NOT]
// IN two such tests (decorrelate_project_in.go). The joins add columns
// after the input's, so the projection reads its own columns unchanged.
func decorrelateProject(p *planner.Project) planner.Plan {
	input := p.Input
	exprs := append([]planner.Expr(nil), p.Exprs...)
	changed := false
	for i, e := range exprs {
		e = planner.ExpandQuantified(e)
		for {
			joined, rewritten, ok := scalarJoinFor(input, e, false)
			if !ok {
				joined, rewritten, ok = lookupJoinFor(input, e)
			}
			if !ok {
				joined, rewritten, ok = existsJoinFor(input, e)
			}
			if !ok {
				joined, rewritten, ok = inJoinFor(input, e)
			}
			if !ok {
				break
			}
			input, e, changed = joined, rewritten, true
		}
		exprs[i] = e
	}
	if !changed {
		return p
	}
	out := *p
	out.Input, out.Exprs = input, exprs
	return &out
}

// existsJoinFor finds a correlated EXISTS in e whose correlated conditions
// are equalities, and left-joins input with the subquery's distinct
// correlated keys; it returns the join and e with EXISTS read as "a key
// matched". A key that matched equals the outer value, so it is not NULL.
func existsJoinFor(input planner.Plan, e planner.Expr) (planner.Plan, planner.Expr, bool) {
	sq := correlatedSubquery(e, planner.SubqueryExists)
	if sq == nil {
		return nil, nil, false
	}
	sub, inner, outer, ok := pulledEqualities(belowProjections(sq.Plan))
	if !ok {
		return nil, nil, false
	}
	keys := &planner.Aggregate{Input: sub, GroupBy: inner, Names: keyNames(inner)}
	nl := len(input.Schema())
	join := planner.NewJoin(sql.JoinLeft, input, keys, keyConditions(keys.Names, inner, outer, nl))
	matched := &planner.Call{Fn: planner.FnIsNotNull, T: planner.TypeBoolean,
		Args: []planner.Expr{&planner.ColumnRef{Index: nl, Name: keys.Names[0], T: inner[0].Type()}}}
	return join, replaced(e, sq, matched), true
}

// lookupJoinFor finds in e a correlated scalar subquery that aggregates
// nothing, correlated by equalities, as (SELECT b.name FROM emp b WHERE
// b.id = e.boss), and left-joins input with its rows grouped by the
// correlated keys: any_value of its column and a count, which must not
// pass 1 — more rows for an outer row is the error it is for an
// uncorrelated scalar subquery, raised only if such a row is read.
func lookupJoinFor(input planner.Plan, e planner.Expr) (planner.Plan, planner.Expr, bool) {
	sq := correlatedSubquery(e, planner.SubqueryScalar)
	if sq == nil {
		return nil, nil, false
	}
	sub, inner, outer, ok := pulledEqualities(sq.Plan)
	if !ok {
		return nil, nil, false
	}
	col := sub.Schema()[0]
	rows := &planner.Aggregate{Input: sub, GroupBy: inner, Aggs: []*planner.AggCall{
		{Fn: planner.AggAnyValue, Arg: &planner.ColumnRef{Index: 0, Name: col.Name, T: col.T}, T: col.T},
		{Fn: planner.AggCount, T: planner.TypeBigint}},
		Names: keyNames(inner, col.Name, "rows")}
	nl, g := len(input.Schema()), len(inner)
	join := planner.NewJoin(sql.JoinLeft, input, rows, keyConditions(rows.Names, inner, outer, nl))
	count := &planner.ColumnRef{Index: nl + g + 1, Name: "rows", T: planner.TypeBigint}
	tooMany := &planner.Call{Fn: planner.FnGt, T: planner.TypeBoolean, Args: []planner.Expr{count, &planner.Literal{Value: int64(1), T: planner.TypeBigint}}}
	raise := &planner.Cast{T: sq.T, X: &planner.Call{Fn: planner.FnRaiseError, T: planner.TypeNull,
		Args: []planner.Expr{&planner.Literal{Value: "scalar subquery returned more than one row", T: planner.TypeVarchar}}}}
	value := &planner.Case{T: sq.T, Else: &planner.ColumnRef{Index: nl + g, Name: col.Name, T: col.T},
		Whens: []planner.CaseWhen{{Cond: tooMany, Result: raise}}}
	return join, replaced(e, sq, value), true
}

// correlatedSubquery returns the first subquery of kind in e that reads
// the query around it, or nil.
func correlatedSubquery(e planner.Expr, kind planner.SubqueryKind) *planner.Subquery {
	var sq *planner.Subquery
	planner.Walk(e, func(x planner.Expr) {
		if s, ok := x.(*planner.Subquery); ok && sq == nil && s.Kind == kind && planner.HasOuterRef(s.Plan, 1) {
			sq = s
		}
	})
	return sq
}

// keyConditions is the condition of a join of the outer query (nl
// columns) with a plan whose first columns, named names, are the inner
// sides of correlated equalities: each equals its outer side.
func keyConditions(names []string, inner, outer []planner.Expr, nl int) planner.Expr {
	conds := make([]planner.Expr, len(inner))
	for i := range inner {
		key := &planner.ColumnRef{Index: i, Name: names[i], T: inner[i].Type()}
		conds[i] = joinCondition(&planner.Call{Fn: planner.FnEq, T: planner.TypeBoolean, Args: []planner.Expr{key, outer[i]}}, nl)
	}
	return planner.Conjunction(conds)
}

// replaced is e with the subquery sq replaced by value.
// Rewrite rebuilds a subquery with an operand (IN, ANY) before fn sees it,
// so such a one is recognised by what it is made of.
func replaced(e planner.Expr, sq *planner.Subquery, value planner.Expr) planner.Expr {
	return planner.Rewrite(e, func(x planner.Expr) planner.Expr {
		if x == planner.Expr(sq) {
			return value
		}
		if s, ok := x.(*planner.Subquery); ok && sq.X != nil && s.Plan == sq.Plan && s.Kind == sq.Kind &&
			s.Op == sq.Op && s.X.String() == sq.X.String() {
			return value
		}
		return x
	})
}

// keyNames names the columns of an aggregate grouped by the correlated keys
// inner: the keys by their text, then the names of its other columns.
func keyNames(inner []planner.Expr, others ...string) []string {
	names := make([]string, 0, len(inner)+len(others))
	for _, x := range inner {
		names = append(names, x.String())
	}
	return append(names, others...)
}

// pulledEqualities pulls a correlated subquery's conditions on the outer
// row up out of plan (pullUp) and splits them into the subquery's and the
// outer side of equalities; false unless they are all equalities, at least
// one, over a subquery that neither groups nor refers to the outer row
// elsewhere.
func pulledEqualities(plan planner.Plan) (sub planner.Plan, inner, outer []planner.Expr, ok bool) {
	u := &pullUp{}
	sub, preds, ok := u.pull(plan)
	if !ok || u.grouped || len(preds) == 0 || hasAnyOuterRef(sub) {
		return nil, nil, nil, false
	}
	inner, outer, ok = splitEqualities(preds)
	return sub, inner, outer, ok
}

// splitEqualities splits pulled-up correlated conjuncts, each inner = outer,
// into their inner sides (over the subquery's columns) and outer sides.
func splitEqualities(preds []planner.Expr) (inner, outer []planner.Expr, ok bool) {
	for _, p := range preds {
		call, isCall := p.(*planner.Call)
		if !isCall || call.Fn != planner.FnEq {
			return nil, nil, false
		}
		a, b := call.Args[0], call.Args[1]
		if readsOuter(a) {
			a, b = b, a
		}
		if readsOuter(a) || readsColumns(b) {
			return nil, nil, false
		}
		inner, outer = append(inner, a), append(outer, b)
	}
	return inner, outer, true
}

// nullOverNoRows reports whether the scalar subquery plan p, an aggregate
// without GROUP BY under projections, surely gives NULL over no rows: its
// column is an aggregate other than a count, or strict arithmetic of one.
func nullOverNoRows(p planner.Plan) bool {
	col := 0
	for {
		switch n := p.(type) {
		case *planner.Project:
			ref, ok := strictOperand(n.Exprs[col])
			if !ok {
				return false
			}
			col, p = ref, n.Input
		case *planner.SubqueryAlias:
			p = n.Input
		case *planner.Aggregate:
			return col >= len(n.GroupBy)
		default:
			return false
		}
	}
}

// strictOperand returns the input column that e reads when e is NULL
// whenever that column is: the column itself, or arithmetic and casts of it
// with constants.
func strictOperand(e planner.Expr) (int, bool) {
	switch e := e.(type) {
	case *planner.ColumnRef:
		return e.Index, true
	case *planner.Cast:
		return strictOperand(e.X)
	case *planner.Call:
		switch e.Fn {
		case planner.FnAdd, planner.FnSub, planner.FnMul, planner.FnDiv, planner.FnNeg:
		default:
			return 0, false
		}
		col := -1
		for _, a := range e.Args {
			if _, isLit := a.(*planner.Literal); isLit {
				continue
			}
			c, ok := strictOperand(a)
			if !ok || col >= 0 && c != col {
				return 0, false
			}
			col = c
		}
		return col, col >= 0
	}
	return 0, false
}

// overNoRows returns the value of scalar subquery sq over no rows, as an
// uncorrelated subquery (overNoRowsPlan).
func overNoRows(sq *planner.Subquery) (planner.Expr, bool) {
	plan, ok := overNoRowsPlan(sq.Plan)
	if !ok {
		return nil, false
	}
	return &planner.Subquery{Kind: planner.SubqueryScalar, Plan: plan, T: sq.T}, true
}

// overNoRowsPlan is p, an aggregate without GROUP BY under projections,
// filters and aliases, with the aggregate's input emptied, which takes the
// correlated filters below it away too: its row is p's over no rows. When
// the aggregate's input is itself such an aggregate (min of a count, as a
// quantified comparison's summary reads, planner.ExpandAny), the inner one
// is emptied instead: over no rows it still has its row, which the outer
// one aggregates.
func overNoRowsPlan(p planner.Plan) (planner.Plan, bool) {
	var empty func(planner.Plan) (planner.Plan, bool)
	empty = func(p planner.Plan) (planner.Plan, bool) {
		switch n := p.(type) {
		case *planner.Aggregate:
			if len(n.GroupBy) > 0 {
				return nil, false
			}
			if child, ok := empty(n.Input); ok {
				return n.WithChildren([]planner.Plan{child}), true
			}
			out := *n
			out.Input = &planner.Values{Columns: n.Input.Schema()}
			return &out, true
		case *planner.Project, *planner.Filter, *planner.SubqueryAlias:
			child, ok := empty(p.Children()[0])
			if !ok {
				return nil, false
			}
			return p.WithChildren([]planner.Plan{child}), true
		}
		return nil, false
	}
	plan, ok := empty(p)
	if !ok || hasAnyOuterRef(plan) {
		return nil, false
	}
	return plan, true
}

// unmatchedOr is CASE WHEN marker IS NULL THEN unmatched ELSE matched END:
// over a left join with a plan withMarker made, unmatched for the rows
// that found no match.
func unmatchedOr(marker, unmatched, matched planner.Expr) planner.Expr {
	return &planner.Case{T: matched.Type(), Else: matched, Whens: []planner.CaseWhen{{
		Cond: &planner.Call{Fn: planner.FnIsNull, T: planner.TypeBoolean, Args: []planner.Expr{marker}}, Result: unmatched}}}
}

// withMarker adds to p a last column that is TRUE on every row, so that a
// left join with p tells the rows that found no match by its NULL.
func withMarker(p planner.Plan) planner.Plan {
	cols := p.Schema()
	proj := &planner.Project{Input: p}
	for i, c := range cols {
		proj.Exprs = append(proj.Exprs, &planner.ColumnRef{Index: i, Name: c.Name, T: c.T})
		proj.Names = append(proj.Names, c.Name)
	}
	proj.Exprs = append(proj.Exprs, &planner.Literal{Value: true, T: planner.TypeBoolean})
	proj.Names = append(proj.Names, "matched")
	return proj
}
