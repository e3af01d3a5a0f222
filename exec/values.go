package exec

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/lakesql/lakesql/exec/expr"
	"github.com/lakesql/lakesql/planner"
)

// values produces constant rows (INSERT … VALUES, SELECT without FROM).
type values struct {
	schema *arrow.Schema
	rows   [][]planner.Expr
	done   bool
}

// NewValues returns an operator producing one row per element of rows, whose
// expressions (which may not reference columns) are converted to the types
// of schema. Each expression is evaluated once.
func NewValues(schema *arrow.Schema, rows [][]planner.Expr) Operator {
	return &values{schema: schema, rows: rows}
}

func (v *values) Schema() *arrow.Schema { return v.schema }

func (v *values) Open(context.Context) error {
	v.done = false
	return nil
}

// Next returns all rows in one batch: VALUES lists are small.
func (v *values) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if v.done || len(v.rows) == 0 {
		return nil, nil
	}
	v.done = true
	mem := allocator(ctx)
	// Expressions are evaluated over a batch of one row with no columns.
	one := array.NewRecordBatch(arrow.NewSchema(nil, nil), nil, 1)
	defer one.Release()
	cols := make([]arrow.Array, v.schema.NumFields())
	defer expr.ReleaseArrays(cols)
	for c, field := range v.schema.Fields() {
		cells := make([]arrow.Array, len(v.rows))
		defer expr.ReleaseArrays(cells)
		for r, row := range v.rows {
			if len(row) != len(cols) {
				return nil, fmt.Errorf("VALUES row %d has %d values, expected %d", r+1, len(row), len(cols))
			}
			e := row[c]
			if !arrow.TypeEqual(e.Type(), field.Type) {
				e = &planner.Cast{X: e, T: field.Type}
			}
			cell, err := expr.Eval(ctx, e, one, mem)
			if err != nil {
				return nil, fmt.Errorf("VALUES row %d, column %s: %w", r+1, field.Name, err)
			}
			cells[r] = cell
		}
		col, err := array.Concatenate(cells, mem)
		if err != nil {
			return nil, fmt.Errorf("VALUES column %s: %w", field.Name, err)
		}
		cols[c] = col
	}
	return array.NewRecordBatch(v.schema, cols, int64(len(v.rows))), nil
}

func (v *values) Close() error { return nil }
