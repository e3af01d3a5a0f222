package optimizer

import (
	"slices"

	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/sql"
)

// correlateByEqualities rewrites a scalar subquery whose aggregate reads
// rows by correlated conditions other than equalities, as in
//
//	price > (SELECT avg(price) FROM t f WHERE f.category = e.category AND f.event_time < e.event_time)
//
// into one correlated by equalities only, which scalarJoinFor then turns
// into a join. This is DuckDB's "delim join": the distinct values D of the
// outer columns the conditions read are joined with the aggregate's input
// on the conditions (over D's columns instead of the outer row), and the
// subquery keeps just D's columns = the outer columns:
//
//	(SELECT avg(f.price) FROM t f JOIN (SELECT DISTINCT category, event_time FROM outer) d
//	   ON f.category = d.category AND f.event_time < d.event_time
//	 WHERE d.category = e.category AND d.event_time = e.event_time)
//
// Grouped by D's columns, that is one aggregate per distinct outer row,
// each over the rows its conditions pick (per group of its own GROUP BY,
// where it has one, which a scalar subquery has not). It is only done where it cannot
// change an answer:
//
//   - every correlated condition is a comparison that is not TRUE when an
//     outer column it reads is NULL, so that an outer row with a NULL
//     there, which the equalities cannot match, would have found no rows;
//   - the outer input gives the same rows each time it runs (no LIMIT,
//     ordering ties, window numbering or random values), since D reads it
//     a second time.
//
// It returns nil when sq is not such a subquery.
func correlateByEqualities(input planner.Plan, sq *planner.Subquery) *planner.Subquery {
	plan := correlatePlanByEqualities(input, sq.Plan)
	if plan == nil {
		return nil
	}
	out := *sq
	out.Plan = plan
	return &out
}

// correlatePlanByEqualities rewrites plan, correlated with input's rows by
// conditions under its aggregate, as correlateByEqualities describes; a
// LATERAL subquery's plan may group (GROUP BY k: its groups for each outer
// row). It returns nil when plan is not such a plan.
func correlatePlanByEqualities(input, plan planner.Plan) planner.Plan {
	agg := aggregateBelowProjections(plan)
	if agg == nil || !repeatable(input) {
		return nil
	}
	u := &pullUp{}
	in, preds, ok := u.pull(agg.Input)
	if !ok || len(preds) == 0 || hasAnyOuterRef(in) || slices.ContainsFunc(preds, func(c planner.Expr) bool { return !rejectsNullOuter(c) }) {
		return nil
	}
	// D: the distinct outer columns the conditions read, in column order.
	var outerCols []int
	for _, p := range preds {
		planner.Walk(p, func(x planner.Expr) {
			if o, ok := x.(*planner.OuterRef); ok && o.Depth == 1 && !slices.Contains(outerCols, o.Index) {
				outerCols = append(outerCols, o.Index)
			}
		})
	}
	slices.Sort(outerCols)
	cols := input.Schema()
	keys := &planner.Project{Input: input}
	for _, i := range outerCols {
		keys.Exprs = append(keys.Exprs, &planner.ColumnRef{Index: i, Name: cols[i].Name, T: cols[i].T})
		keys.Names = append(keys.Names, cols[i].Name)
	}
	distinct := &planner.Distinct{Input: keys}
	// The conditions over in's columns, then D's.
	width := len(in.Schema())
	conds := make([]planner.Expr, len(preds))
	for i, p := range preds {
		conds[i] = planner.Rewrite(p, func(x planner.Expr) planner.Expr {
			if o, ok := x.(*planner.OuterRef); ok && o.Depth == 1 {
				return &planner.ColumnRef{Index: width + slices.Index(outerCols, o.Index), Name: o.Name, T: o.T}
			}
			return x
		})
	}
	joined := planner.NewJoin(sql.JoinInner, in, distinct, planner.Conjunction(conds))
	equalities := make([]planner.Expr, len(outerCols))
	for k, i := range outerCols {
		equalities[k] = &planner.Call{Fn: planner.FnEq, T: planner.TypeBoolean, Args: []planner.Expr{
			&planner.ColumnRef{Index: width + k, Name: cols[i].Name, T: cols[i].T},
			&planner.OuterRef{Depth: 1, Index: i, Name: cols[i].Name, T: cols[i].T},
		}}
	}
	newAgg := *agg
	newAgg.Input = &planner.Filter{Input: joined, Cond: planner.Conjunction(equalities)}
	return replaceAggregate(plan, &newAgg)
}

