package optimizer

import "github.com/lakesql/lakesql/planner"

// withChildren applies a rule to the children of a plan node and rebuilds
// the node around the results. Nodes without children, and nodes this
// package does not know, are returned unchanged (rules then do not reach
// below them, which is always correct, only less optimized).
func withChildren(p planner.Plan, rule func(planner.Plan) planner.Plan) planner.Plan {
	switch n := p.(type) {
	case *planner.Filter:
		out := *n
		out.Input = rule(n.Input)
		return &out
	case *planner.Project:
		out := *n
		out.Input = rule(n.Input)
		return &out
	case *planner.Limit:
		out := *n
		out.Input = rule(n.Input)
		return &out
	case *planner.Aggregate:
		out := *n
		out.Input = rule(n.Input)
		return &out
	case *planner.Distinct:
		out := *n
		out.Input = rule(n.Input)
		return &out
	case *planner.Sort:
		out := *n
		out.Input = rule(n.Input)
		return &out
	case *planner.TopN:
		out := *n
		out.Input = rule(n.Input)
		return &out
	case *planner.SubqueryAlias:
		out := *n
		out.Input = rule(n.Input)
		return &out
	case *planner.Join:
		out := *n
		out.Left, out.Right = rule(n.Left), rule(n.Right)
		return &out
	case *planner.SetOp:
		out := *n
		out.Left, out.Right = rule(n.Left), rule(n.Right)
		return &out
	}
	return p
}
