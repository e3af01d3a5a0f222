package exec

import (
	"context"
	"fmt"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/arrow/scalar"

	"github.com/lakesql/lakesql/exec/expr"
	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/storage"
)

// resolveSubqueries replaces the uncorrelated subqueries of a scan's filter
// (which only prunes: the Filter above it keeps the subqueries) by the values
// they return, running them before the scan is planned, so that WHERE
// event_date = (SELECT max(event_date) FROM t) prunes like WHERE event_date =
// DATE '…'. An IN subquery becomes x IN (its values), or their range when
// there are many. It returns the filter and, per subquery, the values it
// supplied, for EXPLAIN. A subquery that fails is left in place (it prunes
// nothing): the filter above reports the error if a row reaches it. The
// result is shared with that filter, so each subquery runs once.
func resolveSubqueries(ctx context.Context, filter planner.Expr, env *Env) (planner.Expr, []string) {
	if filter == nil || env.NoPruning {
		return filter, nil
	}
	// A subquery counts as positive when every occurrence of its plan is.
	positive, all := map[planner.Plan]int{}, map[planner.Plan]int{}
	countPositive(filter, positive)
	planner.Walk(filter, func(x planner.Expr) {
		if sq, ok := x.(*planner.Subquery); ok {
			all[sq.Plan]++
		}
	})
	var supplied []string
	supply := func(x, value planner.Expr) planner.Expr {
		// A subquery read in several places is listed once.
		if line := fmt.Sprintf("%s supplied %s", x, value); !slices.Contains(supplied, line) {
			supplied = append(supplied, line)
		}
		return value
	}
	out := planner.Rewrite(filter, func(x planner.Expr) planner.Expr {
		sq, ok := x.(*planner.Subquery)
		if !ok {
			return x
		}
		e := env.subquery(sq)
		e.forPruning.Store(true)
		if e.result(ctx) != nil || e.summary == nil {
			return x
		}
		var value planner.Expr
		switch sq.Kind {
		case planner.SubqueryScalar:
			value = &planner.Literal{Value: e.summary.min, T: sq.T}
			if e.summary.unusable {
				// A struct (a quantified comparison's summary,
				// planner.ExpandAny) has no literal, but its fields do.
				if value, ok = structConstant(e.value); !ok {
					return x
				}
			}
		case planner.SubqueryExists:
			value = &planner.Literal{Value: e.exists, T: planner.TypeBoolean}
		case planner.SubqueryIn:
			// A predicate only implied by the IN (a range in place of
			// many values; NULLs dropped, which make a non-match NULL
			// rather than FALSE) may stand only where a row failing it
			// fails the filter: not under NOT, IS NULL or coalesce.
			if !e.summary.exact() && positive[sq.Plan] != all[sq.Plan] {
				return x
			}
			if value, ok = e.summary.predicate(sq.X); !ok {
				return x
			}
		}
		return supply(sq, value)
	})
	if supplied != nil && env.SimplifyFilter != nil {
		out = env.SimplifyFilter(out)
	}
	return out, supplied
}

// structConstant is v, a struct scalar subquery's value, as a constant
// expression (expr.ConstantExpr).
func structConstant(v scalar.Scalar) (planner.Expr, bool) {
	if _, ok := v.(*scalar.Struct); !ok {
		return nil, false
	}
	arr, err := scalar.MakeArrayFromScalar(v, 1, memory.DefaultAllocator)
	if err != nil {
		return nil, false
	}
	defer arr.Release()
	return expr.ConstantExpr(arr, 0)
}

// countPositive counts the subqueries reached from e through AND and OR
// only, where a predicate implied by the subquery's may replace it, by plan
// (planner.Rewrite may copy the Subquery node, never its plan).
func countPositive(e planner.Expr, positive map[planner.Plan]int) {
	switch x := e.(type) {
	case *planner.Subquery:
		positive[x.Plan]++
	case *planner.Call:
		if x.Fn == planner.FnAnd || x.Fn == planner.FnOr {
			for _, a := range x.Args {
				countPositive(a, positive)
			}
		}
	}
}

// ResolvedFilter is a scan's filter with its uncorrelated subqueries
// replaced by the values they return (running them), as the scan prunes
// with it, and per subquery a line saying what it supplied, for EXPLAIN.
func ResolvedFilter(ctx context.Context, p *planner.Scan, env *Env) (planner.Expr, []string) {
	return resolveSubqueries(ctx, p.Filter, env)
}

// subqueryKeys returns, for each conjunct `column IN (subquery)` of a scan's
// filter whose integer-backed values are too many for the pruning filter
// (which gets their range), the set of all of them, for storage to test
// every row against before it decodes the other columns — what a join's
// build keys do for its probe scan (dynamic_pruning.go). Col is the
// column's field id. A row failing the set fails the conjunct (FALSE or
// NULL), so the Filter above would drop it anyway.
func subqueryKeys(ctx context.Context, p *planner.Scan, env *Env) []storage.ColumnPredicate {
	if env.NoPruning {
		return nil
	}
	var out []storage.ColumnPredicate
	for _, c := range planner.Conjuncts(p.Filter) {
		sq, ok := c.(*planner.Subquery)
		if !ok || sq.Kind != planner.SubqueryIn {
			continue
		}
		ref, ok := sq.X.(*planner.ColumnRef)
		if !ok || !arrow.TypeEqual(ref.T, p.Columns[ref.Index].T) {
			continue
		}
		e := env.subquery(sq)
		e.forPruning.Store(true)
		if e.result(ctx) != nil || e.summary == nil || len(e.intKeys) == 0 ||
			!e.summary.overflow && len(e.summary.values) <= maxPruningValues {
			continue
		}
		out = append(out, storage.NewInPredicate(p.Columns[ref.Index].FieldID, e.intKeys))
	}
	return out
}
