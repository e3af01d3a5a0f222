package exec

import (
	"context"
	"fmt"

	"github.com/lakesql/lakesql/planner"
)

// buildGrouping builds the operators of the plan nodes that group or order
// rows: Aggregate, Distinct, Sort and TopN.
func buildGrouping(ctx context.Context, p planner.Plan, env *Env) (Operator, error) {
	if agg, ok := p.(*planner.Aggregate); ok {
		markDictionaryKeys(agg, env)
	}
	input, err := Build(ctx, p.Children()[0], env)
	if err != nil {
		return nil, err
	}
	switch p := p.(type) {
	case *planner.Aggregate:
		calls := make([]*planner.AggCall, len(p.Aggs))
		for i, c := range p.Aggs {
			prepared := *c
			prepared.Arg = prepareSubqueries(c.Arg, env)
			calls[i] = &prepared
		}
		return NewHashAggregate(input, prepareAll(p.GroupBy, env), calls, p.Names), nil
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
