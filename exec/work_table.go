package exec

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/sql"
)

// workTableOp reads, in a recursive WITH query's step, the rows of the
// previous round, which the recursiveCTE above it keeps in env.
type workTableOp struct {
	p      *planner.WorkTable
	env    *Env
	schema *arrow.Schema
	rows   []arrow.RecordBatch
}

func buildWorkTable(p *planner.WorkTable, env *Env) Operator {
	return &workTableOp{p: p, env: env, schema: ArrowSchema(p.Schema())}
}

func (w *workTableOp) Schema() *arrow.Schema { return w.schema }

func (w *workTableOp) Open(ctx context.Context) error {
	w.rows = w.env.workTable(w.p.CTE)
	return nil
}

func (w *workTableOp) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if len(w.rows) == 0 {
		return nil, nil
	}
	b := w.rows[0]
	w.rows = w.rows[1:]
	b.Retain()
	return b, nil
}

func (w *workTableOp) Close() error {
	w.rows = nil
	return nil
}

// setWorkTable makes rows the previous round of the recursive WITH query
// cte, releasing the round before.
func (e *Env) setWorkTable(cte *sql.CTE, rows []arrow.RecordBatch) {
	if old, ok := e.workTables.Load(cte); ok {
		releaseBatches(old.([]arrow.RecordBatch))
	}
	if rows == nil {
		e.workTables.Delete(cte)
		return
	}
	e.workTables.Store(cte, rows)
}

// workTable is the previous round of the recursive WITH query cte.
func (e *Env) workTable(cte *sql.CTE) []arrow.RecordBatch {
	rows, _ := e.workTables.Load(cte)
	batches, _ := rows.([]arrow.RecordBatch)
	return batches
}
