package exec

import (
	"context"
	"fmt"
	"slices"

	"github.com/lakesql/lakesql/planner"
)

// buildGrouping builds the operators of the plan nodes that group or order
// rows: Aggregate, Distinct, Sort and TopN.
func buildGrouping(ctx context.Context, p planner.Plan, env *Env) (Operator, error) {
	below := p.Children()[0]
	var where planner.Expr
	if agg, ok := p.(*planner.Aggregate); ok {
		markDictionaryKeys(agg, env)
		if f, ok := agg.Input.(*planner.Filter); ok && fuseWhere(f, env) {
			below, where = f.Input, f.Cond
		}
	}
	input, err := Build(ctx, below, env)
	if err != nil {
		return nil, err
	}
	switch p := p.(type) {
	case *planner.Aggregate:
		calls := make([]*planner.AggCall, len(p.Aggs))
		for i, c := range p.Aggs {
			calls[i] = c.MapExprs(func(e planner.Expr) planner.Expr { return prepareSubqueries(e, env) })
		}
		h := NewHashAggregate(input, prepareAll(p.GroupBy, env), calls, p.Names).(*hashAggregate)
		if where != nil {
			h.where, h.masksWhere = where, !slices.ContainsFunc(calls, func(c *planner.AggCall) bool { return !aggregateSkipsNulls(c) })
		}
		return h, nil
	case *planner.Distinct:
		return NewDistinct(input), nil
	case *planner.Sort:
		return NewSort(input, p.Keys), nil
	case *planner.TopN:
		return NewTopN(input, p.Keys, p.Limit, p.Offset), nil
	}
	input.Close()
	return nil, fmt.Errorf("no operator for plan node %T", p)
}
