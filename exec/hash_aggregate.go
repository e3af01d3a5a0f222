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

	out arrow.RecordBatch // the result, emitted in BatchSize slices
	pos int64
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
	if h.out == nil {
		out, err := h.aggregate(ctx)
		if err != nil {
			return nil, err
		}
		h.out = out
	}
	if h.pos >= h.out.NumRows() {
		return nil, nil
	}
	end := min(h.pos+BatchSize, h.out.NumRows())
	batch := h.out.NewSlice(h.pos, end)
	h.pos = end
	return batch, nil
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
	return st, nil
}

// add folds one input batch into the state.
func (st *aggState) add(ctx context.Context, batch arrow.RecordBatch, mem memory.Allocator) error {
	if err := st.assignGroups(ctx, batch, mem); err != nil {
		return err
	}
	args := expr.NewBatchEvaluator(ctx, batch, mem)
	defer args.Release()
	for i, c := range st.h.calls {
		var arg arrow.Array
		if c.Arg != nil {
			var err error
			if arg, err = args.Eval(c.Arg); err != nil {
				return fmt.Errorf("%s: %w", c, err)
			}
		}
		err := st.accs[i].update(ctx, arg, st.gids, st.groups)
		if arg != nil {
			arg.Release()
		}
		if err != nil {
			return fmt.Errorf("%s: %w", c, err)
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
	h.pos = 0
}

func (h *hashAggregate) Close() error {
	h.release()
	return h.input.Close()
}
