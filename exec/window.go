package exec

import (
	"cmp"
	"context"
	"fmt"
	"iter"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakesql/lakesql/exec/expr"
	"github.com/lakesql/lakesql/planner"
)

// windowOp computes window functions. It materializes its input, arranges
// the rows once per distinct PARTITION BY/ORDER BY (windowRows), computes
// each call with typed loops over that arrangement and emits the input rows
// in their input order with one result column per call appended.
type windowOp struct {
	input  Operator
	calls  []*planner.WindowCall
	schema *arrow.Schema

	out arrow.RecordBatch // the result, emitted in BatchSize slices
	pos int64

	// grace runs the window once its input spilled; spillLevel is how
	// often the rows it computes were partitioned (window_spill.go).
	grace      *windowGrace
	spillLevel int
}

// NewWindow returns an operator appending the results of calls, named
// names, to the rows of input.
func NewWindow(input Operator, calls []*planner.WindowCall, names []string) Operator {
	fields := slices.Clone(input.Schema().Fields())
	for i, c := range calls {
		fields = append(fields, arrow.Field{Name: names[i], Type: c.T, Nullable: true})
	}
	return &windowOp{input: input, calls: calls, schema: arrow.NewSchema(fields, nil)}
}

func buildWindow(ctx context.Context, p *planner.Window, env *Env) (Operator, error) {
	input, err := Build(ctx, p.Input, env)
	if err != nil {
		return nil, err
	}
	calls := make([]*planner.WindowCall, len(p.Calls))
	for i, c := range p.Calls {
		calls[i], _ = c.MapExprs(func(e planner.Expr) (planner.Expr, error) { return prepareSubqueries(e, env), nil })
	}
	return NewWindow(input, calls, p.Names), nil
}

func (w *windowOp) Schema() *arrow.Schema { return w.schema }

func (w *windowOp) Open(ctx context.Context) error {
	w.release()
	return w.input.Open(ctx)
}

func (w *windowOp) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if w.out == nil && w.grace == nil {
		out, err := w.compute(ctx)
		if err != nil {
			return nil, err
		}
		w.out = out
	}
	if w.grace != nil {
		return w.grace.next(ctx)
	}
	if w.pos >= w.out.NumRows() {
		return nil, nil
	}
	end := min(w.pos+BatchSize, w.out.NumRows())
	batch := w.out.NewSlice(w.pos, end)
	w.pos = end
	return batch, nil
}

// compute consumes the input and returns all output rows.
func (w *windowOp) compute(ctx context.Context) (arrow.RecordBatch, error) {
	mem := allocator(ctx)
	all, err := w.readAll(ctx, mem)
	if err != nil || all == nil { // nil: the input spilled
		return nil, err
	}
	defer all.Release()
	cols := slices.Clone(all.Columns())
	for _, c := range cols {
		c.Retain()
	}
	defer func() { expr.ReleaseArrays(cols) }() // the result columns too
	arranged := map[string]*windowRows{}
	defer func() {
		for _, rows := range arranged {
			rows.release()
		}
	}()
	for _, call := range w.calls {
		key := call.SpecKey()
		rows, ok := arranged[key]
		if !ok {
			if rows, err = arrangeRows(ctx, call, all, mem); err != nil {
				return nil, err
			}
			arranged[key] = rows
		}
		if call.Frame.Unit == planner.GroupsFrame {
			rows.numberGroups()
		}
		col, err := computeWindowCall(ctx, call, rows, all, mem)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", call, err)
		}
		cols = append(cols, col)
	}
	return array.NewRecordBatch(w.schema, cols, all.NumRows()), nil
}

