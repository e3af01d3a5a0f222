package exec

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/sql"
)

// NewNestedLoopJoin returns a join of left and right on cond (nil for a
// cross join), a condition over the output columns that is evaluated on
// every pair of rows, a batch of pairs at a time. The side to materialize is
// left when buildLeft. keep marks the output columns of left's and right's
// (nil for all).
func NewNestedLoopJoin(typ sql.JoinType, left, right Operator, cond planner.Expr, buildLeft bool, keep []bool) Operator {
	return newJoin(typ, left, right, cond, buildLeft, keep, &allPairs{})
}

// allPairs offers every build row as a candidate for every probe row.
type allPairs struct {
	buildRows, probeRows int
	probeRow, buildRow   int // the next pair
}

func (m *allPairs) setBuild(_ context.Context, build arrow.RecordBatch) error {
	m.buildRows = int(build.NumRows())
	return nil
}

func (m *allPairs) fork() matcher { return &allPairs{buildRows: m.buildRows} }

func (m *allPairs) setProbe(_ context.Context, probe arrow.RecordBatch) error {
	m.probeRows, m.probeRow, m.buildRow = int(probe.NumRows()), 0, 0
	return nil
}

func (m *allPairs) next(p *pairs, max int) bool {
	if m.buildRows == 0 {
		return true
	}
	for len(p.probe) < max && m.probeRow < m.probeRows {
		p.add(int32(m.probeRow), int32(m.buildRow))
		if m.buildRow++; m.buildRow == m.buildRows {
			m.probeRow, m.buildRow = m.probeRow+1, 0
		}
	}
	return m.probeRow >= m.probeRows
}
