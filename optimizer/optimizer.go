// Package optimizer rewrites logical plans with rules, one rule per file.
package optimizer

import "github.com/lakesql/lakesql/planner"

// rule rewrites a plan; it returns the plan unchanged when it does not apply.
type rule func(planner.Plan) planner.Plan

// rules run in this order:
//  1. pruneColumns: scans read only the columns the query uses.
var rules = []rule{
	pruneColumns,
}

// Optimize applies every rule in order.
func Optimize(p planner.Plan) planner.Plan {
	for _, r := range rules {
		p = r(p)
	}
	return p
}
