package optimizer

import (
	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/sql"
)

// pushDownFilters moves filters toward the scans: through projections (by
// substituting the projected expressions) and into the scan itself, where
// Scan.Filter lets the scan skip manifests, files and row groups. The filter
// node stays above the scan: pruning is a superset test, never the filter.
func pushDownFilters(p planner.Plan) planner.Plan {
	switch n := p.(type) {
	case *planner.Filter:
		return pushFilter(pushDownFilters(n.Input), n.Cond)
	case *planner.Join:
		p = pushJoinCondition(n)
	}
	return withChildren(p, pushDownFilters)
}

// pushJoinCondition moves the conjuncts of a join's ON condition that read
// only the side whose rows it filters into that side: the NULL-padded side
// of an outer join (TPC-H Q13's o_comment NOT LIKE … of a LEFT JOIN), the
// subquery side of a semi or anti join, either side of an inner join. A
// conjunct on the preserved side stays: a row failing it is still output,
// padded.
func pushJoinCondition(j *planner.Join) planner.Plan {
	if j.Cond == nil {
		return j
	}
	nl := len(j.Left.Schema())
	leftOK := j.Type == sql.JoinInner || j.Type == sql.JoinRight
	rightOK := j.Type == sql.JoinInner || j.Type == sql.JoinLeft || j.LeftOnly()
	left, right, rest := splitBySide(j.Cond, nl, leftOK, rightOK)
	out := *j
	if len(left) > 0 {
		out.Left = &planner.Filter{Input: j.Left, Cond: planner.Conjunction(left)}
	}
	if len(right) > 0 {
		out.Right = &planner.Filter{Input: j.Right, Cond: planner.Conjunction(right)}
	}
	out.Cond = planner.Conjunction(rest)
	return &out
}

// pushFilter places cond over input as deep as it can go.
func pushFilter(input planner.Plan, cond planner.Expr) planner.Plan {
	switch in := input.(type) {
	case *planner.Filter:
		return pushFilter(in.Input, planner.Conjunction([]planner.Expr{in.Cond, cond}))
	case *planner.Project:
		// A conjunct reading a volatile output (rand()) stays above: below,
		// it would see another draw than the row it keeps.
		var below, rest []planner.Expr
		for _, c := range planner.Conjuncts(cond) {
			if inner := substitute(c, in.Exprs); planner.IsVolatile(inner) {
				rest = append(rest, c)
			} else {
				below = append(below, inner)
			}
		}
		var out planner.Plan = in
		if len(below) > 0 {
			out = &planner.Project{Input: pushFilter(in.Input, planner.Conjunction(below)), Exprs: in.Exprs, Names: in.Names}
		}
		if len(rest) > 0 {
			out = &planner.Filter{Input: out, Cond: planner.Conjunction(rest)}
		}
		return out
	case *planner.SubqueryAlias:
		// Renaming keeps column positions, so the condition applies as is.
		out := *in
		out.Input = pushFilter(in.Input, cond)
		return &out
	case *planner.Sort:
		out := *in
		out.Input = pushFilter(in.Input, cond)
		return &out
	case *planner.Join:
		return pushIntoJoin(in, cond)
	case *planner.Aggregate:
		return pushIntoAggregate(in, cond)
	case *planner.Scan:
		scan := *in
		if scan.Filter == nil {
			scan.Filter = cond
		} else {
			scan.Filter = planner.Conjunction([]planner.Expr{scan.Filter, cond})
		}
		return &planner.Filter{Input: &scan, Cond: cond}
	case *planner.FileScan:
		return &planner.Filter{Input: in.WithFilter(cond), Cond: cond}
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

// pushIntoJoin moves the conjuncts that read only one side of a join below
// it, where that does not change the result: either side of an inner or
// cross join, the preserved side of an outer join (a condition on the
// NULL-padded side must see the padding, so it stays above), the left side
// of a semi or anti join, which outputs left rows only. cond reads the
// joined layout: this rule runs before pruneColumns sets Join.Keep.
func pushIntoJoin(j *planner.Join, cond planner.Expr) planner.Plan {
	nl := len(j.Left.Schema())
	leftOK := j.Type == sql.JoinInner || j.Type == sql.JoinCross || j.Type == sql.JoinLeft || j.LeftOnly()
	rightOK := j.Type == sql.JoinInner || j.Type == sql.JoinCross || j.Type == sql.JoinRight
	left, right, rest := splitBySide(cond, nl, leftOK, rightOK)
	out := *j
	if len(left) > 0 {
		out.Left = pushFilter(j.Left, planner.Conjunction(left))
	}
	if len(right) > 0 {
		out.Right = pushFilter(j.Right, planner.Conjunction(right))
	}
	if len(rest) == 0 {
		return &out
	}
	return &planner.Filter{Input: &out, Cond: planner.Conjunction(rest)}
}

// pushIntoAggregate moves the conjuncts that read only grouping columns
// below a GROUP BY, where they keep or drop whole groups exactly as they
// would above it, so a filter on a grouped view (WHERE day = …) prunes. A
// conjunct reading no column stays above: below a global aggregate it would
// turn "no row" into a row of count 0.
func pushIntoAggregate(a *planner.Aggregate, cond planner.Expr) planner.Plan {
	var below, rest []planner.Expr
	for _, c := range planner.Conjuncts(cond) {
		if lo, hi := columnRange(c); lo >= 0 && hi < len(a.GroupBy) && !planner.IsVolatile(substitute(c, a.GroupBy)) {
			below = append(below, substitute(c, a.GroupBy))
		} else {
			rest = append(rest, c)
		}
	}
	if len(below) == 0 {
		return &planner.Filter{Input: a, Cond: cond}
	}
	out := *a
	out.Input = pushFilter(a.Input, planner.Conjunction(below))
	if len(rest) == 0 {
		return &out
	}
	return &planner.Filter{Input: &out, Cond: planner.Conjunction(rest)}
}

// splitBySide sorts the conjuncts of cond, over a join's layout whose left
// side has nl columns, into those that read only the left side (if leftOK),
// only the right side (if rightOK; shifted to the right side's columns),
// and the rest.
func splitBySide(cond planner.Expr, nl int, leftOK, rightOK bool) (left, right, rest []planner.Expr) {
	for _, c := range planner.Conjuncts(cond) {
		lo, hi := columnRange(c)
		switch {
		case leftOK && hi < nl && lo >= 0:
			left = append(left, c)
		case rightOK && lo >= nl:
			right = append(right, shiftColumns(c, -nl))
		default:
			rest = append(rest, c)
		}
	}
	return left, right, rest
}

// columnRange is the lowest and highest column index e reads; (-1, -1) for a
// constant, which is evaluated wherever it is placed.
func columnRange(e planner.Expr) (lo, hi int) {
	lo, hi = -1, -1
	planner.Walk(e, func(x planner.Expr) {
		if ref, ok := x.(*planner.ColumnRef); ok {
			if lo < 0 || ref.Index < lo {
				lo = ref.Index
			}
			hi = max(hi, ref.Index)
		}
	})
	return lo, hi
}

// shiftColumns moves every column reference by delta.
func shiftColumns(e planner.Expr, delta int) planner.Expr {
	return planner.Rewrite(e, func(x planner.Expr) planner.Expr {
		if ref, ok := x.(*planner.ColumnRef); ok {
			return &planner.ColumnRef{Index: ref.Index + delta, Name: ref.Name, T: ref.T}
		}
		return x
	})
}
