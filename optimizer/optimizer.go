// Package optimizer rewrites logical plans with named rules, one rule per
// file, applied in the order of the list below.
package optimizer

import (
	"context"
	"slices"

	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/storage"
)

// Env is what rules may use besides the plan: the cache of manifest
// entries, and the rules turned off (SET disabled_optimizers). Table
// metadata is read through each table's file system (planner.TableRef.FS).
type Env struct {
	Manifests *storage.ManifestCache
	// Disabled holds the names of rules to skip.
	Disabled map[string]bool
}

// Rule is one named rewrite. Apply returns the plan unchanged when the rule
// does not apply; an error stops the statement (reading manifests can fail).
type Rule struct {
	Name  string
	Apply func(ctx context.Context, env *Env, p planner.Plan) (planner.Plan, error)
}

// rules run in this order:
//  1. decorrelate_subqueries: correlated EXISTS, NOT EXISTS, IN and scalar
//     subqueries in WHERE become semi, anti, inner or left joins, so no
//     subquery runs per outer row; the joins then get the rules below,
//     constant folding included.
//  2. fold_constants: constant parts of filters and projections are
//     computed; an always-true filter disappears, an always-false one prunes
//     everything. Early, so that later rules see literals.
//  3. unwrap_casts: WHERE conditions comparing a cast column with a constant
//     compare the column itself with a constant of its type, so rows are
//     not cast one by one (and the scans below get the plain form).
//  4. optimize_subqueries: the plans of subqueries run once (uncorrelated
//     ones) are optimized by this same list, file pruning included.
//  5. push_down_filters: WHERE conditions move to the scans (Scan.Filter),
//     split into conjuncts through projections, joins and subqueries.
//  6. reorder_joins: trees of inner and cross joins are replanned from their
//     conditions as hash joins, greedily ordered by estimated rows, smaller
//     sides building; it needs the filters pushed onto the leaves to
//     estimate them, and puts the conditions it moves where rule 5 would.
//  7. normalize_predicates: scan filters that wrap a column in a function
//     become ranges on the column, so partitions and statistics can prune.
//     After pushdown, since it works on what reached the scans.
//  8. prune_columns: scans read only the columns the query uses.
//  9. prune_nested_fields: a struct column read only through field access
//     (s.a) is scanned as a struct of those fields, so the other fields'
//     Parquet chunks are not read. After prune_columns, on the narrowed scans.
//  10. push_down_limit: LIMIT moves below projections and tells a scan how
//     many rows it needs.
//  11. prune_files: each scan's filter decides which data files it reads —
//     partition pruning per spec, then column statistics. The decision is
//     kept in the plan (Scan.Files), and EXPLAIN prints it. After the rules
//     that shape scan filters.
//  12. answer_from_metadata: count/min/max over a whole table come from the
//     manifests. Last, so that it sees the files prune_files kept.
//
// The list is set in init because optimize_subqueries calls Optimize.
var rules []Rule

func init() {
	rules = []Rule{
		{"decorrelate_subqueries", pure(decorrelateSubqueries)},
		{"fold_constants", pure(foldConstants)},
		{"unwrap_casts", pure(unwrapCasts)},
		{"optimize_subqueries", optimizeSubqueries},
		{"push_down_filters", pure(pushDownFilters)},
		{"reorder_joins", pure(reorderJoins)},
		{"normalize_predicates", pure(normalizePredicates)},
		{"prune_columns", pure(pruneColumns)},
		{"prune_nested_fields", pure(pruneNestedFields)},
		{"push_down_limit", pure(pushDownLimit)},
		{"prune_files", pruneFiles},
		{"answer_from_metadata", pure(answerFromMetadata)},
	}
}

// pure adapts a rule that needs nothing but the plan.
func pure(rule func(planner.Plan) planner.Plan) func(context.Context, *Env, planner.Plan) (planner.Plan, error) {
	return func(_ context.Context, _ *Env, p planner.Plan) (planner.Plan, error) { return rule(p), nil }
}

// Optimize applies every rule that env does not disable, in order.
func Optimize(ctx context.Context, env *Env, p planner.Plan) (planner.Plan, error) {
	for _, r := range rules {
		if env.Disabled[r.Name] {
			continue
		}
		var err error
		if p, err = r.Apply(ctx, env, p); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// RuleNames lists the rules in the order they run.
func RuleNames() []string {
	names := make([]string, len(rules))
	for i, r := range rules {
		names[i] = r.Name
	}
	return names
}

// IsRule reports whether name is a rule's name.
func IsRule(name string) bool { return slices.Contains(RuleNames(), name) }
