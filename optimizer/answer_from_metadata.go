package optimizer

import (
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakesql/lakesql/planner"
)

// answerFromMetadata turns count(*), count(col), min(col) and max(col) over a
// whole table (no WHERE, no GROUP BY) into a MetadataAggregate, answered from
// the record counts and column bounds manifests already hold.
func answerFromMetadata(p planner.Plan) planner.Plan {
	agg, ok := p.(*planner.Aggregate)
	if !ok {
		return withChildren(p, answerFromMetadata)
	}
	scan, ok := agg.Input.(*planner.Scan)
	if !ok || scan.Filter != nil || len(agg.GroupBy) > 0 || len(agg.Aggs) == 0 {
		return withChildren(p, answerFromMetadata)
	}
	for _, a := range agg.Aggs {
		if !metadataAnswerable(a) {
			return withChildren(p, answerFromMetadata)
		}
	}
	return &planner.MetadataAggregate{Aggregate: agg, Scan: scan}
}

// metadataAnswerable: count(*), and count/min/max of a plain column whose
// bounds are exact values (not truncated strings, not floats whose bounds
// leave out NaN).
func metadataAnswerable(a *planner.AggCall) bool {
	if a.Filter != nil {
		return false // FILTER (WHERE …) needs the rows
	}
	if a.Arg == nil {
		return a.Fn == planner.AggCount
	}
	if _, ok := a.Arg.(*planner.ColumnRef); !ok {
		return false
	}
	switch a.Fn {
	case planner.AggCount:
		return !a.Distinct
	case planner.AggMin, planner.AggMax:
		switch a.Arg.Type().ID() {
		case arrow.INT32, arrow.INT64, arrow.DATE32, arrow.TIMESTAMP, arrow.DECIMAL128:
			return true
		}
	}
	return false
}
