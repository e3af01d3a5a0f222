package exec

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/arrow/scalar"

	"github.com/lakesql/lakesql/exec/expr"
	"github.com/lakesql/lakesql/planner"
)

// ErrScalarSubqueryRows is the error of a scalar subquery with more than one row.

// subqueryExpr is an uncorrelated subquery prepared for evaluation: the
// first evaluation builds and runs its plan, and every batch after that
// reuses the result.
type subqueryExpr struct {
	*planner.Subquery
	env *Env
	*subqueryResult
}

// subqueryResult is what running a subquery's plan gave. One result serves
// every expression over the same plan in a statement (Env.subqueries): the
// filter above a scan and the scan's pruning (prune_subqueries.go) run the
// subquery once.
type subqueryResult struct {
	once sync.Once
	err  error
	// The result, by kind: the scalar value (nil for NULL), whether a row
	// exists, or the set of non-NULL values and whether there was a NULL.
	value   scalar.Scalar
	exists  bool
	set     *keyTable
	setNull bool
	// rows holds the rows of an IN subquery of several columns, compared
	// with a row value; set and setNull are then unused.
	rows *rowSet
	// summary lists the values (or their range) for pruning: always for a
	// scalar subquery (one value), for an IN subquery only when a scan asked
	// for it (forPruning) before it ran, as it costs a look at every value.
	summary    *valueSummary
	forPruning atomic.Bool
	// intKeys are an IN subquery's non-NULL values when they are
	// integer-backed, a scan asked for them (forPruning) and there are at
	// most maxSubqueryKeys, for subqueryKeys; nil otherwise.
	intKeys     []int64
	tooManyKeys bool
}

// maxSubqueryKeys bounds the values an IN subquery keeps for storage to
// test rows against (32 MiB); past it, the Filter's own lookup does.
const maxSubqueryKeys = 1 << 22

// subqueryKey identifies a subquery's result: its plan and what is done with it.
type subqueryKey struct {
	plan planner.Plan
	kind planner.SubqueryKind
}

// prepareSubqueries replaces the subqueries in e (which may be nil) by
// expressions the evaluator can run.
func prepareSubqueries(e planner.Expr, env *Env) planner.Expr {
	if e == nil {
		return nil
	}
	return planner.Rewrite(planner.ExpandQuantified(e), func(x planner.Expr) planner.Expr {
		if sq, ok := x.(*planner.Subquery); ok {
			return env.subquery(sq)
		}
		return x
	})
}

// subquery prepares sq, sharing the result of an equal subquery prepared before.
func (env *Env) subquery(sq *planner.Subquery) *subqueryExpr {
	r, _ := env.subqueries.LoadOrStore(subqueryKey{sq.Plan, sq.Kind}, &subqueryResult{})
	return &subqueryExpr{Subquery: sq, env: env, subqueryResult: r.(*subqueryResult)}
}

// result runs the subquery on first use and returns its error, if any.
func (e *subqueryExpr) result(ctx context.Context) error {
	e.once.Do(func() { e.err = e.run(ctx) })
	return e.err
}

// prepareAll applies prepareSubqueries to each expression.
func prepareAll(exprs []planner.Expr, env *Env) []planner.Expr {
	out := make([]planner.Expr, len(exprs))
	for i, e := range exprs {
		out[i] = prepareSubqueries(e, env)
	}
	return out
}

// EvalBatch implements expr.External: the subquery's value on every row of
// batch, running the subquery on first use.
func (e *subqueryExpr) EvalBatch(ctx context.Context, batch arrow.RecordBatch, mem memory.Allocator) (arrow.Array, error) {
	if err := e.result(ctx); err != nil {
		return nil, err
	}
	n := int(batch.NumRows())
	switch e.Kind {
	case planner.SubqueryScalar:
		if e.value == nil {
			return expr.NullArray(mem, e.T, n), nil
		}
		return scalar.MakeArrayFromScalar(e.value, n, mem)
	case planner.SubqueryExists:
		return scalar.MakeArrayFromScalar(scalar.NewBooleanScalar(e.exists), n, mem)
	}
	return e.inSubquery(ctx, batch, mem)
}

// run executes the subquery. Its result outlives the batch being evaluated,
// so the subquery allocates from the Go allocator rather than the query's.
func (e *subqueryExpr) run(ctx context.Context) error {
	ctx = WithAllocator(ctx, memory.DefaultAllocator)
	op, err := Build(ctx, e.Plan, e.env)
	if err != nil {
		return err
	}
	if err := op.Open(ctx); err != nil {
		op.Close()
		return err
	}
	err = e.consume(ctx, op)
	return errors.Join(err, op.Close())
}

