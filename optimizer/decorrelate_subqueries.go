package optimizer

import (
	"math"
	"slices"

	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/sql"
)

// decorrelateSubqueries turns the correlated subqueries of WHERE conjuncts,
// select lists (decorrelate_project.go) and aggregates' arguments
// (decorrelate_aggregate.go) into joins, so that no
// subquery runs once per outer row:
//
//   - EXISTS (…), x IN (…) and x op ANY (…) become a semi join, NOT
//     EXISTS (…), x NOT IN (…) and x op ALL (…) an anti join, on the
//     subquery's correlated conditions (and x = or op its column,
//     NULL-aware for NOT IN and ALL: nullAwareMatch); a quantified
//     comparison elsewhere is expanded (planner.ExpandAny) into a scalar
//     subquery, decorrelated as the next item says;
//   - a scalar subquery whose correlated conditions are equalities under an
//     aggregate, as in l_quantity < (SELECT 0.2 * avg(l_quantity) FROM
//     lineitem WHERE l_partkey = p_partkey), becomes the aggregate grouped by
//     the correlated columns, joined on them: an inner join when the
//     subquery is an operand of a comparison (a missing group gives NULL,
//     which fails the comparison as the join does), else a left join. Where
//     the subquery over no rows is not NULL (a count is 0), the rows
//     without a group take that value, computed once;
//   - a scalar subquery without an aggregate (a lookup) becomes its rows
//     grouped by the correlated columns, with a check that a group has
//     one row (decorrelate_project.go).
//
// As in DuckDB's and DataFusion's decorrelation, the correlated conjuncts
// are pulled up out of the subquery's filters through projections and
// aggregates, and become the join condition. Subqueries nested in a
// subquery are decorrelated first. What cannot be decorrelated (a
// correlated column elsewhere than in a filter, correlated conditions a
// NULL could make TRUE under an aggregate, others than equalities for a
// lookup) is left as is, and the executor reports it with its position.
func decorrelateSubqueries(p planner.Plan) planner.Plan {
	p = rewriteSubqueryPlans(withChildren(p, decorrelateSubqueries), decorrelateSubqueries)
	switch n := p.(type) {
	case *planner.Filter:
		return decorrelateFilter(n)
	case *planner.Project:
		return decorrelateProject(n)
	case *planner.Aggregate:
		return decorrelateAggregate(n)
	case *planner.Join:
		return decorrelateLateral(n)
	}
	return p
}

func decorrelateFilter(f *planner.Filter) planner.Plan {
	input := f.Input
	width := len(input.Schema())
	var rest []planner.Expr
	changed := false
	for _, c := range planner.Conjuncts(f.Cond) {
		if joined, ok := semiJoinFor(input, c); ok {
			input, changed = joined, true
			continue
		}
		c = planner.ExpandQuantified(c)
		for {
			joined, cond, ok := scalarJoinFor(input, c, true)
			if !ok {
				joined, cond, ok = lookupJoinFor(input, c)
			}
			if !ok {
				break
			}
			input, c, changed = joined, cond, true
		}
		rest = append(rest, c)
	}
	if !changed {
		return f
	}
	out := input
	if len(rest) > 0 {
		out = &planner.Filter{Input: input, Cond: planner.Conjunction(rest)}
	}
	if cols := out.Schema(); len(cols) > width {
		proj := &planner.Project{Input: out}
		for i, c := range cols[:width] {
			proj.Exprs = append(proj.Exprs, &planner.ColumnRef{Index: i, Name: c.Name, T: c.T})
			proj.Names = append(proj.Names, c.Name)
		}
		out = proj
	}
	return out
}

