package optimizer

import "github.com/lakesql/lakesql/planner"

// pushDownFilters moves filters toward the scans: through projections (by
// substituting the projected expressions) and into the scan itself, where
// Scan.Filter lets the scan skip manifests, files and row groups. The filter
// node stays above the scan: pruning is a superset test, never the filter.
func pushDownFilters(p planner.Plan) planner.Plan {
	switch n := p.(type) {
	case *planner.Filter:
		return pushFilter(pushDownFilters(n.Input), n.Cond)
	}
	return withChildren(p, pushDownFilters)
}

// pushFilter places cond over input as deep as it can go.
func pushFilter(input planner.Plan, cond planner.Expr) planner.Plan {
	switch in := input.(type) {
	case *planner.Filter:
		return pushFilter(in.Input, andAll([]planner.Expr{in.Cond, cond}))
	case *planner.Project:
		inner := substitute(cond, in.Exprs)
		return &planner.Project{Input: pushFilter(in.Input, inner), Exprs: in.Exprs, Names: in.Names}
	case *planner.Scan:
		scan := *in
		if scan.Filter == nil {
			scan.Filter = cond
		} else {
			scan.Filter = andAll([]planner.Expr{scan.Filter, cond})
		}
		return &planner.Filter{Input: &scan, Cond: cond}
	}
	return &planner.Filter{Input: input, Cond: cond}
}

// substitute replaces references to a projection's outputs by the projected
// expressions, so a condition over a projection applies below it.
func substitute(e planner.Expr, exprs []planner.Expr) planner.Expr {
	return planner.Rewrite(e, func(x planner.Expr) planner.Expr {
		if ref, ok := x.(*planner.ColumnRef); ok {
			return exprs[ref.Index]
		}
		return x
	})
}
