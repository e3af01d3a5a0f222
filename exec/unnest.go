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

// unnest runs planner.Unnest: per input batch it evaluates the array (or
// map), lists for each output row its input row and element position, and
// gathers the input columns and the elements with one Take each.
type unnest struct {
	input  Operator
	p      *planner.Unnest
	schema *arrow.Schema
}

func buildUnnest(ctx context.Context, p *planner.Unnest, env *Env) (Operator, error) {
	input, err := Build(ctx, p.Input, env)
	if err != nil {
		return nil, err
	}
	return &unnest{input: input, p: p, schema: ArrowSchema(p.Schema())}, nil
}

func (u *unnest) Schema() *arrow.Schema          { return u.schema }
func (u *unnest) Open(ctx context.Context) error { return u.input.Open(ctx) }
func (u *unnest) Close() error                   { return u.input.Close() }

func (u *unnest) Next(ctx context.Context) (arrow.RecordBatch, error) {
	for {
		batch, err := u.input.Next(ctx)
		if err != nil || batch == nil {
			return nil, err
		}
		out, err := u.apply(ctx, batch)
		batch.Release()
		if err != nil || out.NumRows() > 0 {
			return out, err
		}
		out.Release()
	}
}

// run is apply as a row stage.
func (u *unnest) run(ctx context.Context, batch arrow.RecordBatch, emit func(arrow.RecordBatch) error) error {
	out, err := u.apply(ctx, batch)
	return emitOne(out, err, emit)
}

// apply generates the rows of one batch.
func (u *unnest) apply(ctx context.Context, batch arrow.RecordBatch) (arrow.RecordBatch, error) {
	mem := allocator(ctx)
	ev := expr.NewBatchEvaluator(ctx, batch, mem)
	defer ev.Release()
	arr, err := ev.Eval(u.p.List)
	if err != nil {
		return nil, err
	}
	defer arr.Release()
	lists, ok := arr.(array.ListLike)
	if !ok {
		return nil, fmt.Errorf("%s: %s is not an array or map", u.p.Func, arr.DataType())
	}
	// rows[k] is output row k's input row, elems[k] its element (-1: the
	// NULL row of an OUTER generator), pos[k] the element's position.
	var rows, elems, pos []int32
	for i := range int(batch.NumRows()) {
		start, end := int64(0), int64(0)
		if lists.IsValid(i) {
			start, end = lists.ValueOffsets(i)
		}
		if start == end && u.p.Outer {
			rows, elems, pos = append(rows, int32(i)), append(elems, -1), append(pos, -1)
		}
		for j := start; j < end; j++ {
			rows, elems, pos = append(rows, int32(i)), append(elems, int32(j)), append(pos, int32(j-start))
		}
	}
	cols := make([]arrow.Array, 0, u.schema.NumFields())
	defer func() { expr.ReleaseArrays(cols) }()
	for _, c := range batch.Columns() {
		g, err := expr.Take(ctx, mem, c, rows)
		if err != nil {
			return nil, err
		}
		cols = append(cols, g)
	}
	if u.p.Position {
		cols = append(cols, positions(mem, pos, 0, arrow.PrimitiveTypes.Int32))
	}
	var parts []arrow.Array
	switch a := arr.(type) {
	case *array.Map:
		parts = []arrow.Array{a.Keys(), a.Items()}
	case *array.List:
		parts = []arrow.Array{a.ListValues()}
	}
	for _, part := range parts {
		g, err := expr.Take(ctx, mem, part, elems)
		if err != nil {
			return nil, err
		}
		cols = append(cols, g)
	}
	if u.p.Ordinality {
		cols = append(cols, positions(mem, pos, 1, arrow.PrimitiveTypes.Int64))
	}
	out := array.NewRecordBatch(u.schema, cols, int64(len(rows)))
	return out, nil
}

// positions builds the position column: pos plus base, NULL where pos is -1.
func positions(mem memory.Allocator, pos []int32, base int64, t arrow.DataType) arrow.Array {
	b := array.NewBuilder(mem, t)
	defer b.Release()
	b.Reserve(len(pos))
	for _, p := range pos {
		switch {
		case p < 0:
			b.AppendNull()
		case t.ID() == arrow.INT32:
			b.(*array.Int32Builder).UnsafeAppend(p + int32(base))
		default:
			b.(*array.Int64Builder).UnsafeAppend(int64(p) + base)
		}
	}
	return b.NewArray()
}