// semiJoinFor plans conjunct c, a [NOT] EXISTS, IN or ANY over a
// correlated subquery, as a semi or anti join of input with the subquery.
func semiJoinFor(input planner.Plan, c planner.Expr) (planner.Plan, bool) {
	not := false
	if call, ok := c.(*planner.Call); ok && call.Fn == planner.FnNot {
		c, not = call.Args[0], true
	}
	sq, ok := c.(*planner.Subquery)
	if !ok || sq.Kind == planner.SubqueryScalar || !planner.HasOuterRef(sq.Plan, 1) {
		return nil, false
	}
	plan := sq.Plan
	if sq.Kind == planner.SubqueryExists {
		plan = belowProjections(plan)
	}
	u := &pullUp{}
	sub, preds, ok := u.pull(plan)
	if !ok || u.grouped || hasAnyOuterRef(sub) {
		// An aggregate without GROUP BY has a row even for no input, so
		// EXISTS over it is not a join on its pulled-up keys.
		return nil, false
	}
	nl := len(input.Schema())
	conds := make([]planner.Expr, len(preds))
	for i, p := range preds {
		conds[i] = joinCondition(p, nl)
	}
	switch sq.Kind {
	case planner.SubqueryIn:
		// A row value matches a row when every pair does; under NOT IN,
		// when no pair is known to differ.
		for i, x := range sq.InOperands() {
			conds = append(conds, comparedColumn(planner.FnEq, x, sub, nl, i, not))
		}
	case planner.SubqueryAny:
		conds = append(conds, comparedColumn(sq.Op, sq.X, sub, nl, 0, not))
	}
	typ := planner.JoinSemi
	if not {
		typ = planner.JoinAnti
	}
	return planner.NewJoin(typ, input, sub, planner.Conjunction(conds)), true
}

// comparedColumn is the join condition x fn y, with y the subquery's
// column c, which is column nl+c of the join; NULL-aware
// (nullAwareMatch) for an anti join.
func comparedColumn(fn string, x planner.Expr, sub planner.Plan, nl, c int, anti bool) planner.Expr {
	col := sub.Schema()[c]
	match := &planner.Call{Fn: fn, T: planner.TypeBoolean,
		Args: []planner.Expr{x, &planner.ColumnRef{Index: nl + c, Name: col.Name, T: col.T}}}
	if anti {
		return nullAwareMatch(match)
	}
	return match
}

// nullAwareMatch is the anti join condition of x NOT IN (subquery) or
// NOT (x op ANY (subquery)) as a WHERE conjunct, given the match x = y or
// x op y: NOT IN is FALSE when x equals a value of the subquery and NULL,
// which drops the row as FALSE does, when x is NULL or the subquery has a
// NULL, unless the subquery is empty (for the outer row); likewise for
// op. So the row stays when no subquery row has x op y, y IS NULL or
// x IS NULL.
func nullAwareMatch(eq *planner.Call) planner.Expr {
	isNull := func(e planner.Expr) planner.Expr {
		return &planner.Call{Fn: planner.FnIsNull, T: planner.TypeBoolean, Args: []planner.Expr{e}}
	}
	or := func(a, b planner.Expr) planner.Expr {
		return &planner.Call{Fn: planner.FnOr, T: planner.TypeBoolean, Args: []planner.Expr{a, b}}
	}
	return or(or(eq, isNull(eq.Args[1])), isNull(eq.Args[0]))
}

// belowProjections is an EXISTS subquery's plan without the projections on
// top: EXISTS does not look at the subquery's columns.
func belowProjections(plan planner.Plan) planner.Plan {
	for {
		proj, isProj := plan.(*planner.Project)
		if !isProj {
			return plan
		}
		plan = proj.Input
	}
}

