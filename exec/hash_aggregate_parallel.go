package exec

import (
	"context"
	"fmt"
	"runtime"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"golang.org/x/sync/errgroup"

	"github.com/lakesql/lakesql/exec/expr"
	"github.com/lakesql/lakesql/planner"
)

// parallelAfterRows is how many rows an aggregation folds in on its own
// before it spreads the rest of its input over one worker per core. Small
// inputs (the tests' tables among them) stay on one goroutine, so their
// groups come out in the order they first appear; large ones use every core.
const parallelAfterRows = 16 * BatchSize

// merger is an accumulator whose partial states, built by different
// workers over different rows, combine: merge folds group i of other (an
// accumulator of the same call) into group gmap[i] of a, which has groups
// groups after the merge.
type merger interface {
	merge(ctx context.Context, other accumulator, gmap []int32, groups int) error
}

// rowStage is an operator that maps each batch of its input on its own
// (Filter, Project): the aggregation's workers run it on the batches they
// take, so it runs on every core too.
type rowStage interface {
	Operator
	source() Operator
	// apply maps one batch; nil means no row is left.
	apply(ctx context.Context, batch arrow.RecordBatch) (arrow.RecordBatch, error)
	// concurrent reports whether apply may run on several goroutines at
	// once: its expressions run no subquery.
	concurrent() bool
}

// rowStages splits op into the row stages on top, outermost first, and the
// operator below them.
func rowStages(op Operator) (stages []rowStage, below Operator) {
	for {
		st, ok := op.(rowStage)
		if !ok || !st.concurrent() {
			return stages, op
		}
		stages = append(stages, st)
		op = st.source()
	}
}

// applyStages runs the row stages, innermost first, on a batch it takes
// over; nil means no row is left.
func applyStages(ctx context.Context, stages []rowStage, b arrow.RecordBatch) (arrow.RecordBatch, error) {
	for i := len(stages) - 1; i >= 0 && b != nil; i-- {
		out, err := stages[i].apply(ctx, b)
		b.Release()
		if err != nil {
			return nil, err
		}
		b = out
	}
	return b, nil
}

// parallel reports whether h may aggregate on several workers: every
// accumulator merges, and no expression runs a subquery (whose evaluation
// is not shared between goroutines).
func (h *hashAggregate) parallel(st *aggState) bool {
	if runtime.GOMAXPROCS(0) < 2 {
		return false
	}
	for _, acc := range st.accs {
		if _, ok := acc.(merger); !ok {
			return false
		}
	}
	for _, c := range h.calls {
		if c.Arg != nil && planner.HasSubquery(c.Arg) {
			return false
		}
	}
	return !slices.ContainsFunc(h.groupBy, planner.HasSubquery)
}

// aggregateInParallel folds the rest of h's input into st: one goroutine
// pulls batches from below the input's row stages (operators are not safe
// for concurrent use), one worker per core runs the row stages and folds
// the batches into a state of its own, and the workers' states are merged
// into st at the end.
func (h *hashAggregate) aggregateInParallel(ctx context.Context, st *aggState, mem memory.Allocator) error {
	workers := runtime.GOMAXPROCS(0)
	stages, below := rowStages(h.input)
	g, gctx := errgroup.WithContext(ctx)
	batches := make(chan arrow.RecordBatch, workers)
	g.Go(func() error {
		defer close(batches)
		for {
			b, err := below.Next(gctx)
			if err != nil || b == nil {
				return err
			}
			select {
			case batches <- b:
			case <-gctx.Done():
				b.Release()
				return gctx.Err()
			}
		}
	})
	states := make([]*aggState, workers)
	for i := range states {
		ws, err := h.newState()
		if err != nil {
			return err
		}
		states[i] = ws
		g.Go(func() error {
			var err error
			for b := range batches {
				if err != nil {
					b.Release() // after a failure, only drained
					continue
				}
				if b, err = applyStages(gctx, stages, b); b != nil {
					err = ws.add(gctx, b, mem)
					b.Release()
				}
			}
			return err
		})
	}
	if err := g.Wait(); err != nil {
		return err
	}
	for _, ws := range states {
		if err := st.merge(ctx, ws, mem); err != nil {
			return err
		}
	}
	return nil
}

// merge folds another state of the same aggregation into st.
func (st *aggState) merge(ctx context.Context, o *aggState, mem memory.Allocator) error {
	gmap := []int32{0}
	if st.keys != nil {
		keys := o.keys.build(mem)
		defer expr.ReleaseArrays(keys)
		gmap = st.keys.insert(keys, nil)
		st.groups = st.keys.len()
	}
	for i, acc := range st.accs {
		if err := acc.(merger).merge(ctx, o.accs[i], gmap, st.groups); err != nil {
			return fmt.Errorf("%s: %w", st.h.calls[i], err)
		}
	}
	return nil
}
