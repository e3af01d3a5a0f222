package exec

import (
	"maps"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakesql/lakesql/exec/expr"
	"github.com/lakesql/lakesql/planner"
)

// maxSummaryValues bounds the distinct values a valueSummary lists; past it,
// only the range is kept.
const maxSummaryValues = 10000

// maxPruningValues bounds the values of a pruning predicate: manifests,
// files, row groups and pages are tested against every value of an IN list
// (iceberg-go copies the set for each), and past a thousand values the
// range prunes about as well. Rows are tested against every key
// (dynamicFilter.rowKeys).
const maxPruningValues = 1000

// valueSummary collects what is known of one column's non-NULL values — the
// distinct values while they are few, and always the smallest and largest —
// so that an IN subquery's results or a hash join's build keys can prune the
// files of another scan (prune_subqueries.go, dynamic_pruning.go).
type valueSummary struct {
	t        arrow.DataType
	values   map[any]struct{}
	min, max any
	// overflow: more than maxSummaryValues distinct values were seen.
	overflow bool
	// unusable: a value has no literal form or no order (NaN), so no
	// predicate can be derived.
	unusable bool
	// nulls: a NULL was seen.
	nulls bool
}

func newValueSummary(t arrow.DataType) *valueSummary {
	return &valueSummary{t: t, values: map[any]struct{}{}}
}

// add takes in the values of arr.
func (s *valueSummary) add(arr arrow.Array) {
	for i := 0; i < arr.Len() && !s.unusable; i++ {
		if arr.IsNull(i) {
			s.nulls = true
			continue
		}
		v, ok := expr.LiteralValue(arr, i)
		if !ok || planner.IsNaN(v) {
			s.unusable = true
			return
		}
		if _, isBytes := v.([]byte); isBytes {
			s.unusable = true // not a map key; binary keys are rare in joins
			return
		}
		if s.min == nil {
			s.min, s.max = v, v
		} else {
			lo, ok1 := planner.CompareValues(v, s.min)
			hi, ok2 := planner.CompareValues(v, s.max)
			if !ok1 || !ok2 {
				s.unusable = true
				return
			}
			if lo < 0 {
				s.min = v
			}
			if hi > 0 {
				s.max = v
			}
		}
		if !s.overflow {
			s.values[v] = struct{}{}
			if len(s.values) > maxSummaryValues {
				s.overflow, s.values = true, nil
			}
		}
	}
}

// exact reports whether predicate is x IN (the values) itself, for every
// x, rather than only implied by it: no NULL among the values (x IN (1,
// NULL) is NULL, not FALSE, for x = 2) and no range in their place.
func (s *valueSummary) exact() bool {
	return !s.unusable && !s.nulls && !s.overflow && len(s.values) <= maxPruningValues
}

// predicate is implied for a row whose x equals one of the values, for
// pruning: x IN (values), or x BETWEEN min AND max past maxPruningValues;
// FALSE when there was no non-NULL value (nothing equals NULL). ok is false
// when nothing can be said.
func (s *valueSummary) predicate(x planner.Expr) (planner.Expr, bool) {
	switch {
	case s.unusable:
		return nil, false
	case s.min == nil:
		return &planner.Literal{Value: false, T: planner.TypeBoolean}, true
	case s.overflow || len(s.values) > maxPruningValues:
		return &planner.Call{Fn: planner.FnAnd, Args: []planner.Expr{
			s.compare(planner.FnGe, x, s.min), s.compare(planner.FnLe, x, s.max),
		}, T: planner.TypeBoolean}, true
	}
	return s.in(x), true
}

// in is x = v for one value, else x IN (values) in order.
func (s *valueSummary) in(x planner.Expr) planner.Expr {
	if len(s.values) == 1 {
		return s.compare(planner.FnEq, x, s.min)
	}
	values := slices.SortedFunc(maps.Keys(s.values), func(a, b any) int {
		c, _ := planner.CompareValues(a, b)
		return c
	})
	args := []planner.Expr{x}
	for _, v := range values {
		args = append(args, &planner.Literal{Value: v, T: s.t})
	}
	return &planner.Call{Fn: planner.FnIn, Args: args, T: planner.TypeBoolean}
}

func (s *valueSummary) compare(fn string, x planner.Expr, v any) planner.Expr {
	return &planner.Call{Fn: fn, Args: []planner.Expr{x, &planner.Literal{Value: v, T: s.t}}, T: planner.TypeBoolean}
}
