package exec

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakesql/lakesql/exec/expr"
	"github.com/lakesql/lakesql/planner"
)

// hashAggregate groups its input by key expressions in a groupTable and folds
// each batch into typed per-group accumulators. It consumes its whole input
// on the first Next; memory grows with the number of groups, not of rows.
type hashAggregate struct {
	input   Operator
	groupBy []planner.Expr
	calls   []*planner.AggCall
	schema  *arrow.Schema
	// where, when set, is the predicate of a filter between the input and
	// the aggregation, tested here (hash_aggregate_where.go); masksWhere
	// says whether every call may be given masked arguments.
	where      planner.Expr
	masksWhere bool

	started bool
	out     arrow.RecordBatch // a batch of results, emitted in BatchSize slices
	pos     int64
	spilled *spilled // the partitions still to aggregate when the input spilled
	what    string   // names it in spill messages: "" for GROUP BY, or DISTINCT's
}

// NewHashAggregate returns an operator with one row per distinct value of
// groupBy over input (exactly one row when groupBy is empty): the group's
// keys, then the aggregates calls, named names.
func NewHashAggregate(input Operator, groupBy []planner.Expr, calls []*planner.AggCall, names []string) Operator {
	fields := make([]arrow.Field, 0, len(names))
	for i, g := range groupBy {
		fields = append(fields, arrow.Field{Name: names[i], Type: g.Type(), Nullable: true})
	}
	for i, c := range calls {
		fields = append(fields, arrow.Field{Name: names[len(groupBy)+i], Type: c.T, Nullable: true})
	}
	return &hashAggregate{input: input, groupBy: groupBy, calls: calls, schema: arrow.NewSchema(fields, nil)}
}

func (h *hashAggregate) Schema() *arrow.Schema { return h.schema }

func (h *hashAggregate) Open(ctx context.Context) error {
	h.release()
	return h.input.Open(ctx)
}

func (h *hashAggregate) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if !h.started {
		h.started = true
		out, err := h.aggregate(ctx)
		if err != nil {
			return nil, err
		}
		h.out = out
	}
	for h.out != nil {
		if h.pos < h.out.NumRows() {
			end := min(h.pos+BatchSize, h.out.NumRows())
			batch := h.out.NewSlice(h.pos, end)
			h.pos = end
			return batch, nil
		}
		h.out.Release()
		h.out, h.pos = nil, 0
		if h.spilled != nil {
			out, err := h.spilled.next(ctx, allocator(ctx))
			if err != nil {
				return nil, err
			}
			h.out = out
		}
	}
	return nil, nil
}

// aggregate consumes the input and returns all result rows.
func (h *hashAggregate) aggregate(ctx context.Context) (arrow.RecordBatch, error) {
	mem := allocator(ctx)
	st, err := h.newState()
	if err != nil {
		return nil, err
	}
	parallelNow := parallelFromStart(h.input)
	for rows := 0; ; {
		if (parallelNow || rows >= parallelAfterRows) && h.parallel(st) {
			return h.aggregateInParallel(ctx, st, mem)
		}
		batch, err := h.input.Next(ctx)
		if err != nil {
			return nil, err
		}
		if batch == nil {
			break
		}
		rows += int(batch.NumRows())
		err = st.add(ctx, batch, mem)
		batch.Release()
		if err != nil {
			return nil, err
		}
	}
	return h.finish(ctx, []*aggState{st}, mem)
}

// finish returns the result of states that hold every row (merged into
// the first), or, when they spilled, starts aggregating the spilled
// partitions and returns their first result.
func (h *hashAggregate) finish(ctx context.Context, states []*aggState, mem memory.Allocator) (arrow.RecordBatch, error) {
	for _, st := range states {
		if st.spill == nil {
			continue
		}
		s, err := h.startSpilled(ctx, states, mem)
		if err != nil {
			return nil, err
		}
		h.spilled = s
		return s.next(ctx, mem)
	}
	st := states[0]
	for _, ws := range states[1:] {
		if err := st.merge(ctx, ws, mem); err != nil {
			return nil, err
		}
	}
	return st.result(mem), nil
}

// result is the state's groups as the operator's output.
func (st *aggState) result(mem memory.Allocator) arrow.RecordBatch {
	cols := st.results(mem)
	defer expr.ReleaseArrays(cols)
	return array.NewRecordBatch(st.h.schema, cols, int64(st.groups))
}

