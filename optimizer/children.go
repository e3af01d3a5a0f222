package optimizer

import "github.com/lakesql/lakesql/planner"

// withChildren applies a rule to the children of the plan nodes this package
// knows how to rebuild; other nodes are returned unchanged (rules then simply
// do not reach below them, which is always correct).
func withChildren(p planner.Plan, rule func(planner.Plan) planner.Plan) planner.Plan {
	switch n := p.(type) {
	case *planner.Filter:
		return &planner.Filter{Input: rule(n.Input), Cond: n.Cond}
	case *planner.Project:
		return &planner.Project{Input: rule(n.Input), Exprs: n.Exprs, Names: n.Names}
	case *planner.Limit:
		return &planner.Limit{Input: rule(n.Input), Limit: n.Limit, Offset: n.Offset}
	}
	return p
}
