package optimizer

import (
	"strconv"

	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/sql"
)

// Row-count estimates for join ordering. Scans know their table's record
// count from the snapshot summary; everything above a scan is a guess of the
// kind DuckDB and DataFusion make without column statistics: a fixed
// selectivity per filter conjunct, a tenth of the input per GROUP BY.

// unknownRows is assumed for inputs whose size cannot be told: large, so
// that a side known to be small is built instead.
const unknownRows = 1e9

// estimateRows guesses how many rows p produces.
func estimateRows(p planner.Plan) float64 {
	switch p := p.(type) {
	case *planner.Scan:
		return scanRows(p)
	case *planner.Values:
		return float64(len(p.Rows))
	case *planner.Filter:
		in := estimateRows(p.Input)
		return max(1, in*selectivity(p.Cond, in))
	case *planner.Limit:
		if p.Limit >= 0 {
			return min(float64(p.Limit), estimateRows(p.Input))
		}
		return estimateRows(p.Input)
	case *planner.Aggregate:
		if len(p.GroupBy) == 0 {
			return 1
		}
		return max(1, estimateRows(p.Input)/10)
	case *planner.Distinct:
		return max(1, estimateRows(p.Input)/10)
	case *planner.Project, *planner.SubqueryAlias, *planner.Sort, *planner.Materialize:
		return estimateRows(p.Children()[0])
	case *planner.Join:
		l, r := estimateRows(p.Left), estimateRows(p.Right)
		switch {
		case p.LeftOnly():
			return max(1, l/2)
		case p.Type == sql.JoinLeft:
			return max(l, r)
		case len(p.LeftKeys) == 0 && p.Cond == nil:
			return l * r
		}
		return max(l, r)
	}
	return unknownRows
}

// baseRows is the row count of p before its filters: the number of distinct
// values a key column of p can have at most.
func baseRows(p planner.Plan) float64 {
	switch p := p.(type) {
	case *planner.Filter:
		return baseRows(p.Input)
	case *planner.Project, *planner.SubqueryAlias, *planner.Sort, *planner.Materialize:
		return baseRows(p.Children()[0])
	}
	return estimateRows(p)
}

// scanRows is the snapshot's total-records, the rows the table holds.
func scanRows(s *planner.Scan) float64 {
	snap := s.Table.Snapshot
	if snap == nil {
		return 0
	}
	if snap.Summary != nil {
		if n, err := strconv.ParseInt(snap.Summary.Properties["total-records"], 10, 64); err == nil {
			return float64(n)
		}
	}
	return unknownRows
}

// selectivity guesses the fraction of the rows of an input of inputRows
// that a predicate keeps.
func selectivity(e planner.Expr, inputRows float64) float64 {
	s := 1.0
	for _, c := range planner.Conjuncts(e) {
		s *= conjunctSelectivity(c, inputRows)
	}
	return s
}

func conjunctSelectivity(e planner.Expr, inputRows float64) float64 {
	if sub, ok := e.(*planner.Subquery); ok && sub.Kind == planner.SubqueryIn {
		// x IN (SELECT …) keeps at most a row per subquery row when x is
		// a key, as the join it is would: TPC-H Q20's part filter.
		return min(0.5, estimateRows(sub.Plan)/max(1, inputRows))
	}
	c, ok := e.(*planner.Call)
	if !ok {
		return 0.5
	}
	switch c.Fn {
	case planner.FnEq, planner.FnLike:
		return 0.1
	case planner.FnIn:
		return min(0.5, 0.1*float64(len(c.Args)-1))
	case planner.FnLt, planner.FnLe, planner.FnGt, planner.FnGe:
		return 0.33
	case planner.FnOr:
		return min(1, conjunctSelectivity(c.Args[0], inputRows)+conjunctSelectivity(c.Args[1], inputRows))
	case planner.FnNot, planner.FnNe, planner.FnIsNotNull:
		return 0.9
	}
	return 0.5
}
