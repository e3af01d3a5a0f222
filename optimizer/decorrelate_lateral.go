package optimizer

import (
	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/sql"
)

// decorrelateLateral turns a join with a LATERAL subquery, whose right
// side reads the left side's columns, into a join of the left side with
// the subquery decorrelated, the way decorrelateSubqueries does for
// subqueries in expressions:
//
//   - the correlated conditions of the subquery's filters become join
//     conditions: its rows for a left row are those meeting them;
//   - an ORDER BY … LIMIT under correlated equalities keeps the top rows
//     of each group of equal values (pullUp.pullLimit);
//   - an aggregate without GROUP BY gives one row for every left row, the
//     aggregates over no rows (count 0) where none matched: a left join,
//     whose unmatched rows take those values;
//   - a select list reading the left side's columns is computed above the
//     join; in a left join, NULL for the left rows the subquery has no row
//     for (a marker column tells them), and only with ON TRUE;
//   - conditions other than equalities under an aggregate are turned into
//     equalities with the distinct outer values (correlatePlanByEqualities).
//
// The join keeps its output columns, and its ON condition applies to the
// subquery's rows as before. What cannot be decorrelated is left as is and
// reported at the correlated column when the query runs.
func decorrelateLateral(j *planner.Join) planner.Plan {
	if !j.Lateral || !planner.HasOuterRef(j.Right, 1) {
		return j
	}
	right := j.Right
	if alias, ok := right.(*planner.SubqueryAlias); ok {
		right = alias.Input
	}
	on := j.Condition()
	if lit, ok := on.(*planner.Literal); ok && lit.Value == true {
		on = nil // ON TRUE
	}
	var lifted *planner.Project
	if proj, ok := right.(*planner.Project); ok && exprsReadOuter(proj.Exprs) {
		if j.Type == sql.JoinLeft && on != nil {
			return j
		}
		lifted, right = proj, proj.Input
		if j.Type == sql.JoinLeft {
			// Its last column tells the left rows the subquery had rows for.
			right = withMarker(right)
		}
	}
	nl := len(j.Left.Schema())
	cond := on
	if lifted != nil {
		cond = nil // over the lifted columns: applied above them
	}
	joined, ok := lateralJoin(j.Type, j.Left, right, cond)
	if !ok {
		return j
	}
	out := &planner.Project{Input: joined}
	cols := joined.Schema()
	for i := range nl {
		out.Exprs = append(out.Exprs, &planner.ColumnRef{Index: i, Name: cols[i].Name, T: cols[i].T})
	}
	if lifted == nil {
		for i := range len(j.Right.Schema()) {
			out.Exprs = append(out.Exprs, &planner.ColumnRef{Index: nl + i, Name: cols[nl+i].Name, T: cols[nl+i].T})
		}
	} else {
		for _, e := range lifted.Exprs {
			value := joinCondition(e, nl)
			if j.Type == sql.JoinLeft {
				width := len(right.Schema())
				marker := &planner.ColumnRef{Index: nl + width - 1, Name: cols[nl+width-1].Name, T: planner.TypeBoolean}
				value = unmatchedOr(marker, &planner.Literal{T: e.Type()}, value)
			}
			out.Exprs = append(out.Exprs, value)
		}
	}
	for _, c := range j.Schema() {
		out.Names = append(out.Names, c.Name)
		out.Marks = append(out.Marks, c.ColumnMarks)
	}
	if lifted != nil && on != nil {
		return &planner.Filter{Input: out, Cond: on}
	}
	return out
}

// lateralJoin joins left with right, a subquery reading left's columns, on
// cond (over left's columns and right's, nil for none) and the subquery's
// correlated conditions. The result's first columns are left's, then
// right's; more may follow.
func lateralJoin(typ sql.JoinType, left, right planner.Plan, cond planner.Expr) (planner.Plan, bool) {
	u := &pullUp{}
	sub, preds, ok := u.pull(right)
	if !ok {
		if byEqualities := correlatePlanByEqualities(left, right); byEqualities != nil {
			return lateralJoin(typ, left, byEqualities, cond)
		}
	}
	if !ok || hasAnyOuterRef(sub) || u.filtersGroup {
		return nil, false
	}
	nl := len(left.Schema())
	conds := make([]planner.Expr, len(preds))
	for i, p := range preds {
		conds[i] = joinCondition(p, nl)
	}
	if !u.grouped {
		all := planner.Conjunction(append(conds, cond))
		if typ == sql.JoinCross && all != nil {
			typ = sql.JoinInner
		}
		return planner.NewJoin(typ, left, sub, all), true
	}
	// One row for every left row: a left join, where the rows that found
	// no group take the subquery's row over no rows.
	if typ == sql.JoinLeft && cond != nil {
		return nil, false
	}
	empty, ok := overNoRowsPlan(right)
	if !ok {
		return nil, false
	}
	marked := withMarker(sub)
	joined := planner.NewJoin(sql.JoinLeft, left, marked, planner.Conjunction(conds))
	jcols := joined.Schema()
	marker := &planner.ColumnRef{Index: len(jcols) - 1, Name: jcols[len(jcols)-1].Name, T: planner.TypeBoolean}
	out := &planner.Project{Input: joined}
	for i, c := range jcols[:nl] {
		out.Exprs = append(out.Exprs, &planner.ColumnRef{Index: i, Name: c.Name, T: c.T})
		out.Names = append(out.Names, c.Name)
	}
	for i, c := range right.Schema() {
		value := &planner.Subquery{Kind: planner.SubqueryScalar, T: c.T, Plan: &planner.Project{Input: empty,
			Exprs: []planner.Expr{&planner.ColumnRef{Index: i, Name: c.Name, T: c.T}}, Names: []string{c.Name}}}
		out.Exprs = append(out.Exprs, unmatchedOr(marker, value, &planner.ColumnRef{Index: nl + i, Name: c.Name, T: c.T}))
		out.Names = append(out.Names, c.Name)
	}
	if cond != nil {
		return &planner.Filter{Input: out, Cond: cond}, true
	}
	return out, true
}
