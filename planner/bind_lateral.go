package planner

import "github.com/lakesql/lakesql/sql"

// bindLateralSubquery binds L [CROSS | INNER | LEFT] JOIN LATERAL (query)
// alias [ON cond], and FROM L, LATERAL (query) alias: the query reads L's
// columns as a subquery reads its outer query's (OuterRefs of depth 1,
// indexes into L's columns), and stands for its rows for each row of L.
// The optimizer turns the join into one of L with the query decorrelated
// (optimizer/decorrelate_lateral.go); what it cannot turn is reported at
// the correlated column when the query runs.
func (b *binder) bindLateralSubquery(j *sql.Join, sub *sql.SubqueryTable) (Plan, error) {
	switch {
	case j.Type == sql.JoinRight || j.Type == sql.JoinFull:
		return nil, errorf(j.Pos, "a LATERAL subquery cannot be the right side of a %s JOIN: it is computed from the left side's rows", j.Type)
	case j.Type == sql.JoinSemi || j.Type == sql.JoinAnti:
		return nil, errorf(j.Pos, "a LATERAL subquery cannot be the right side of a %s JOIN: write [NOT] EXISTS (subquery) in WHERE", j.Type)
	case len(j.Using) > 0 || j.Natural:
		return nil, errorf(j.Pos, "a join with a LATERAL subquery takes ON, not USING or NATURAL")
	}
	left, err := b.bindFrom(j.L)
	if err != nil {
		return nil, err
	}
	plan, err := b.bindSubqueryPlan(sub.Query, &scope{cols: left.Schema()})
	if err != nil {
		return nil, err
	}
	right, err := NewSubqueryAlias(plan, sub.Alias, sub.ColAliases)
	if err != nil {
		return nil, errorf(sub.Pos, "subquery %v", err)
	}
	joined, err := b.joinOn(j, left, right)
	if err != nil {
		return nil, err
	}
	joined.(*Join).Lateral = true
	return joined, nil
}
