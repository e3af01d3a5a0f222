package planner

import "github.com/lakesql/lakesql/sql"

// foldedWindowAggregates maps the aggregates the executor folds over frames
// of their argument directly (window_funcs_agg.go) to WindowCall.Fn.
var foldedWindowAggregates = map[string]string{
	"count": AggCount, "sum": AggSum, "avg": AggAvg, "mean": AggAvg, "min": AggMin, "max": AggMax,
}

// bindWindowAggregate binds an aggregate OVER (…). A plain count, sum,
// avg, min or max is folded over frames directly; any other aggregate, and
// those with DISTINCT, FILTER (WHERE …) or ORDER BY inside, is bound as in
// GROUP BY and set as the call's Agg. Its arguments and FILTER condition
// may hold the block's aggregates (stddev(sum(x)) OVER ()), which the
// block computes first.
func (b *binder) bindWindowAggregate(call *WindowCall, e *sql.FuncCall, s *scope) error {
	if fn, ok := foldedWindowAggregates[e.Name]; ok && !e.Distinct && e.Filter == nil && len(e.OrderBy) == 0 {
		return b.bindFoldedWindowAggregate(call, fn, e, s)
	}
	args := *s
	args.windowAggregate = true
	agg, err := b.bindAggCall(e, &args)
	if err != nil {
		return err
	}
	if e.Filter != nil {
		if agg.Filter, err = b.bindAggFilter(e, &args); err != nil {
			return err
		}
	}
	call.Fn, call.Agg, call.T = agg.Fn, agg, agg.T
	return nil
}

// bindFoldedWindowAggregate binds count/sum/avg/min/max OVER (…). The
// argument is typed as for GROUP BY aggregates.
func (b *binder) bindFoldedWindowAggregate(call *WindowCall, fn string, e *sql.FuncCall, s *scope) error {
	call.Fn = fn
	if e.Star {
		if fn != AggCount {
			return errorf(e.Pos, "%s(*) is not allowed; only count(*)", e.Name)
		}
		call.T = TypeBigint
		return nil
	}
	if err := windowArity(e, 1, 1); err != nil {
		return err
	}
	x, err := b.bindExpr(e.Args[0], s)
	if err != nil {
		return err
	}
	arg, t, err := aggregateArg(fn, x)
	if err != nil {
		return errorf(e.Pos, "%s: %v", e.Name, err)
	}
	call.Args, call.T = []Expr{arg}, t
	return nil
}
