package exec

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakesql/lakesql/planner"
)

// Semi and anti joins run on the join operator (join.go): candidate pairs
// only mark which left rows found a match under the keys and condition, and
// the left rows are emitted by that mark, each at most once, without right
// columns. With the right side built, a probe batch's left rows are emitted
// when the batch is exhausted; with the left side built, they are emitted at
// the end, as outer joins emit unmatched build rows.

// leftOnly reports whether the join is a semi or anti join.
func (j *join) leftOnly() bool {
	return j.typ == planner.JoinSemi || j.typ == planner.JoinAnti
}

// probeAntiLeft reports whether the probe side must be read even when the
// build side is empty: an anti join probing with its left rows keeps them all.
func (j *join) probeAntiLeft() bool {
	return j.typ == planner.JoinAnti && !j.buildLeft
}

// leftColumns marks the first nl of n joined columns: a semi or anti join's
// output.
func leftColumns(nl, n int) []bool {
	keep := make([]bool, n)
	for i := range nl {
		keep[i] = true
	}
	return keep
}

// leftRowsByMatch emits the left rows in [from, to) of the side matched
// describes that a semi join keeps (matched) or an anti join keeps (not
// matched); isBuild says whether that side is the build side. It returns nil
// when no row qualifies.
func (j *join) leftRowsByMatch(ctx context.Context, matched []bool, from, to int, isBuild bool) (arrow.RecordBatch, error) {
	want := j.typ == planner.JoinSemi
	var rows []int32
	for i := from; i < to; i++ {
		if matched[i] == want {
			rows = append(rows, int32(i))
		}
	}
	if len(rows) == 0 {
		return nil, nil
	}
	if isBuild {
		return j.assemble(ctx, nullRows(len(rows)), rows, j.keep)
	}
	return j.assemble(ctx, rows, nullRows(len(rows)), j.keep)
}
