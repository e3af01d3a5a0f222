package exec

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/sql"
)

// NewHashJoin returns a join of left and right on leftKeys[i] = rightKeys[i]
// (expressions over each side's columns, pairwise of one type) and cond, the
// rest of the ON condition over the output columns (nil for none). It hashes
// the build side (left when buildLeft) and looks up each probe row; NULL keys
// never match.
func NewHashJoin(typ sql.JoinType, left, right Operator, leftKeys, rightKeys []planner.Expr, cond planner.Expr, buildLeft bool) Operator {
	m := &hashMatcher{buildKeys: rightKeys, probeKeys: leftKeys}
	if buildLeft {
		m.buildKeys, m.probeKeys = leftKeys, rightKeys
	}
	return newJoin(typ, left, right, cond, buildLeft, m)
}

// hashMatcher finds candidates by key: a table numbers the distinct build
// keys, and the build rows of one key form a chain (head, then link).
type hashMatcher struct {
	buildKeys, probeKeys []planner.Expr

	table *keyTable
	head  []int32 // per key number: its first build row
	link  []int32 // per build row: the next row with its key, or -1

	probe *rowKeys // the current probe batch's keys
	row   int      // next probe row to look up
	cur   int32    // probe row whose chain is being followed
	chain int32    // next build row of cur's chain, or -1
}

func (m *hashMatcher) setBuild(ctx context.Context, build arrow.RecordBatch) error {
	keys, err := evalKeys(ctx, m.buildKeys, build)
	if err != nil {
		return err
	}
	m.table = newKeyTable()
	m.link = make([]int32, build.NumRows())
	// Rows are chained last to first so that each chain lists its rows in
	// build order.
	for r := len(m.link) - 1; r >= 0; r-- {
		m.link[r] = -1
		if keys.hasNull[r] {
			continue
		}
		id, added := m.table.insert(keys.key(r))
		if added {
			m.head = append(m.head, -1)
		}
		m.link[r], m.head[id] = m.head[id], int32(r)
	}
	return nil
}

func (m *hashMatcher) setProbe(ctx context.Context, probe arrow.RecordBatch) error {
	keys, err := evalKeys(ctx, m.probeKeys, probe)
	if err != nil {
		return err
	}
	m.probe, m.row, m.chain = keys, 0, -1
	return nil
}

func (m *hashMatcher) next(p *pairs, max int) bool {
	n := len(m.probe.hasNull)
	for len(p.probe) < max {
		for m.chain < 0 {
			if m.row >= n {
				return true
			}
			r := m.row
			m.row++
			if m.probe.hasNull[r] {
				continue
			}
			if id := m.table.find(m.probe.key(r)); id >= 0 {
				m.cur, m.chain = int32(r), m.head[id]
			}
		}
		p.add(m.cur, m.chain)
		m.chain = m.link[m.chain]
	}
	return m.row >= n && m.chain < 0
}

// evalKeys evaluates key expressions over batch and encodes them.
func evalKeys(ctx context.Context, exprs []planner.Expr, batch arrow.RecordBatch) (*rowKeys, error) {
	mem := allocator(ctx)
	cols := make([]arrow.Array, len(exprs))
	defer releaseArrays(cols)
	for i, e := range exprs {
		arr, err := Eval(ctx, e, batch, mem)
		if err != nil {
			return nil, fmt.Errorf("join key %s: %w", e, err)
		}
		cols[i] = arr
	}
	return encodeKeys(cols, int(batch.NumRows()))
}
