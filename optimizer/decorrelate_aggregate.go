package optimizer

import (
	"fmt"

	"github.com/lakesql/lakesql/planner"
)

// decorrelateAggregate decorrelates the subqueries in the arguments and
// FILTER conditions of an aggregate's calls, as in sum(CASE WHEN x IN
// (SELECT … WHERE w.k = t.k) THEN 1 END) or count(*) FILTER (WHERE EXISTS
// (…)): a projection below the aggregate computes each such expression
// next to the input's columns, decorrelateProject turns its subqueries
// into joins, and the call reads the projection's column. When they
// cannot be decorrelated the aggregate is left as it was, for the executor
// to report.
func decorrelateAggregate(a *planner.Aggregate) planner.Plan {
	cols := a.Input.Schema()
	proj := &planner.Project{Input: a.Input}
	for i, c := range cols {
		proj.Exprs = append(proj.Exprs, &planner.ColumnRef{Index: i, Name: c.Name, T: c.T})
		proj.Names = append(proj.Names, c.Name)
	}
	computed := func(e planner.Expr) planner.Expr {
		if e == nil || !readsCorrelatedSubquery(e) {
			return e
		}
		name := fmt.Sprintf("#arg%d", len(proj.Exprs)-len(cols))
		proj.Exprs = append(proj.Exprs, e)
		proj.Names = append(proj.Names, name)
		return &planner.ColumnRef{Index: len(proj.Exprs) - 1, Name: name, T: e.Type()}
	}
	aggs := make([]*planner.AggCall, len(a.Aggs))
	for i, call := range a.Aggs {
		c := *call
		c.Arg, c.Filter = computed(c.Arg), computed(c.Filter)
		aggs[i] = &c
	}
	if len(proj.Exprs) == len(cols) {
		return a
	}
	input := decorrelateProject(proj)
	if input == planner.Plan(proj) {
		return a
	}
	out := *a
	out.Input, out.Aggs = input, aggs
	return &out
}

// readsCorrelatedSubquery reports whether e holds a subquery that reads
// the query around it.
func readsCorrelatedSubquery(e planner.Expr) bool {
	found := false
	planner.Walk(e, func(x planner.Expr) {
		if s, ok := x.(*planner.Subquery); ok && planner.HasOuterRef(s.Plan, 1) {
			found = true
		}
	})
	return found
}
