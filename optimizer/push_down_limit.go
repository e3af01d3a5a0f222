package optimizer

import "github.com/lakesql/lakesql/planner"

// pushDownLimit moves LIMIT below projections (they keep one output row per
// input row) and, when nothing filters between it and a scan, tells the scan
// how many rows are needed so it stops opening files once it has them. The
// Limit stays in place: the scan's count is a hint for starting work, never
// the cut.
func pushDownLimit(p planner.Plan) planner.Plan {
	limit, ok := p.(*planner.Limit)
	if !ok || limit.Limit < 0 {
		return withChildren(p, pushDownLimit)
	}
	switch in := limit.Input.(type) {
	case *planner.Project:
		below := *limit
		below.Input = in.Input
		out := *in
		out.Input = pushDownLimit(&below)
		return &out
	case *planner.Scan:
		scan := *in
		scan.RowsNeeded = planner.RowsThrough(limit.Limit, limit.Offset)
		out := *limit
		out.Input = &scan
		return &out
	}
	return withChildren(p, pushDownLimit)
}