// aggregateBelowProjections returns the aggregate under p's projections
// and aliases, when they do not read the outer query; nil otherwise.
func aggregateBelowProjections(p planner.Plan) *planner.Aggregate {
	for {
		switch n := p.(type) {
		case *planner.Aggregate:
			for _, a := range n.Aggs {
				if slices.ContainsFunc(a.Exprs(), readsOuter) {
					return nil
				}
			}
			return n
		case *planner.Project:
			if exprsReadOuter(n.Exprs) {
				return nil
			}
			p = n.Input
		case *planner.SubqueryAlias:
			p = n.Input
		default:
			return nil
		}
	}
}

// replaceAggregate is p with the aggregate aggregateBelowProjections finds
// replaced by agg.
func replaceAggregate(p planner.Plan, agg *planner.Aggregate) planner.Plan {
	if _, ok := p.(*planner.Aggregate); ok {
		return agg
	}
	return p.WithChildren([]planner.Plan{replaceAggregate(p.Children()[0], agg)})
}

// rejectsNullOuter reports whether correlated condition c is a comparison
// whose operands are built of columns, outer columns, constants,
// arithmetic and casts only, so that a NULL outer column makes it NULL.
func rejectsNullOuter(c planner.Expr) bool {
	call, ok := c.(*planner.Call)
	if !ok {
		return false
	}
	switch call.Fn {
	case planner.FnEq, planner.FnNe, planner.FnLt, planner.FnLe, planner.FnGt, planner.FnGe:
	default:
		return false
	}
	return strictTree(call.Args[0]) && strictTree(call.Args[1])
}

// strictTree reports whether e is NULL when any column it reads is.
func strictTree(e planner.Expr) bool {
	switch e := e.(type) {
	case *planner.ColumnRef, *planner.OuterRef, *planner.Literal:
		return true
	case *planner.Cast:
		return strictTree(e.X)
	case *planner.Call:
		switch e.Fn {
		case planner.FnAdd, planner.FnSub, planner.FnMul, planner.FnDiv, planner.FnNeg:
			return !slices.ContainsFunc(e.Args, func(a planner.Expr) bool { return !strictTree(a) })
		}
	}
	return false
}

// repeatable reports whether running p twice gives the same rows: it
// has, subqueries included, no LIMIT or top-N (which may pick among ties
// or parallel scans' rows differently), no window (row_number() OVER ()
// numbers rows in the order they come), no aggregate whose value depends
// on the order parallel scans deliver rows in (a floating-point sum,
// string_agg, any_value), and no volatile function (rand(), a sample).
func repeatable(p planner.Plan) bool {
	switch n := p.(type) {
	case *planner.Limit, *planner.TopN, *planner.Window:
		return false
	case *planner.Aggregate:
		for _, a := range n.Aggs {
			if a.ValueDependsOnRowOrder() || a.RoundsByRowOrder() {
				return false
			}
		}
	}
	ok := true
	for _, root := range planner.NodeExprs(p) {
		planner.Walk(root, func(x planner.Expr) {
			switch x := x.(type) {
			case *planner.Call:
				ok = ok && !planner.IsVolatile(x)
			case *planner.Subquery:
				ok = ok && repeatable(x.Plan)
			}
		})
	}
	return ok && !slices.ContainsFunc(p.Children(), func(c planner.Plan) bool { return !repeatable(c) })
}
