// Package optimizer rewrites logical plans with rules, one rule per file.
package optimizer

import "github.com/lakesql/lakesql/planner"

// rule rewrites a plan; it returns the plan unchanged when it does not apply.
type rule func(planner.Plan) planner.Plan

// rules run in this order:
//  1. foldConstants: constant parts of filters and projections are computed;
//     an always-true filter disappears, an always-false one prunes everything.
//  2. decorrelateSubqueries: correlated EXISTS, NOT EXISTS, IN and scalar
//     subqueries in WHERE become semi, anti, inner or left joins, so no
//     subquery runs per outer row; the joins then get the rules below.
//  3. optimizeSubqueries: the plans of subqueries run once (uncorrelated
//     ones) are optimized by this same list.
//  4. pushDownFilters: WHERE conditions move to the scans (Scan.Filter),
//     split into conjuncts through projections, joins and subqueries.
//  5. reorderJoins: trees of inner and cross joins are replanned from their
//     conditions as hash joins, greedily ordered by estimated rows, smaller
//     sides building; it needs the filters pushed onto the leaves to
//     estimate them, and puts the conditions it moves where rule 4 would.
//  6. normalizePredicates: scan filters that wrap a column in a function
//     become ranges on the column, so partitions and statistics can prune.
//  7. pruneColumns: scans read only the columns the query uses.
//  8. pushDownLimit: LIMIT moves below projections and tells a scan how many
//     rows it needs.
//  9. answerFromMetadata: count/min/max over a whole table come from the
//     manifests (after pruning, so a fallback scan reads few columns).
//
// The list is set in init because optimizeSubqueries calls Optimize.
var rules []rule

func init() {
	rules = []rule{
		foldConstants,
		decorrelateSubqueries,
		optimizeSubqueries,
		pushDownFilters,
		reorderJoins,
		normalizePredicates,
		pruneColumns,
		pushDownLimit,
		answerFromMetadata,
	}
}

// Optimize applies every rule in order.
func Optimize(p planner.Plan) planner.Plan {
	for _, r := range rules {
		p = r(p)
	}
	return p
}
