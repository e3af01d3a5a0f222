package exec

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakesql/lakesql/planner"
)

// avgOfSum is avg(x) in an aggregation that also computes sum(x): both
// need x's sum and count per group, so the average reads them from the
// sum's accumulator instead of adding every value a second time. TPC-H Q1
// asks for sum and avg of three columns; each decimal sum is a loop over
// every row.
type avgOfSum[T float64 | decimal128.Num] struct {
	sum *sumAcc[T]
	avg func(sum T, n int64) float64
}

// shareSums replaces the accumulator of every avg(x) whose sum(x) is in the
// same aggregation by a view of that sum's accumulator. calls and accs
// correspond.
func shareSums(calls []*planner.AggCall, accs []accumulator) {
	sums := map[string]accumulator{}
	for i, c := range calls {
		if c.Fn == planner.AggSum && !c.Distinct {
			sums[sumKey(c)] = accs[i]
		}
	}
	for i, c := range calls {
		if c.Fn != planner.AggAvg || c.Distinct {
			continue
		}
		switch avg := accs[i].(type) {
		case *sumAcc[float64]:
			if sum, ok := sums[sumKey(c)].(*sumAcc[float64]); ok {
				accs[i] = &avgOfSum[float64]{sum: sum, avg: avg.avg}
			}
		case *sumAcc[decimal128.Num]:
			if sum, ok := sums[sumKey(c)].(*sumAcc[decimal128.Num]); ok {
				accs[i] = &avgOfSum[decimal128.Num]{sum: sum, avg: avg.avg}
			}
		}
	}
}

// sumKey is what a sum and an average share: the argument and the FILTER
// (WHERE …) condition.
func sumKey(c *planner.AggCall) string {
	if c.Filter == nil {
		return c.Arg.String()
	}
	return c.Arg.String() + " FILTER " + c.Filter.String()
}

// update adds nothing: the sum's accumulator sees the same values.
func (a *avgOfSum[T]) update(context.Context, arrow.Array, []int32, int) error { return nil }

// merge adds nothing: the sum's accumulators merge.
func (a *avgOfSum[T]) merge(context.Context, accumulator, []int32, int) error { return nil }

func (a *avgOfSum[T]) result(mem memory.Allocator, groups int) arrow.Array {
	return a.sum.averages(mem, groups, a.avg)
}