// scalarJoinFor finds a correlated scalar subquery in conjunct c and joins
// input with it decorrelated; it returns the join and c reading the
// subquery's value from the join's columns. filtering says c is a WHERE
// conjunct, where a comparison with the subquery can drop a row without a
// match as an inner join does; in a select list the join is a left one.
func scalarJoinFor(input planner.Plan, c planner.Expr, filtering bool) (planner.Plan, planner.Expr, bool) {
	sq := correlatedSubquery(c, planner.SubqueryScalar)
	if sq == nil {
		return nil, nil, false
	}
	u := &pullUp{}
	sub, preds, ok := u.pull(sq.Plan)
	if !ok {
		if byEqualities := correlateByEqualities(input, sq); byEqualities != nil {
			return scalarJoinFor(input, replaced(c, sq, byEqualities), filtering)
		}
	}
	// Without an aggregate that had no GROUP BY, the subquery could return
	// several rows for an outer row, which is an error a join cannot raise.
	if !ok || !u.grouped || u.filtersGroup || hasAnyOuterRef(sub) {
		return nil, nil, false
	}
	// An outer row without a group gets NULLs from the join; where the
	// subquery over no rows is not NULL (count is 0), a marker column
	// tells such rows, which take that value instead.
	var empty planner.Expr
	if u.counts || !nullOverNoRows(sq.Plan) {
		if empty, ok = overNoRows(sq); !ok {
			return nil, nil, false
		}
		sub = withMarker(sub)
	}
	nl := len(input.Schema())
	conds := make([]planner.Expr, len(preds))
	for i, p := range preds {
		conds[i] = joinCondition(p, nl)
	}
	typ := sql.JoinLeft
	if filtering && empty == nil && comparesOperand(c, sq) {
		typ = sql.JoinInner
	}
	join := planner.NewJoin(typ, input, sub, planner.Conjunction(conds))
	subCols := sub.Schema()
	var value planner.Expr = &planner.ColumnRef{Index: nl, Name: subCols[0].Name, T: sq.T}
	if empty != nil {
		marker := &planner.ColumnRef{Index: nl + len(subCols) - 1, Name: subCols[len(subCols)-1].Name, T: planner.TypeBoolean}
		value = unmatchedOr(marker, empty, value)
	}
	return join, replaced(c, sq, value), true
}

// comparesOperand reports whether c is a comparison with sq as an operand.
func comparesOperand(c planner.Expr, sq *planner.Subquery) bool {
	call, ok := c.(*planner.Call)
	if !ok {
		return false
	}
	switch call.Fn {
	case planner.FnEq, planner.FnNe, planner.FnLt, planner.FnLe, planner.FnGt, planner.FnGe:
		return call.Args[0] == planner.Expr(sq) || call.Args[1] == planner.Expr(sq)
	}
	return false
}

// joinCondition rewrites a pulled-up correlated conjunct (over the
// subquery's columns and the outer query's) onto a join of the outer query
// (nl columns) with the subquery.
func joinCondition(e planner.Expr, nl int) planner.Expr {
	return planner.Rewrite(e, func(x planner.Expr) planner.Expr {
		switch x := x.(type) {
		case *planner.OuterRef:
			return &planner.ColumnRef{Index: x.Index, Name: x.Name, T: x.T}
		case *planner.ColumnRef:
			return &planner.ColumnRef{Index: nl + x.Index, Name: x.Name, T: x.T}
		}
		return x
	})
}

// hasAnyOuterRef reports whether p still reads a column of a query around
// it, at any depth.
func hasAnyOuterRef(p planner.Plan) bool {
	found := false
	planner.WalkPlanExprs(p, func(e planner.Expr, nesting int) {
		if o, ok := e.(*planner.OuterRef); ok && o.Depth > nesting {
			found = true
		}
	})
	return found
}

// readsOuter reports whether e reads a column of the query one level out.
func readsOuter(e planner.Expr) bool {
	found := false
	planner.Walk(e, func(x planner.Expr) {
		if o, ok := x.(*planner.OuterRef); ok && o.Depth == 1 {
			found = true
		}
	})
	return found
}

// pullUp takes the correlated conjuncts out of a subquery's plan. grouped
// records that they were pulled through an aggregate without GROUP BY
// (which then groups by them), counts that this aggregate counts: a group
// that is missing would give 0 there, not the NULL a join gives.
type pullUp struct {
	grouped, counts bool
	// filtersGroup records a filter (HAVING) above that aggregate: a row
	// it drops looks like a missing group after the join, and must not
	// take the value over no rows.
	filtersGroup bool
}

