package exec

import (
	"context"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakesql/lakesql/exec/expr"
	"github.com/lakesql/lakesql/planner"
)

// topN returns the first rows of its input in key order while keeping only
// limit+offset rows: each batch's rows that beat the current last kept row
// are narrowed to the batch's best k with a heap, then merged with the kept
// rows. On ties earlier input rows win, so the result equals a stable sort
// followed by LIMIT.
type topN struct {
	input         Operator
	keys          []planner.SortKey
	limit, offset int64

	kept    arrow.RecordBatch // the best rows so far, sorted; nil before the first
	done    bool
	emitted int64
}

// NewTopN returns an operator producing rows offset … offset+limit-1 of input
// ordered by keys.
func NewTopN(input Operator, keys []planner.SortKey, limit, offset int64) Operator {
	return &topN{input: input, keys: keys, limit: limit, offset: offset}
}

func (t *topN) Schema() *arrow.Schema { return t.input.Schema() }

func (t *topN) Open(ctx context.Context) error {
	t.release()
	return t.input.Open(ctx)
}

func (t *topN) k() int { return int(planner.RowsThrough(t.limit, t.offset)) }

func (t *topN) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if !t.done {
		if err := t.consume(ctx); err != nil {
			return nil, err
		}
		t.done = true
		t.emitted = t.offset
	}
	if t.kept == nil || t.emitted >= t.kept.NumRows() {
		return nil, nil
	}
	end := min(t.emitted+BatchSize, t.kept.NumRows())
	out := t.kept.NewSlice(t.emitted, end)
	t.emitted = end
	return out, nil
}

// consume reads the whole input, keeping the best k rows.
func (t *topN) consume(ctx context.Context) error {
	if t.k() == 0 {
		return nil
	}
	mem := allocator(ctx)
	for {
		batch, err := t.input.Next(ctx)
		if err != nil || batch == nil {
			return err
		}
		err = t.add(ctx, batch, mem)
		batch.Release()
		if err != nil {
			return err
		}
	}
}

// add merges the rows of batch that can be in the result into t.kept.
func (t *topN) add(ctx context.Context, batch arrow.RecordBatch, mem memory.Allocator) error {
	rows, err := t.candidates(ctx, batch, mem)
	if err != nil || len(rows) == 0 {
		return err
	}
	taken, err := gatherRows(WithAllocator(ctx, mem), batch, rows)
	if err != nil {
		return err
	}
	defer taken.Release()
	merged := []arrow.RecordBatch{taken}
	if t.kept != nil {
		// Kept rows come first: they are earlier in the input and win ties.
		merged = []arrow.RecordBatch{t.kept, taken}
	}
	all, err := concatBatches(mem, batch.Schema(), merged)
	if err != nil {
		return err
	}
	defer all.Release()
	perm, err := sortedRows(ctx, t.keys, all, mem)
	if err != nil {
		return err
	}
	kept, err := gatherRows(WithAllocator(ctx, mem), all, perm[:min(len(perm), t.k())])
	if err != nil {
		return err
	}
	t.releaseKept()
	t.kept = kept
	return nil
}

// candidates returns, in input order, the at most k rows of batch that sort
// before the last kept row (all rows while fewer than k are kept).
func (t *topN) candidates(ctx context.Context, batch arrow.RecordBatch, mem memory.Allocator) ([]int32, error) {
	keys, err := evalSortKeys(ctx, t.keys, batch, mem)
	if err != nil {
		return nil, err
	}
	defer expr.ReleaseArrays(keys)
	self, err := newRowOrder(t.keys, keys, keys)
	if err != nil {
		return nil, err
	}
	beats := func(int) bool { return true }
	if t.kept != nil && int(t.kept.NumRows()) == t.k() {
		last := t.kept.NewSlice(t.kept.NumRows()-1, t.kept.NumRows())
		defer last.Release()
		lastKeys, err := evalSortKeys(ctx, t.keys, last, mem)
		if err != nil {
			return nil, err
		}
		defer expr.ReleaseArrays(lastKeys)
		vsLast, err := newRowOrder(t.keys, keys, lastKeys)
		if err != nil {
			return nil, err
		}
		beats = func(i int) bool { return vsLast(i, 0) < 0 }
	}
	h := rowHeap{worse: func(a, b int32) bool {
		if c := self(int(a), int(b)); c != 0 {
			return c > 0
		}
		return a > b
	}}
	for i := range int(batch.NumRows()) {
		if beats(i) {
			h.offer(int32(i), t.k())
		}
	}
	return h.sortedRows(), nil
}

// rowHeap keeps the best rows offered to it with the worst on top, so a
// better row replaces it in O(log k).
type rowHeap struct {
	rows  []int32
	worse func(a, b int32) bool
}

func (h *rowHeap) offer(row int32, k int) {
	if len(h.rows) < k {
		h.rows = append(h.rows, row)
		h.up(len(h.rows) - 1)
		return
	}
	if h.worse(h.rows[0], row) {
		h.rows[0] = row
		h.down(0)
	}
}

func (h *rowHeap) up(i int) {
	for i > 0 {
		parent := (i - 1) / 2
		if !h.worse(h.rows[i], h.rows[parent]) {
			return
		}
		h.rows[i], h.rows[parent] = h.rows[parent], h.rows[i]
		i = parent
	}
}

func (h *rowHeap) down(i int) {
	for {
		worst, l, r := i, 2*i+1, 2*i+2
		if l < len(h.rows) && h.worse(h.rows[l], h.rows[worst]) {
			worst = l
		}
		if r < len(h.rows) && h.worse(h.rows[r], h.rows[worst]) {
			worst = r
		}
		if worst == i {
			return
		}
		h.rows[i], h.rows[worst] = h.rows[worst], h.rows[i]
		i = worst
	}
}

// sortedRows returns the kept rows in input order (which the merge's stable
// sort relies on for ties).
func (h *rowHeap) sortedRows() []int32 {
	slices.Sort(h.rows)
	return h.rows
}

func (t *topN) releaseKept() {
	if t.kept != nil {
		t.kept.Release()
		t.kept = nil
	}
}

func (t *topN) release() {
	t.releaseKept()
	t.done, t.emitted = false, 0
}

func (t *topN) Close() error {
	t.release()
	return t.input.Close()
}
