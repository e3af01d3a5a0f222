package exec

import (
	"context"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/sql"
)

// sharedKey identifies the rows of one Materialize of a statement: its WITH
// definition, and its input's plan, which every reference has the same of
// (the rules move nothing across a Materialize); were two to differ, they
// would not share.
type sharedKey struct {
	cte  *sql.CTE
	plan string
}

// sharedResult is the rows of a Materialize: computed by the first of its
// references to open, read by every open one, and dropped when the last
// closes (a reference opened later, as a subquery's, computes them again).
type sharedResult struct {
	mu      sync.Mutex
	readers int
	rows    arrow.RecordBatch // nil until computed
}

// materializeOp is one reference to a Materialize.
type materializeOp struct {
	p      *planner.Materialize
	env    *Env
	shared *sharedResult
	schema *arrow.Schema
	rows   arrow.RecordBatch // the shared rows, while open
	next   int64             // the first of rows not yet returned
	opened bool
}

func buildMaterialize(p *planner.Materialize, env *Env) Operator {
	v, _ := env.shared.LoadOrStore(sharedKey{cte: p.CTE, plan: planner.Format(p.Input)}, &sharedResult{})
	return &materializeOp{p: p, env: env, shared: v.(*sharedResult), schema: ArrowSchema(p.Schema())}
}

func (m *materializeOp) Schema() *arrow.Schema { return m.schema }

func (m *materializeOp) Open(ctx context.Context) error {
	s := m.shared
	s.mu.Lock()
	defer s.mu.Unlock()
	s.readers++
	m.opened, m.next = true, 0
	if s.rows != nil {
		m.rows = s.rows
		return nil
	}
	// The other references wait for the rows under the lock.
	op, err := Build(ctx, m.p.Input, m.env)
	if err != nil {
		return err
	}
	if err := op.Open(ctx); err != nil {
		op.Close()
		return err
	}
	// Its rows have no key to spill by: past the memory limit, one line.
	cannot := newKeySpill("the WITH query "+m.p.Name, op.Schema(), nil, nil, 0)
	rows, err := materialize(ctx, op, cannot)
	op.Close()
	if err != nil {
		return err
	}
	s.rows, m.rows = rows, rows
	return nil
}

// Next returns the shared rows a batch at a time, as slices of them.
func (m *materializeOp) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if m.rows == nil || m.next >= m.rows.NumRows() {
		return nil, nil
	}
	end := min(m.next+BatchSize, m.rows.NumRows())
	out := m.rows.NewSlice(m.next, end)
	m.next = end
	return out, nil
}

func (m *materializeOp) Close() error {
	if !m.opened {
		return nil
	}
	m.opened, m.rows = false, nil
	s := m.shared
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.readers--; s.readers == 0 && s.rows != nil {
		s.rows.Release()
		s.rows = nil
	}
	return nil
}
