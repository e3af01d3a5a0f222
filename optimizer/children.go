package optimizer

import "github.com/lakesql/lakesql/planner"

// withChildren applies a rule to the children of a plan node and rebuilds
// the node around the results.
func withChildren(p planner.Plan, rule func(planner.Plan) planner.Plan) planner.Plan {
	children := p.Children()
	if len(children) == 0 {
		return p
	}
	rewritten := make([]planner.Plan, len(children))
	for i, c := range children {
		rewritten[i] = rule(c)
	}
	return p.WithChildren(rewritten)
}

// withChildrenErr is withChildren for rules that can fail.
func withChildrenErr(p planner.Plan, rule func(planner.Plan) (planner.Plan, error)) (planner.Plan, error) {
	children := p.Children()
	if len(children) == 0 {
		return p, nil
	}
	rewritten := make([]planner.Plan, len(children))
	for i, c := range children {
		var err error
		if rewritten[i], err = rule(c); err != nil {
			return nil, err
		}
	}
	return p.WithChildren(rewritten), nil
}
