package optimizer

import (
	"context"

	"github.com/lakesql/lakesql/planner"
)

// optimizeSubqueries optimizes the plans of the subqueries left in
// expressions (the uncorrelated ones, which the executor runs once): their
// filters, joins and file pruning deserve the same rules as the outer
// query's.
func optimizeSubqueries(ctx context.Context, env *Env, p planner.Plan) (planner.Plan, error) {
	var firstErr error
	optimize := func(sub planner.Plan) planner.Plan {
		out, err := Optimize(ctx, env, sub)
		if err != nil {
			if firstErr == nil {
				firstErr = err
			}
			return sub
		}
		return out
	}
	var walk func(planner.Plan) planner.Plan
	walk = func(n planner.Plan) planner.Plan { return rewriteSubqueryPlans(withChildren(n, walk), optimize) }
	out := walk(p)
	return out, firstErr
}

// rewriteSubqueryPlans replaces the plan of each subquery in the
// expressions of node p (filters, projections, join conditions) by fn(plan).
func rewriteSubqueryPlans(p planner.Plan, fn func(planner.Plan) planner.Plan) planner.Plan {
	// A subquery read in several places (a quantified comparison's
	// summary, planner.ExpandAny) keeps one plan, which the executor runs
	// once for all of them.
	rewritten := map[planner.Plan]planner.Plan{}
	rewrite := func(e planner.Expr) planner.Expr {
		return planner.Rewrite(e, func(x planner.Expr) planner.Expr {
			if sq, ok := x.(*planner.Subquery); ok {
				out := *sq
				if out.Plan, ok = rewritten[sq.Plan]; !ok {
					out.Plan = fn(sq.Plan)
					rewritten[sq.Plan] = out.Plan
				}
				return &out
			}
			return x
		})
	}
	switch n := p.(type) {
	case *planner.Filter:
		out := *n
		out.Cond = rewrite(n.Cond)
		return &out
	case *planner.Project:
		out := *n
		out.Exprs = make([]planner.Expr, len(n.Exprs))
		for i, e := range n.Exprs {
			out.Exprs[i] = rewrite(e)
		}
		return &out
	case *planner.Join:
		if n.Cond != nil {
			out := *n
			out.Cond = rewrite(n.Cond)
			return &out
		}
	}
	return p
}