// aggState is the state of one run: the group table and the accumulators.
type aggState struct {
	h      *hashAggregate
	keys   *groupTable // nil without GROUP BY: every row is in group 0
	accs   []accumulator
	gids   []int32
	groups int
	// passing is scratch: the group ids of a masked batch's passing rows.
	passing []int32
	// spill, once memory ran short, takes the rows of groups the state
	// does not hold (hash_aggregate_spill.go); level is the spill level of
	// the rows the state aggregates, 0 for the input's.
	spill *aggSpill
	level int
}

func (h *hashAggregate) newState() (*aggState, error) {
	st := &aggState{h: h}
	if len(h.groupBy) == 0 {
		st.groups = 1 // a global aggregate has its one row even for no input
	} else {
		types := make([]arrow.DataType, len(h.groupBy))
		for i, g := range h.groupBy {
			types[i] = g.Type()
		}
		var err error
		if st.keys, err = newGroupTable(types); err != nil {
			return nil, fmt.Errorf("GROUP BY: %w", err)
		}
	}
	for _, c := range h.calls {
		acc, err := newAccumulator(c)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", c, err)
		}
		st.accs = append(st.accs, acc)
	}
	shareSums(h.calls, st.accs)
	return st, nil
}

// add folds one input batch into the state.
func (st *aggState) add(ctx context.Context, batch arrow.RecordBatch, mem memory.Allocator) error {
	if st.h.where != nil {
		return st.addWhere(ctx, batch, mem)
	}
	return st.addAll(ctx, batch, mem)
}

// addAll folds every row of a batch into the state.
func (st *aggState) addAll(ctx context.Context, batch arrow.RecordBatch, mem memory.Allocator) error {
	if err := st.closeIfFull(ctx); err != nil {
		return err
	}
	if st.spill != nil {
		return st.addClosed(ctx, batch, mem)
	}
	if err := st.assignGroups(ctx, batch, mem); err != nil {
		return err
	}
	args := expr.NewBatchEvaluator(ctx, batch, mem)
	defer args.Release()
	for i, c := range st.h.calls {
		var arg, cond arrow.Array
		var err error
		if c.Arg != nil {
			if arg, err = args.Eval(c.Arg); err != nil {
				return fmt.Errorf("%s: %w", c, err)
			}
		}
		if c.Filter != nil {
			if cond, err = args.Eval(c.Filter); err != nil {
				expr.ReleaseArrays([]arrow.Array{arg})
				return fmt.Errorf("%s: %w", c, err)
			}
		}
		err = st.updateCall(ctx, i, arg, cond, st.gids, mem)
		expr.ReleaseArrays([]arrow.Array{arg, cond})
		if err != nil {
			return err
		}
	}
	return nil
}

// assignGroups sets st.gids to the batch rows' group ids.
func (st *aggState) assignGroups(ctx context.Context, batch arrow.RecordBatch, mem memory.Allocator) error {
	n := int(batch.NumRows())
	if st.keys == nil {
		st.gids = grow(st.gids[:0], n)
		return nil
	}
	keys := make([]arrow.Array, len(st.h.groupBy))
	defer expr.ReleaseArrays(keys)
	for i, g := range st.h.groupBy {
		var err error
		if keys[i], err = expr.Eval(ctx, g, batch, mem); err != nil {
			return fmt.Errorf("GROUP BY %s: %w", g, err)
		}
	}
	st.gids = st.keys.insert(keys, st.gids)
	st.groups = st.keys.len()
	return nil
}

// results builds the output columns: group keys, then aggregates.
func (st *aggState) results(mem memory.Allocator) []arrow.Array {
	var cols []arrow.Array
	if st.keys != nil {
		cols = st.keys.build(mem)
	}
	for _, acc := range st.accs {
		cols = append(cols, acc.result(mem, st.groups))
	}
	return cols
}

func (h *hashAggregate) release() {
	if h.out != nil {
		h.out.Release()
		h.out = nil
	}
	if h.spilled != nil {
		h.spilled.close()
		h.spilled = nil
	}
	h.pos, h.started = 0, false
}

func (h *hashAggregate) Close() error {
	h.release()
	return h.input.Close()
}
