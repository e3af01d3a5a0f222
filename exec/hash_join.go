package exec

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakesql/lakesql/exec/expr"
	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/sql"
)

// NewHashJoin returns a join of left and right on leftKeys[i] = rightKeys[i]
// (expressions over each side's columns, pairwise of one type) and cond, the
// rest of the ON condition over the output columns (nil for none). It hashes
// the build side (left when buildLeft) and looks up each probe row; NULL keys
// never match. keep marks the output columns of left's and right's (nil for
// all).
func NewHashJoin(typ sql.JoinType, left, right Operator, leftKeys, rightKeys []planner.Expr, cond planner.Expr, buildLeft bool, keep []bool) Operator {
	m := &hashMatcher{buildKeys: rightKeys, probeKeys: leftKeys}
	if buildLeft {
		m.buildKeys, m.probeKeys = leftKeys, rightKeys
	}
	return newJoin(typ, left, right, cond, buildLeft, keep, m)
}

// hashMatcher finds candidates by key: a table numbers the distinct build
// keys, and the build rows of one key form a chain (head, then link).
type hashMatcher struct {
	buildKeys, probeKeys []planner.Expr

	table *keyTable
	head  []int32 // per key number: its first build row
	link  []int32 // per build row: the next row with its key, or -1

	probe *rowKeys // the current probe batch's keys

	// A single integer key (ints != nil) is looked up as an int64 in ints
	// rather than encoded: probeInts and probeNulls are the probe batch's keys.
	ints       *intKeyTable
	probeInts  []int64
	probeNulls []bool
	probeN     int

	// A single string or binary key (strs != nil) is looked up as itself:
	// probeData and probeOffs hold the probe batch's keys (row i is
	// probeData[probeOffs[i]:probeOffs[i+1]]), probeNulls its NULLs.
	strs      map[string]int32
	probeData []byte
	probeOffs []int32
	// copyData and copyOffs are the reused buffers of computed keys; a
	// viewed key must never be appended to.
	copyData []byte
	copyOffs []int32
	row      int   // next probe row to look up
	cur      int32 // probe row whose chain is being followed
	chain    int32 // next build row of cur's chain, or -1
}