// consume reads the subquery's rows, as many as its kind needs.
func (e *subqueryExpr) consume(ctx context.Context, op Operator) error {
	if width := len(e.Plan.Schema()); e.Kind == planner.SubqueryIn && width > 1 {
		// A row value's subquery neither prunes nor has one set of values.
		var err error
		if e.rows, err = newRowSet(width); err != nil {
			return err
		}
	} else {
		if e.Kind != planner.SubqueryIn || e.forPruning.Load() {
			e.summary = newValueSummary(e.Plan.Schema()[0].T)
		}
		if e.Kind == planner.SubqueryIn {
			e.set = newKeyTable()
		}
	}
	rows := 0
	for {
		batch, err := op.Next(ctx)
		if err != nil || batch == nil {
			return err
		}
		err = e.add(batch, rows)
		rows += int(batch.NumRows())
		batch.Release()
		if err != nil || e.exists {
			return err
		}
	}
}

// add takes in a batch of the subquery's rows; before is the number of rows
// already seen.
func (e *subqueryExpr) add(batch arrow.RecordBatch, before int) error {
	n := int(batch.NumRows())
	switch e.Kind {
	case planner.SubqueryExists:
		e.exists = n > 0
	case planner.SubqueryScalar:
		if before+n > 1 {
			return ErrScalarSubqueryRows
		}
		if e.summary != nil {
			e.summary.add(batch.Column(0))
		}
		if n == 1 && batch.Column(0).IsValid(0) {
			v, err := scalar.GetScalar(batch.Column(0), 0)
			if err != nil {
				return fmt.Errorf("scalar subquery: %w", err)
			}
			e.value = v
		}
	case planner.SubqueryIn:
		if e.rows != nil {
			return e.rows.add(batch)
		}
		if e.summary != nil {
			e.summary.add(batch.Column(0))
			if keys, ok := integerKeys(batch.Column(0)); ok && !e.tooManyKeys {
				e.intKeys = append(e.intKeys, keys...)
				if e.tooManyKeys = len(e.intKeys) > maxSubqueryKeys; e.tooManyKeys {
					e.intKeys = nil
				}
			}
		}
		keys, err := encodeKeys(batch.Columns()[:1], n)
		if err != nil {
			return err
		}
		for r, null := range keys.hasNull {
			if null {
				e.setNull = true
				continue
			}
			e.set.insert(keys.key(r))
		}
	}
	return nil
}

// inSubquery looks each value of X up in the subquery's values: TRUE when
// found; NULL when X is NULL, or when it is not found and the subquery had a
// NULL; FALSE otherwise, and always FALSE for a subquery without rows.
func (e *subqueryExpr) inSubquery(ctx context.Context, batch arrow.RecordBatch, mem memory.Allocator) (arrow.Array, error) {
	if e.rows != nil {
		return e.inRows(ctx, batch, mem)
	}
	x, err := expr.Eval(ctx, e.X, batch, mem)
	if err != nil {
		return nil, err
	}
	defer x.Release()
	n := int(batch.NumRows())
	keys, err := encodeKeys([]arrow.Array{x}, n)
	if err != nil {
		return nil, err
	}
	empty := e.set.len() == 0 && !e.setNull
	bitmapBytes := int(bitutil.BytesForBits(int64(n)))
	values, validity := expr.NewBuffer(mem, bitmapBytes), expr.NewBuffer(mem, bitmapBytes)
	for r, null := range keys.hasNull {
		switch {
		case empty:
			bitutil.SetBit(validity.Bytes(), r)
		case null:
		case e.set.find(keys.key(r)) >= 0:
			bitutil.SetBit(values.Bytes(), r)
			bitutil.SetBit(validity.Bytes(), r)
		case !e.setNull:
			bitutil.SetBit(validity.Bytes(), r)
		}
	}
	return expr.MakeArray(planner.TypeBoolean, n, validity, values), nil
}

// inRows is inSubquery for a row value (a, b, …) against a subquery of as
// many columns (rowSet).
func (e *subqueryExpr) inRows(ctx context.Context, batch arrow.RecordBatch, mem memory.Allocator) (arrow.Array, error) {
	n := int(batch.NumRows())
	var xs []arrow.Array
	defer func() {
		for _, x := range xs {
			x.Release()
		}
	}()
	for _, operand := range e.InOperands() {
		x, err := expr.Eval(ctx, operand, batch, mem)
		if err != nil {
			return nil, err
		}
		xs = append(xs, x)
	}
	matches, err := e.rows.match(xs, n)
	if err != nil {
		return nil, err
	}
	bitmapBytes := int(bitutil.BytesForBits(int64(n)))
	values, validity := expr.NewBuffer(mem, bitmapBytes), expr.NewBuffer(mem, bitmapBytes)
	for r, m := range matches {
		if m != rowUnknown {
			bitutil.SetBit(validity.Bytes(), r)
		}
		if m == rowFound {
			bitutil.SetBit(values.Bytes(), r)
		}
	}
	return expr.MakeArray(planner.TypeBoolean, n, validity, values), nil
}
