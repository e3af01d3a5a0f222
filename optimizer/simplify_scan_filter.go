package optimizer

import "github.com/lakesql/lakesql/planner"

// SimplifyScanFilter does to a scan's filter what fold_constants,
// unwrap_casts and normalize_predicates do at plan time. The executor calls
// it (exec.Env.SimplifyFilter) once it has put the values of uncorrelated
// subqueries in their place, so that event_time >= (SELECT max(event_time)
// FROM t) - INTERVAL 1 DAY, whose right side is a constant only then,
// prunes as event_time >= TIMESTAMP '…' does.
func SimplifyScanFilter(e planner.Expr) planner.Expr {
	return normalizeFilter(unwrapCastsInCondition(fold(e)))
}
