// Package optimizer rewrites logical plans with rules, one rule per file.
package optimizer

import "github.com/lakesql/lakesql/planner"

// rule rewrites a plan; it returns the plan unchanged when it does not apply.
type rule func(planner.Plan) planner.Plan

// rules run in this order:
//  1. foldConstants: constant parts of filters and projections are computed;
//     an always-true filter disappears, an always-false one prunes everything.
//  2. pushDownFilters: WHERE conditions move to the scans (Scan.Filter),
//     split into conjuncts through projections, joins and subqueries.
//  3. normalizePredicates: scan filters that wrap a column in a function
//     become ranges on the column, so partitions and statistics can prune.
//  4. pruneColumns: scans read only the columns the query uses.
//  5. pushDownLimit: LIMIT moves below projections and tells a scan how many
//     rows it needs.
//  6. answerFromMetadata: count/min/max over a whole table come from the
//     manifests (after pruning, so a fallback scan reads few columns).
var rules = []rule{
	foldConstants,
	pushDownFilters,
	normalizePredicates,
	pruneColumns,
	pushDownLimit,
	answerFromMetadata,
}

// Optimize applies every rule in order.
func Optimize(p planner.Plan) planner.Plan {
	for _, r := range rules {
		p = r(p)
	}
	return p
}
