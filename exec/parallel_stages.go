package exec

import (
	"context"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"golang.org/x/sync/errgroup"
)

// Operators pull batches one at a time and are not safe for concurrent use.
// What runs on every core is the work above a scan that maps each batch on
// its own — filters, projections, the probing of a built hash join — when
// an operator that consumes its whole input (an aggregation, a join's build
// side) splits it off and runs it in its own workers.

// parallelAfterRows is how many rows an operator (an aggregation, a join's
// build side) takes in on its own before it spreads the rest of its input
// over one worker per core. Small inputs (the tests' tables among them)
// stay on one goroutine, so their rows and groups come out in the order
// they first appear; a scan of a table holding this many rows is split from
// its first batch (parallelFromStart).
const parallelAfterRows = 16 * BatchSize

// rowStage is an operator that maps each batch of its input on its own
// (Filter, Project, and a join whose build side is read): the aggregation's
// workers run it on the batches they take, so it runs on every core too.
type rowStage interface {
	Operator
	source() Operator
	// run maps one batch, which it does not take over, handing emit each
	// batch of the result (a join may make many of one); emit does not
	// take them over either.
	run(ctx context.Context, batch arrow.RecordBatch, emit func(arrow.RecordBatch) error) error
	// concurrent reports whether the stage can run on several goroutines:
	// its expressions run no subquery, and it keeps no state across batches.
	concurrent() bool
	// pending reports whether the stage holds rows of an input batch it has
	// not yet passed on; the input is only split between batches.
	pending() bool
	// fork returns the stage for one more worker: itself when it holds no
	// state, else a copy with state of its own.
	fork() rowStage
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

// forkStages returns a worker's own copy of stages.
func forkStages(stages []rowStage) []rowStage {
	out := make([]rowStage, len(stages))
	for i, st := range stages {
		out[i] = st.fork()
	}
	return out
}

// applyStages runs the row stages, innermost first, on a batch it does
// not take over, handing sink each batch the outermost makes: one batch at
// a time goes through, however many rows a join makes of one.
func applyStages(ctx context.Context, stages []rowStage, b arrow.RecordBatch, sink func(arrow.RecordBatch) error) error {
	if len(stages) == 0 {
		return sink(b)
	}
	outer := stages[:len(stages)-1]
	return stages[len(stages)-1].run(ctx, b, func(out arrow.RecordBatch) error {
		return applyStages(ctx, outer, out, sink)
	})
}

// emitOne hands the one batch a stage made of its input to emit, and
// releases it; nil (no row left) is not handed on.
func emitOne(out arrow.RecordBatch, err error, emit func(arrow.RecordBatch) error) error {
	if err != nil || out == nil {
		return err
	}
	defer out.Release()
	return emit(out)
}

// hasRowStages reports whether op starts with row stages.
func hasRowStages(op Operator) bool {
	stages, _ := rowStages(op)
	return len(stages) > 0
}

// parallelFromStart reports whether op reads a table scan holding at least
// parallelAfterRows rows under its row stages: its consumer can split it
// among workers from the first batch, however few rows the stages let
// through (TPC-H Q6 keeps 2 % of lineitem).
func parallelFromStart(op Operator) bool {
	_, below := rowStages(op)
	switch s := below.(type) {
	case *tableScan:
		return s.rows() >= parallelAfterRows
	case *dynamicScan:
		return s.rows() >= parallelAfterRows
	}
	return false
}

// atBatchBoundary reports whether no row stage of op is in the middle of a
// batch, so that op's remaining batches can be split among workers.
func atBatchBoundary(op Operator) bool {
	stages, _ := rowStages(op)
	return !slices.ContainsFunc(stages, rowStage.pending)
}

// runParallel reads the rest of op: one goroutine pulls the batches from
// below op's row stages, and each of workers workers runs its own fork of
// the stages on the batches it takes and hands the results to sink, with
// its number. The first error stops the others; batches are released.
func runParallel(ctx context.Context, op Operator, workers int, sink func(ctx context.Context, worker int, b arrow.RecordBatch) error) error {
	stages, below := rowStages(op)
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
	for w := range workers {
		stages := forkStages(stages)
		g.Go(func() error {
			var err error
			for b := range batches {
				if err != nil {
					b.Release() // after a failure, only drained
					continue
				}
				err = applyStages(gctx, stages, b, func(out arrow.RecordBatch) error { return sink(gctx, w, out) })
				b.Release()
			}
			return err
		})
	}
	return g.Wait()
}
