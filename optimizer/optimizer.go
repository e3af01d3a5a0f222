// Package optimizer rewrites logical plans with named rules, one rule per
// file, applied in the order of the list below.
package optimizer

import (
	"context"
	"slices"

	icebergio "github.com/apache/iceberg-go/io"

	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/storage"
)

// Env is what rules may use besides the plan: the files to read table
// metadata from, and the rules turned off (SET disabled_optimizers).
type Env struct {
	FS        icebergio.IO
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
//  1. fold_constants: constant parts of filters and projections are
//     computed; an always-true filter disappears, an always-false one prunes
//     everything. First, so that later rules see literals.
//  2. push_down_filters: WHERE conditions move to the scans (Scan.Filter),
//     split into conjuncts through projections, joins and subqueries.
//  3. normalize_predicates: scan filters that wrap a column in a function
//     become ranges on the column, so partitions and statistics can prune.
//     After pushdown, since it works on what reached the scans.
//  4. prune_columns: scans read only the columns the query uses.
//  5. push_down_limit: LIMIT moves below projections and tells a scan how
//     many rows it needs.
//  6. prune_files: each scan's filter decides which data files it reads —
//     partition pruning per spec, then column statistics. The decision is
//     kept in the plan (Scan.Files), and EXPLAIN prints it. After the rules
//     that shape scan filters.
//  7. answer_from_metadata: count/min/max over a whole table come from the
//     manifests. Last, so that it sees the files prune_files kept.
var rules = []Rule{
	{"fold_constants", pure(foldConstants)},
	{"push_down_filters", pure(pushDownFilters)},
	{"normalize_predicates", pure(normalizePredicates)},
	{"prune_columns", pure(pruneColumns)},
	{"push_down_limit", pure(pushDownLimit)},
	{"prune_files", pruneFiles},
	{"answer_from_metadata", pure(answerFromMetadata)},
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