// pull returns p without its correlated conjuncts and those conjuncts, over
// the returned plan's columns (its first columns are p's, further ones are
// added for the conjuncts) and OuterRefs. ok is false when p reads the
// outer query elsewhere than in a conjunct it can pull up.
func (u *pullUp) pull(p planner.Plan) (planner.Plan, []planner.Expr, bool) {
	if !planner.HasOuterRef(p, 1) {
		return p, nil, true
	}
	switch n := p.(type) {
	case *planner.Filter:
		in, preds, ok := u.pull(n.Input)
		if !ok {
			return nil, nil, false
		}
		u.filtersGroup = u.filtersGroup || u.grouped
		var keep []planner.Expr
		for _, c := range planner.Conjuncts(n.Cond) {
			switch {
			case readsOuter(c) && !planner.HasSubquery(c):
				preds = append(preds, c)
			default:
				keep = append(keep, c)
			}
		}
		if len(keep) == 0 {
			return in, preds, true
		}
		return &planner.Filter{Input: in, Cond: planner.Conjunction(keep)}, preds, !planner.HasOuterRef(&planner.Filter{Input: &planner.Values{}, Cond: planner.Conjunction(keep)}, 1)
	case *planner.Project:
		in, preds, ok := u.pull(n.Input)
		if !ok || exprsReadOuter(n.Exprs) {
			return nil, nil, false
		}
		out := &planner.Project{Input: in, Exprs: append([]planner.Expr(nil), n.Exprs...), Names: append([]string(nil), n.Names...)}
		preds = passThrough(out, in.Schema(), preds)
		return out, preds, true
	case *planner.SubqueryAlias:
		in, preds, ok := u.pull(n.Input)
		if !ok {
			return nil, nil, false
		}
		out := &planner.SubqueryAlias{Input: in, Alias: n.Alias, Columns: append([]planner.Column(nil), n.Columns...)}
		for _, c := range in.Schema()[len(n.Columns):] {
			out.Columns = append(out.Columns, planner.Column{Table: n.Alias, Name: c.Name, T: c.T})
		}
		return out, preds, true
	case *planner.Aggregate:
		return u.pullAggregate(n)
	case *planner.TopN:
		return u.pullLimit(n.Input, n.Keys, n.Limit, n.Offset)
	case *planner.Limit:
		input, keys := n.Input, []planner.SortKey(nil)
		if sort, ok := input.(*planner.Sort); ok {
			input, keys = sort.Input, sort.Keys
		}
		return u.pullLimit(input, keys, n.Limit, n.Offset)
	}
	return nil, nil, false
}

// pullLimit pulls correlated equalities inner = outer up through ORDER BY
// keys LIMIT limit OFFSET offset over input (limit < 0: none), as in the
// top rows per outer row of SELECT … WHERE u.k = t.k ORDER BY u.x DESC
// LIMIT 3: the rows of each group of equal inner values are numbered in
// the ORDER BY's order, and those numbered past offset, up to limit of
// them, stay. The outer row's rows are its group's, since the equalities
// pick just that group.
func (u *pullUp) pullLimit(input planner.Plan, keys []planner.SortKey, limit, offset int64) (planner.Plan, []planner.Expr, bool) {
	in, preds, ok := u.pull(input)
	if !ok {
		return nil, nil, false
	}
	inner, _, ok := splitEqualities(preds)
	if !ok || len(inner) == 0 {
		return nil, nil, false
	}
	cols := in.Schema()
	number := &planner.WindowCall{Fn: planner.WinRowNumber, PartitionBy: inner, OrderBy: keys,
		Frame: planner.DefaultFrame(len(keys) > 0), T: planner.TypeBigint}
	numbered := &planner.Window{Input: in, Calls: []*planner.WindowCall{number}, Names: []string{"row_number"}}
	rn := &planner.ColumnRef{Index: len(cols), Name: "row_number", T: planner.TypeBigint}
	bound := func(fn string, n int64) planner.Expr {
		return &planner.Call{Fn: fn, T: planner.TypeBoolean, Args: []planner.Expr{rn, &planner.Literal{Value: n, T: planner.TypeBigint}}}
	}
	cond := bound(planner.FnGt, offset)
	if limit >= 0 && planner.RowsThrough(limit, offset) < math.MaxInt64 { // no row number passes MaxInt64
		cond = planner.Conjunction([]planner.Expr{cond, bound(planner.FnLe, offset+limit)})
	}
	out := &planner.Project{Input: &planner.Filter{Input: numbered, Cond: cond}}
	for i, c := range cols {
		out.Exprs = append(out.Exprs, &planner.ColumnRef{Index: i, Name: c.Name, T: c.T})
		out.Names = append(out.Names, c.Name)
	}
	return out, preds, true
}