// readAll concatenates the whole input into one batch; or, when it spills,
// leaves it in w.grace's files and returns nil.
func (w *windowOp) readAll(ctx context.Context, mem memory.Allocator) (arrow.RecordBatch, error) {
	var batches []arrow.RecordBatch
	defer func() { releaseBatches(batches) }()
	spill := w.newInputSpill()
	for {
		b, err := w.input.Next(ctx)
		if err != nil {
			return nil, err
		}
		if b == nil {
			break
		}
		if batches, err = spill.check(ctx, append(batches, b)); err != nil {
			return nil, err
		}
	}
	if spill.spilling() {
		rest := batches
		batches = nil
		w.grace = &windowGrace{w: w, parts: spill.parts}
		return nil, spill.flush(ctx, rest)
	}
	schema := w.input.Schema()
	if len(batches) == 0 { // concatenation needs at least one batch
		cols := make([]arrow.Array, schema.NumFields())
		defer expr.ReleaseArrays(cols)
		for i, f := range schema.Fields() {
			cols[i] = expr.NullArray(mem, f.Type, 0)
		}
		return array.NewRecordBatch(schema, cols, 0), nil
	}
	return concatBatches(mem, schema, batches)
}

func (w *windowOp) release() {
	if w.grace != nil {
		w.grace.close()
		w.grace = nil
	}
	if w.out != nil {
		w.out.Release()
		w.out = nil
	}
	w.pos = 0
}

func (w *windowOp) Close() error {
	w.release()
	return w.input.Close()
}

// windowRows arranges the rows of a batch for one PARTITION BY/ORDER BY:
// positions 0…n-1 list the rows partition after partition, each partition
// in ORDER BY order. Window functions compute a value per position and
// store it at the position's input row.
type windowRows struct {
	perm   []int32 // the input row at each position
	bounds []int   // partition p holds positions bounds[p] … bounds[p+1]-1
	// peerLo and peerHi delimit the peer group of each position: the
	// positions of its partition with equal ORDER BY keys (all of them
	// without ORDER BY).
	peerLo, peerHi []int32
	// group numbers the peer groups of the whole arrangement in order,
	// and groupStart[g] is the first position of group g (then one past
	// the last position): GROUPS offsets count groups. Set by numberGroups.
	group, groupStart []int32
	// reaches, for the RANGE bounds with an offset (start, end), compares
	// the ORDER BY key of input row i with the value the bound reaches from
	// input row j, in the ORDER BY's order; nil for other bounds.
	reaches [2]rowOrder
	// rangeArrays hold what reaches reads.
	rangeArrays []arrow.Array
}

// release frees what the arrangement holds.
func (r *windowRows) release() { expr.ReleaseArrays(r.rangeArrays) }

// arrangeRange sets r.reaches for a frame with RANGE offsets, evaluating
// the key and the bounds' values over batch.
func (r *windowRows) arrangeRange(ctx context.Context, call *planner.WindowCall, batch arrow.RecordBatch, mem memory.Allocator) error {
	f := call.Frame
	key, err := expr.Eval(ctx, f.RangeKey, batch, mem)
	if err != nil {
		return fmt.Errorf("ORDER BY %s: %w", f.RangeKey, err)
	}
	r.rangeArrays = append(r.rangeArrays, key)
	order := []planner.SortKey{{Expr: f.RangeKey, Desc: call.OrderBy[0].Desc, NullsFirst: call.OrderBy[0].NullsFirst}}
	for i, b := range []planner.WindowBound{f.Start, f.End} {
		if b.Value == nil {
			continue
		}
		reached, err := expr.Eval(ctx, b.Value, batch, mem)
		if err != nil {
			return fmt.Errorf("RANGE %s: %w", b, err)
		}
		r.rangeArrays = append(r.rangeArrays, reached)
		if r.reaches[i], err = newRowOrder(order, []arrow.Array{key}, []arrow.Array{reached}); err != nil {
			return err
		}
	}
	return nil
}

// partitions yields the position range [lo, hi) of every partition.
func (r *windowRows) partitions() iter.Seq2[int, int] {
	return func(yield func(int, int) bool) {
		for p := 0; p+1 < len(r.bounds); p++ {
			if !yield(r.bounds[p], r.bounds[p+1]) {
				return
			}
		}
	}
}

