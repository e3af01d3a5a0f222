package exec

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakesql/lakesql/planner"
)

// recursiveCTE runs a WITH RECURSIVE query round by round: the anchor, then
// the step over the rows the previous round produced (its WorkTable), until
// a round produces none. It streams, so a LIMIT above ends an endless
// recursion; it holds only the previous and the current round's rows, and
// for UNION the rows seen so far.
type recursiveCTE struct {
	p      *planner.RecursiveCTE
	env    *Env
	schema *arrow.Schema
	// seen drops the rows met before, for UNION; nil for UNION ALL.
	seen *distinct
	// round is the operator of the current round: the anchor, then the step.
	round Operator
	// produced holds the current round's rows, the next round's input.
	produced []arrow.RecordBatch
}

func buildRecursiveCTE(p *planner.RecursiveCTE, env *Env) Operator {
	return &recursiveCTE{p: p, env: env, schema: ArrowSchema(p.Schema())}
}

func (r *recursiveCTE) Schema() *arrow.Schema { return r.schema }

func (r *recursiveCTE) Open(ctx context.Context) error {
	if err := r.env.claimWorkTable(r.p.CTE, r); err != nil {
		return err
	}
	if !r.p.All {
		types := make([]arrow.DataType, r.schema.NumFields())
		for i, f := range r.schema.Fields() {
			types[i] = f.Type
		}
		seen, err := newGroupTable(types)
		if err != nil {
			return fmt.Errorf("WITH RECURSIVE %s: %w", r.p.Name, err)
		}
		r.seen = &distinct{seen: seen}
	}
	return r.startRound(ctx, r.p.Anchor)
}

// startRound builds and opens the operator of the next round.
func (r *recursiveCTE) startRound(ctx context.Context, plan planner.Plan) error {
	op, err := Build(ctx, plan, r.env)
	if err != nil {
		return err
	}
	if err := op.Open(ctx); err != nil {
		op.Close()
		return err
	}
	r.round = op
	return nil
}

func (r *recursiveCTE) Next(ctx context.Context) (arrow.RecordBatch, error) {
	for r.round != nil {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		batch, err := r.round.Next(ctx)
		if err != nil {
			return nil, err
		}
		if batch == nil {
			if err := r.nextRound(ctx); err != nil {
				return nil, err
			}
			continue
		}
		if r.seen != nil {
			fresh, err := r.seen.firstOccurrences(ctx, batch)
			batch.Release()
			if err != nil {
				return nil, err
			}
			if fresh == nil {
				continue
			}
			batch = fresh
		}
		if batch.NumRows() == 0 {
			batch.Release()
			continue
		}
		batch.Retain()
		r.produced = append(r.produced, batch)
		return batch, nil
	}
	return nil, nil
}

// nextRound closes the finished round and, when it produced rows, starts
// the step over them.
func (r *recursiveCTE) nextRound(ctx context.Context) error {
	err := r.round.Close()
	r.round = nil
	input := r.produced
	r.produced = nil
	r.env.setWorkTable(r.p.CTE, r, input)
	if err != nil || len(input) == 0 {
		return err
	}
	return r.startRound(ctx, r.p.Step)
}

func (r *recursiveCTE) Close() error {
	var err error
	if r.round != nil {
		err = r.round.Close()
		r.round = nil
	}
	releaseBatches(r.produced)
	r.produced = nil
	r.env.setWorkTable(r.p.CTE, r, nil)
	return err
}
