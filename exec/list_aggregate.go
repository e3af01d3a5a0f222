package exec

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakesql/lakesql/exec/expr"
	"github.com/lakesql/lakesql/planner"
)

// list_aggregate (exec/expr/fn_list_aggregate.go) folds each array's
// elements with the accumulator GROUP BY uses, the arrays being the groups.
func init() { expr.SetListAggregator(aggregateLists) }

func aggregateLists(ctx context.Context, mem memory.Allocator, call *planner.AggCall, elems arrow.Array, gids []int32, groups int) (arrow.Array, error) {
	acc, err := newPlainAccumulator(call)
	if err != nil {
		return nil, err
	}
	if err := acc.update(ctx, elems, gids, groups); err != nil {
		return nil, err
	}
	return acc.result(mem, groups), nil
}