func (m *hashMatcher) setBuild(ctx context.Context, build arrow.RecordBatch) error {
	if len(m.buildKeys) == 1 && isIntKind(m.buildKeys[0].Type()) && isIntKind(m.probeKeys[0].Type()) {
		return m.setBuildInts(ctx, build)
	}
	if len(m.buildKeys) == 1 && isVarBytes(m.buildKeys[0].Type()) && isVarBytes(m.probeKeys[0].Type()) {
		return m.setBuildStrs(ctx, build)
	}
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

// setBuildInts is setBuild for a single integer key.
func (m *hashMatcher) setBuildInts(ctx context.Context, build arrow.RecordBatch) error {
	vals, isNull, err := evalIntKey(ctx, m.buildKeys[0], build, nil, nil)
	if err != nil {
		return err
	}
	m.ints = newIntKeyTable(min(len(vals), 1<<16))
	m.link = make([]int32, build.NumRows())
	for r := len(m.link) - 1; r >= 0; r-- {
		m.link[r] = -1
		if isNull[r] {
			continue
		}
		id, added := m.ints.insert(vals[r])
		if added {
			m.head = append(m.head, -1)
		}
		m.link[r], m.head[id] = m.head[id], int32(r)
	}
	return nil
}

func (m *hashMatcher) fork() matcher {
	return &hashMatcher{buildKeys: m.buildKeys, probeKeys: m.probeKeys, table: m.table, head: m.head, link: m.link, ints: m.ints, strs: m.strs}
}

func (m *hashMatcher) setProbe(ctx context.Context, probe arrow.RecordBatch) error {
	if m.ints != nil {
		vals, isNull, err := evalIntKey(ctx, m.probeKeys[0], probe, m.probeInts[:0], m.probeNulls[:0])
		if err != nil {
			return err
		}
		m.probeInts, m.probeNulls, m.probeN = vals, isNull, len(vals)
		m.row, m.chain = 0, -1
		return nil
	}
	if m.strs != nil {
		if err := m.setProbeStrs(ctx, probe); err != nil {
			return err
		}
		m.row, m.chain = 0, -1
		return nil
	}
	keys, err := evalKeys(ctx, m.probeKeys, probe)
	if err != nil {
		return err
	}
	m.probe, m.row, m.chain = keys, 0, -1
	return nil
}

func (m *hashMatcher) next(p *pairs, max int) bool {
	if m.ints != nil {
		return m.nextInts(p, max)
	}
	if m.strs != nil {
		return m.nextStrs(p, max)
	}
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

// nextInts is next for a single integer key.
func (m *hashMatcher) nextInts(p *pairs, max int) bool {
	n := m.probeN
	for len(p.probe) < max {
		for m.chain < 0 {
			if m.row >= n {
				return true
			}
			r := m.row
			m.row++
			if m.probeNulls[r] {
				continue
			}
			if id, ok := m.ints.find(m.probeInts[r]); ok {
				m.cur, m.chain = int32(r), m.head[id]
			}
		}
		p.add(m.cur, m.chain)
		m.chain = m.link[m.chain]
	}
	return m.row >= n && m.chain < 0
}

// setBuildStrs is setBuild for a single string or binary key.
func (m *hashMatcher) setBuildStrs(ctx context.Context, build arrow.RecordBatch) error {
	data, offs, isNull, err := evalBytesKey(ctx, m.buildKeys[0], build, nil, nil, nil)
	if err != nil {
		return err
	}
	m.strs = make(map[string]int32)
	m.link = make([]int32, build.NumRows())
	for r := len(m.link) - 1; r >= 0; r-- {
		m.link[r] = -1
		if isNull[r] {
			continue
		}
		key := data[offs[r]:offs[r+1]]
		id, ok := m.strs[string(key)]
		if !ok {
			id = int32(len(m.head))
			m.strs[string(key)] = id
			m.head = append(m.head, -1)
		}
		m.link[r], m.head[id] = m.head[id], int32(r)
	}
	return nil
}

// setProbeStrs is setProbe for a single string or binary key. A key that
// is a column of the probe batch is viewed in place, as the join holds the
// batch while it matches; a computed key is copied out of its array.
func (m *hashMatcher) setProbeStrs(ctx context.Context, probe arrow.RecordBatch) error {
	if ref, ok := m.probeKeys[0].(*planner.ColumnRef); ok {
		col := expr.ExtensionStorage(probe.Column(ref.Index))
		if isVarBytes(col.DataType()) {
			b, valid := expr.ArrayBytes(col), nullsOf(col)
			m.probeData, m.probeOffs, m.probeN = b.Data(), b.Offsets(), col.Len()
			m.probeNulls = grow(m.probeNulls[:0], m.probeN)
			for i := range m.probeNulls {
				m.probeNulls[i] = valid.isNull(i)
			}
			return nil
		}
	}
	data, offs, isNull, err := evalBytesKey(ctx, m.probeKeys[0], probe, m.copyData[:0], m.copyOffs[:0], m.probeNulls[:0])
	if err != nil {
		return err
	}
	m.copyData, m.copyOffs = data, offs
	m.probeData, m.probeOffs, m.probeNulls, m.probeN = data, offs, isNull, len(isNull)
	return nil
}

// nextStrs is next for a single string or binary key.
func (m *hashMatcher) nextStrs(p *pairs, max int) bool {
	n := m.probeN
	for len(p.probe) < max {
		for m.chain < 0 {
			if m.row >= n {
				return true
			}
			r := m.row
			m.row++
			if m.probeNulls[r] {
				continue
			}
			if id, ok := m.strs[string(m.probeData[m.probeOffs[r]:m.probeOffs[r+1]])]; ok {
				m.cur, m.chain = int32(r), m.head[id]
			}
		}
		p.add(m.cur, m.chain)
		m.chain = m.link[m.chain]
	}
	return m.row >= n && m.chain < 0
}

// isVarBytes reports whether t is a variable-width string or binary type.
func isVarBytes(t arrow.DataType) bool {
	return expr.KindOf(t) == expr.KindBytes && keyWidth(t) < 0
}

// evalBytesKey evaluates a string or binary key over batch and appends its
// values to data (row i is data[offs[i]:offs[i+1]]) and its NULL flags to
// isNull.
func evalBytesKey(ctx context.Context, e planner.Expr, batch arrow.RecordBatch, data []byte, offs []int32, isNull []bool) ([]byte, []int32, []bool, error) {
	arr, err := expr.Eval(ctx, e, batch, allocator(ctx))
	if err != nil {
		return nil, nil, nil, fmt.Errorf("join key %s: %w", e, err)
	}
	defer arr.Release()
	arr = expr.ExtensionStorage(arr)
	if !isVarBytes(arr.DataType()) {
		return nil, nil, nil, fmt.Errorf("join key %s: not a string", e)
	}
	n := arr.Len()
	valid := nullsOf(arr)
	b := expr.ArrayBytes(arr)
	offs = append(offs, int32(len(data)))
	for i := range n {
		null := valid.isNull(i)
		if !null {
			data = append(data, b.At(i)...)
		}
		offs = append(offs, int32(len(data)))
		isNull = append(isNull, null)
	}
	return data, offs, isNull, nil
}

// isIntKind reports whether values of t are integers that equal exactly when
// their int64 widenings do.
func isIntKind(t arrow.DataType) bool {
	switch expr.KindOf(t) {
	case expr.KindInt8, expr.KindInt16, expr.KindInt32, expr.KindInt64:
		return true
	}
	return false
}

// evalIntKey evaluates an integer key over batch, appending its values
// widened to int64 and its NULL flags to vals and isNull.
func evalIntKey(ctx context.Context, e planner.Expr, batch arrow.RecordBatch, vals []int64, isNull []bool) ([]int64, []bool, error) {
	arr, err := expr.Eval(ctx, e, batch, allocator(ctx))
	if err != nil {
		return nil, nil, fmt.Errorf("join key %s: %w", e, err)
	}
	defer arr.Release()
	arr = expr.ExtensionStorage(arr)
	d := arr.Data()
	n := arr.Len()
	valid := nullsOf(arr)
	if expr.KindOf(arr.DataType()) == expr.KindNull || len(d.Buffers()) < 2 || d.Buffers()[1] == nil {
		for range n {
			vals = append(vals, 0)
			isNull = append(isNull, true)
		}
		return vals, isNull, nil
	}
	raw := d.Buffers()[1].Bytes()
	switch expr.KindOf(arr.DataType()) {
	case expr.KindInt8:
		for _, v := range arrow.GetData[int8](raw)[d.Offset():][:n] {
			vals = append(vals, int64(v))
		}
	case expr.KindInt16:
		for _, v := range arrow.GetData[int16](raw)[d.Offset():][:n] {
			vals = append(vals, int64(v))
		}
	case expr.KindInt32:
		for _, v := range arrow.GetData[int32](raw)[d.Offset():][:n] {
			vals = append(vals, int64(v))
		}
	case expr.KindInt64:
		vals = append(vals, arrow.GetData[int64](raw)[d.Offset():][:n]...)
	default:
		return nil, nil, fmt.Errorf("join key %s: not an integer", e)
	}
	for i := range n {
		isNull = append(isNull, valid.isNull(i))
	}
	return vals, isNull, nil
}

// evalKeys evaluates key expressions over batch and encodes them.
func evalKeys(ctx context.Context, exprs []planner.Expr, batch arrow.RecordBatch) (*rowKeys, error) {
	mem := allocator(ctx)
	cols := make([]arrow.Array, len(exprs))
	defer expr.ReleaseArrays(cols)
	for i, e := range exprs {
		arr, err := expr.Eval(ctx, e, batch, mem)
		if err != nil {
			return nil, fmt.Errorf("join key %s: %w", e, err)
		}
		cols[i] = arr
	}
	return encodeKeys(cols, int(batch.NumRows()))
}
