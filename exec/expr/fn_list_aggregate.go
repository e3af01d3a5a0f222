package expr

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/storage"
)

func init() {
	scalarFns[planner.FnListAggregate] = scalarFn{2, 2, false, listAggregateKernel}
}

// ListAggregator computes call over groups: element j of elems belongs to
// group gids[j], and groups 0 … groups-1 each give one value. Package exec
// provides it from the accumulators of GROUP BY, which this package cannot
// import, so that list_sum and sum agree on types, overflow and NULLs.
type ListAggregator func(ctx context.Context, mem memory.Allocator, call *planner.AggCall, elems arrow.Array, gids []int32, groups int) (arrow.Array, error)

var listAggregator ListAggregator

// SetListAggregator installs the aggregator of list_aggregate.
func SetListAggregator(f ListAggregator) { listAggregator = f }

// listAggregateKernel aggregates each array's elements as a group: an
// empty array gives what an aggregate of no rows gives (NULL, 0 for
// count), a NULL array NULL.
func listAggregateKernel(ev *evaluator, c *planner.Call, ops []operand) (arrow.Array, error) {
	if listAggregator == nil {
		return nil, fmt.Errorf("%s: no list aggregator installed", c)
	}
	a := ops[0].arr.(*array.List)
	if ev.n == 0 {
		return ev.allNull(c.T), nil
	}
	var gids []int32
	lo, _ := a.ValueOffsets(0)
	for i := range ev.n {
		start, end := a.ValueOffsets(i)
		for range end - start {
			gids = append(gids, int32(i))
		}
	}
	hi := lo + int64(len(gids))
	elems := array.NewSlice(a.ListValues(), lo, hi)
	defer elems.Release()
	out, err := listAggregator(ev.ctx, ev.mem, planner.ListAggCall(c), elems, gids, ev.n)
	if err != nil {
		return nil, wrapError(c, err)
	}
	defer out.Release()
	return storage.WithParentNulls(ev.mem, out, a), nil
}
