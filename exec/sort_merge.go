package exec

import (
	"context"
	"errors"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakesql/lakesql/exec/expr"
	"github.com/lakesql/lakesql/planner"
)

// A sort whose input passes its share of the memory limit sorts it in
// runs: each run is sorted in memory and written to a spill file, and the
// runs are then merged, holding one batch of each in memory.

// sortRun is one sorted run being merged: its reader and current batch.
type sortRun struct {
	file  *spillFile
	r     *ipc.Reader
	batch arrow.RecordBatch // nil once the run is used up
	keys  []arrow.Array     // the sort keys of batch
	row   int               // the next row of batch
}

// runMerge merges sorted runs. Between equal keys the earlier run goes
// first, which keeps the sort stable: the runs hold consecutive stretches
// of the input, in order.
type runMerge struct {
	keys []planner.SortKey
	runs []*sortRun
	// orders[a][b] caches the comparator of run a's current batch against
	// run b's; a run's row and column go when its batch changes.
	orders [][]rowOrder
}

// segment is a stretch of consecutive rows of one run's batch in the
// output.
type segment struct {
	batch      arrow.RecordBatch
	start, end int
}

func newRunMerge(ctx context.Context, keys []planner.SortKey, files []*spillFile) (*runMerge, error) {
	m := &runMerge{keys: keys, orders: make([][]rowOrder, len(files))}
	for i := range m.orders {
		m.orders[i] = make([]rowOrder, len(files))
	}
	for i, f := range files {
		r, err := f.reader(allocator(ctx))
		if err == nil {
			m.runs = append(m.runs, &sortRun{file: f, r: r})
			err = m.advance(ctx, i)
		}
		if err != nil {
			m.close()
			for _, rest := range files[len(m.runs):] {
				rest.close()
			}
			return nil, err
		}
	}
	return m, nil
}

// advance loads run i's next batch. The previous batch is not released:
// the output being built may hold a segment of it.
func (m *runMerge) advance(ctx context.Context, i int) error {
	run := m.runs[i]
	expr.ReleaseArrays(run.keys)
	run.batch, run.keys, run.row = nil, nil, 0
	clear(m.orders[i])
	for _, row := range m.orders {
		row[i] = nil
	}
	for run.r.Next() {
		b := run.r.RecordBatch()
		if b.NumRows() == 0 {
			continue
		}
		b.Retain()
		keys, err := evalSortKeys(ctx, m.keys, b, allocator(ctx))
		if err != nil {
			b.Release()
			return err
		}
		run.batch, run.keys = b, keys
		return nil
	}
	if err := run.r.Err(); err != nil && !errors.Is(err, context.Canceled) {
		return err
	}
	return nil
}

// order compares the current row of run a with that of run b.
func (m *runMerge) order(a, b int) (int, error) {
	cmp := m.orders[a][b]
	if cmp == nil {
		var err error
		if cmp, err = newRowOrder(m.keys, m.runs[a].keys, m.runs[b].keys); err != nil {
			return 0, err
		}
		m.orders[a][b] = cmp
	}
	return cmp(m.runs[a].row, m.runs[b].row), nil
}

// next returns the next BatchSize rows in order, nil after the last.
func (m *runMerge) next(ctx context.Context) (arrow.RecordBatch, error) {
	var segs []segment
	var held []arrow.RecordBatch // used-up batches the segments still read
	defer func() { releaseBatches(held) }()
	for rows := 0; rows < BatchSize; rows++ {
		best := -1
		for i, run := range m.runs {
			if run.batch == nil {
				continue
			}
			if best < 0 {
				best = i
				continue
			}
			c, err := m.order(i, best)
			if err != nil {
				return nil, err
			}
			if c < 0 {
				best = i
			}
		}
		if best < 0 {
			break
		}
		run := m.runs[best]
		if n := len(segs); n > 0 && segs[n-1].batch == run.batch && segs[n-1].end == run.row {
			segs[n-1].end++
		} else {
			segs = append(segs, segment{batch: run.batch, start: run.row, end: run.row + 1})
		}
		run.row++
		if run.row == int(run.batch.NumRows()) {
			held = append(held, run.batch)
			if err := m.advance(ctx, best); err != nil {
				return nil, err
			}
		}
	}
	if len(segs) == 0 {
		return nil, nil
	}
	return concatSegments(allocator(ctx), segs)
}

// concatSegments copies the segments' rows into one batch, in order.
func concatSegments(mem memory.Allocator, segs []segment) (arrow.RecordBatch, error) {
	schema := segs[0].batch.Schema()
	cols := make([]arrow.Array, schema.NumFields())
	defer expr.ReleaseArrays(cols)
	parts := make([]arrow.Array, len(segs))
	rows := 0
	for _, s := range segs {
		rows += s.end - s.start
	}
	for c := range cols {
		for i, s := range segs {
			parts[i] = array.NewSlice(s.batch.Column(c), int64(s.start), int64(s.end))
		}
		col, err := array.Concatenate(parts, mem)
		expr.ReleaseArrays(parts)
		if err != nil {
			return nil, err
		}
		cols[c] = col
	}
	return array.NewRecordBatch(schema, cols, int64(rows)), nil
}

func (m *runMerge) close() {
	for _, run := range m.runs {
		expr.ReleaseArrays(run.keys)
		if run.batch != nil {
			run.batch.Release()
		}
		run.r.Release()
		run.file.close()
	}
	m.runs = nil
}