// arrangeRows groups the rows of batch by the call's partition keys with a
// hash table (partitions need grouping, not ordering), then sorts each
// partition by the ORDER BY keys and finds the peer groups.
func arrangeRows(ctx context.Context, call *planner.WindowCall, batch arrow.RecordBatch, mem memory.Allocator) (*windowRows, error) {
	n := int(batch.NumRows())
	r := &windowRows{perm: make([]int32, n), peerLo: make([]int32, n), peerHi: make([]int32, n)}
	if err := r.partition(ctx, call.PartitionBy, batch, mem); err != nil {
		return nil, err
	}
	same := func(i, j int) bool { return true } // without ORDER BY a partition is one peer group
	if len(call.OrderBy) > 0 {
		keys, err := evalSortKeys(ctx, call.OrderBy, batch, mem)
		if err != nil {
			return nil, err
		}
		defer expr.ReleaseArrays(keys)
		order, err := newRowOrder(call.OrderBy, keys, keys)
		if err != nil {
			return nil, err
		}
		// Ties fall back to the input row, which keeps peers in input order
		// like a stable sort, with the faster unstable one.
		byKeys := func(a, b int32) int {
			if c := order(int(a), int(b)); c != 0 {
				return c
			}
			return cmp.Compare(a, b)
		}
		for lo, hi := range r.partitions() {
			slices.SortFunc(r.perm[lo:hi], byKeys)
		}
		same = func(i, j int) bool { return order(i, j) == 0 }
	}
	r.findPeers(same)
	if call.Frame.RangeKey != nil {
		if err := r.arrangeRange(ctx, call, batch, mem); err != nil {
			r.release()
			return nil, err
		}
	}
	return r, nil
}

// partition fills perm with the rows grouped by partition key, in input
// order within a partition (a counting sort by group id), and sets bounds.
func (r *windowRows) partition(ctx context.Context, partitionBy []planner.Expr, batch arrow.RecordBatch, mem memory.Allocator) error {
	n := len(r.perm)
	if len(partitionBy) == 0 {
		for i := range r.perm {
			r.perm[i] = int32(i)
		}
		r.bounds = []int{0, n}
		return nil
	}
	keys := make([]arrow.Array, len(partitionBy))
	defer expr.ReleaseArrays(keys)
	types := make([]arrow.DataType, len(partitionBy))
	for i, p := range partitionBy {
		var err error
		if keys[i], err = expr.Eval(ctx, p, batch, mem); err != nil {
			return fmt.Errorf("PARTITION BY %s: %w", p, err)
		}
		types[i] = p.Type()
	}
	table, err := newGroupTable(types)
	if err != nil {
		return fmt.Errorf("PARTITION BY: %w", err)
	}
	gids := table.insert(keys, nil)
	r.bounds = make([]int, table.len()+1)
	for _, g := range gids {
		r.bounds[g+1]++
	}
	for p := 1; p < len(r.bounds); p++ {
		r.bounds[p] += r.bounds[p-1]
	}
	next := slices.Clone(r.bounds[:len(r.bounds)-1])
	for row, g := range gids {
		r.perm[next[g]] = int32(row)
		next[g]++
	}
	return nil
}

// findPeers sets peerLo and peerHi; same reports whether two input rows
// have equal ORDER BY keys.
func (r *windowRows) findPeers(same func(i, j int) bool) {
	for lo, hi := range r.partitions() {
		start := lo
		for k := lo; k < hi; k++ {
			if k > lo && !same(int(r.perm[k-1]), int(r.perm[k])) {
				start = k
			}
			r.peerLo[k] = int32(start)
		}
		end := hi
		for k := hi - 1; k >= lo; k-- {
			r.peerHi[k] = int32(end)
			if int(r.peerLo[k]) == k {
				end = k
			}
		}
	}
}