// pullAggregate pulls correlated equalities inner = outer up through an
// aggregate by grouping it by their inner sides as well; a projection puts
// the added keys after the aggregate's own columns.
func (u *pullUp) pullAggregate(n *planner.Aggregate) (planner.Plan, []planner.Expr, bool) {
	in, preds, ok := u.pull(n.Input)
	if !ok || exprsReadOuter(n.GroupBy) {
		return nil, nil, false
	}
	inner, outer, ok := splitEqualities(preds)
	if !ok {
		return nil, nil, false
	}
	for _, a := range n.Aggs {
		if slices.ContainsFunc(a.Exprs(), readsOuter) {
			return nil, nil, false
		}
		if a.Fn == planner.AggCount || a.Fn == planner.AggCountIf {
			u.counts = true
		}
	}
	if len(n.GroupBy) == 0 {
		u.grouped = true
	}
	g := len(n.GroupBy)
	agg := &planner.Aggregate{Input: in, GroupBy: append(append([]planner.Expr(nil), n.GroupBy...), inner...), Aggs: n.Aggs}
	agg.Names = append(append([]string(nil), n.Names[:g]...), make([]string, len(inner))...)
	for i, e := range inner {
		agg.Names[g+i] = e.String()
	}
	agg.Names = append(agg.Names, n.Names[g:]...)
	cols := agg.Schema()
	proj := &planner.Project{Input: agg}
	order := make([]int, 0, len(cols))
	for i := range g {
		order = append(order, i)
	}
	for i := range n.Aggs {
		order = append(order, g+len(inner)+i)
	}
	for i := range inner {
		order = append(order, g+i)
	}
	for _, i := range order {
		proj.Exprs = append(proj.Exprs, &planner.ColumnRef{Index: i, Name: cols[i].Name, T: cols[i].T})
		proj.Names = append(proj.Names, agg.Names[i])
	}
	width := g + len(n.Aggs)
	out := make([]planner.Expr, len(inner))
	for i := range inner {
		key := &planner.ColumnRef{Index: width + i, Name: agg.Names[g+i], T: inner[i].Type()}
		out[i] = &planner.Call{Fn: planner.FnEq, T: planner.TypeBoolean, Args: []planner.Expr{key, outer[i]}}
	}
	return proj, out, true
}

// passThrough adds to proj (over input columns in) the columns preds read,
// and returns preds over proj's output.
func passThrough(proj *planner.Project, in []planner.Column, preds []planner.Expr) []planner.Expr {
	added := make(map[int]int)
	out := make([]planner.Expr, len(preds))
	for i, p := range preds {
		out[i] = planner.Rewrite(p, func(x planner.Expr) planner.Expr {
			ref, ok := x.(*planner.ColumnRef)
			if !ok {
				return x
			}
			at, seen := added[ref.Index]
			if !seen {
				at = len(proj.Exprs)
				added[ref.Index] = at
				proj.Exprs = append(proj.Exprs, &planner.ColumnRef{Index: ref.Index, Name: in[ref.Index].Name, T: in[ref.Index].T})
				proj.Names = append(proj.Names, in[ref.Index].Name)
			}
			return &planner.ColumnRef{Index: at, Name: ref.Name, T: ref.T}
		})
	}
	return out
}

func exprsReadOuter(es []planner.Expr) bool {
	for _, e := range es {
		if readsOuter(e) {
			return true
		}
	}
	return false
}

// readsColumns reports whether e reads a column of its own query.
func readsColumns(e planner.Expr) bool {
	found := false
	planner.Walk(e, func(x planner.Expr) {
		if _, ok := x.(*planner.ColumnRef); ok {
			found = true
		}
	})
	return found
}
