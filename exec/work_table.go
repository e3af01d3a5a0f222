package exec

import (
	"context"
	"fmt"

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

// workRounds is the previous round of a recursive WITH query, and the
// operator computing it.
type workRounds struct {
	owner *recursiveCTE
	rows  []arrow.RecordBatch
}

// claimWorkTable makes r the one operator computing cte's rounds. A second
// one at the same time (a definition read twice that is not materialized)
// would share its work table, so it is refused.
func (e *Env) claimWorkTable(cte *sql.CTE, r *recursiveCTE) error {
	v, loaded := e.workTables.LoadOrStore(cte, &workRounds{owner: r})
	if loaded && v.(*workRounds).owner != r {
		return fmt.Errorf("the WITH RECURSIVE query %s is read twice at once here; read it once (join with its result in another WITH query)", cte.Name)
	}
	return nil
}

// setWorkTable makes rows the previous round of cte, which r must have
// claimed, releasing the round before; nil rows give the claim up.
func (e *Env) setWorkTable(cte *sql.CTE, r *recursiveCTE, rows []arrow.RecordBatch) {
	v, ok := e.workTables.Load(cte)
	if !ok || v.(*workRounds).owner != r {
		releaseBatches(rows)
		return
	}
	w := v.(*workRounds)
	releaseBatches(w.rows)
	w.rows = rows
	if rows == nil {
		e.workTables.Delete(cte)
	}
}

// workTable is the previous round of the recursive WITH query cte.
func (e *Env) workTable(cte *sql.CTE) []arrow.RecordBatch {
	if v, ok := e.workTables.Load(cte); ok {
		return v.(*workRounds).rows
	}
	return nil
}
