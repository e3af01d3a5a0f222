package optimizer

import (
	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/sql"
)

// inJoinFor finds in e a correlated x IN (subquery) over one column whose
// correlated conditions are equalities, as in a select list's
// o_custkey IN (SELECT c_custkey FROM customer c WHERE c.c_nationkey =
// n.n_nationkey), and answers it with two left joins, each matching an
// outer row at most once:
//
//   - with the subquery's distinct (correlated keys, value) pairs, on the
//     keys and value = x: a match means TRUE;
//   - with the subquery's rows counted by correlated keys, in all and
//     non-NULL: without a match, no rows means FALSE (even for a NULL x),
//     and a NULL x or a NULL value among the rows means NULL, as SQL's IN
//     is; else FALSE.
//
// e is returned reading that from the joins' columns; NOT IN is NOT of it.
// Row values and other comparisons than = are left to the caller (an
// ANY with <, >, … is expanded into min and max first).
func inJoinFor(input planner.Plan, e planner.Expr) (planner.Plan, planner.Expr, bool) {
	sq := correlatedSubquery(e, planner.SubqueryIn)
	if sq == nil || len(sq.Plan.Schema()) != 1 {
		return nil, nil, false
	}
	sub, inner, outer, ok := pulledEqualities(sq.Plan)
	if !ok {
		return nil, nil, false
	}
	col := sub.Schema()[0]
	value := &planner.ColumnRef{Index: 0, Name: col.Name, T: col.T}
	g := len(inner)

	pairs := &planner.Aggregate{Input: sub, GroupBy: append(append([]planner.Expr(nil), inner...), value), Names: keyNames(inner, col.Name)}
	nl := len(input.Schema())
	// x reads the outer row, the input's columns, as they are in the join.
	equal := &planner.Call{Fn: planner.FnEq, T: planner.TypeBoolean,
		Args: []planner.Expr{sq.X, &planner.ColumnRef{Index: nl + g, Name: col.Name, T: col.T}}}
	join := planner.NewJoin(sql.JoinLeft, input, pairs,
		planner.Conjunction([]planner.Expr{keyConditions(pairs.Names, inner, outer, nl), equal}))

	counts := &planner.Aggregate{Input: sub, GroupBy: inner, Aggs: []*planner.AggCall{
		{Fn: planner.AggCount, T: planner.TypeBigint},
		{Fn: planner.AggCount, Arg: value, T: planner.TypeBigint}},
		Names: keyNames(inner, "rows", "values")}
	nc := nl + g + 1
	join = planner.NewJoin(sql.JoinLeft, join, counts, keyConditions(counts.Names, inner, outer, nc))

	boolean := func(v any) planner.Expr { return &planner.Literal{Value: v, T: planner.TypeBoolean} }
	call := func(fn string, args ...planner.Expr) planner.Expr {
		return &planner.Call{Fn: fn, T: planner.TypeBoolean, Args: args}
	}
	rows := &planner.ColumnRef{Index: nc + g, Name: "rows", T: planner.TypeBigint}
	values := &planner.ColumnRef{Index: nc + g + 1, Name: "values", T: planner.TypeBigint}
	matched := call(planner.FnIsNotNull, &planner.ColumnRef{Index: nl + g, Name: col.Name, T: col.T})
	unknown := call(planner.FnOr, call(planner.FnIsNull, sq.X), call(planner.FnGt, rows, values))
	result := &planner.Case{T: planner.TypeBoolean, Else: boolean(false), Whens: []planner.CaseWhen{
		{Cond: matched, Result: boolean(true)},
		{Cond: call(planner.FnIsNull, rows), Result: boolean(false)},
		{Cond: unknown, Result: boolean(nil)},
	}}
	return join, replaced(e, sq, result), true
}
