package exec

import (
	"context"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/lakesql/lakesql/exec/expr"
	"github.com/lakesql/lakesql/planner"
)

// project computes one output column per expression.
type project struct {
	input  Operator
	exprs  []planner.Expr
	schema *arrow.Schema
}

// NewProject returns an operator whose column i is exprs[i] evaluated over
// the rows of input, named names[i].
func NewProject(input Operator, exprs []planner.Expr, names []string) Operator {
	fields := make([]arrow.Field, len(exprs))
	for i, e := range exprs {
		fields[i] = arrow.Field{Name: names[i], Type: e.Type(), Nullable: true}
	}
	return &project{input: input, exprs: exprs, schema: arrow.NewSchema(fields, nil)}
}

func (p *project) Schema() *arrow.Schema { return p.schema }

func (p *project) Open(ctx context.Context) error { return p.input.Open(ctx) }

func (p *project) Next(ctx context.Context) (arrow.RecordBatch, error) {
	batch, err := p.input.Next(ctx)
	if err != nil || batch == nil {
		return nil, err
	}
	defer batch.Release()
	return p.apply(ctx, batch)
}

// run is apply as a row stage.
func (p *project) run(ctx context.Context, batch arrow.RecordBatch, emit func(arrow.RecordBatch) error) error {
	out, err := p.apply(ctx, batch)
	return emitOne(out, err, emit)
}

// apply computes the projection of one batch.
func (p *project) apply(ctx context.Context, batch arrow.RecordBatch) (arrow.RecordBatch, error) {
	cols := make([]arrow.Array, len(p.exprs))
	defer expr.ReleaseArrays(cols)
	ev := expr.NewBatchEvaluator(ctx, batch, allocator(ctx))
	defer ev.Release()
	for i, e := range p.exprs {
		// Evaluation errors already name the expression that failed.
		var err error
		if cols[i], err = ev.Eval(e); err != nil {
			return nil, err
		}
	}
	return array.NewRecordBatch(p.schema, cols, batch.NumRows()), nil
}

func (p *project) source() Operator { return p.input }

func (p *project) pending() bool { return false }

func (p *project) fork() rowStage { return p }

func (p *project) concurrent() bool { return !slices.ContainsFunc(p.exprs, planner.HasSubquery) }

func (p *project) Close() error { return p.input.Close() }
