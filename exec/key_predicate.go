package exec

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakesql/lakesql/exec/expr"
	"github.com/lakesql/lakesql/planner"
)

// KeyPredicate summarizes the values key takes over batches as a predicate
// implied for a row whose x equals one of them — x IN (values), or their
// range past a bound; FALSE when none is non-NULL — as a hash join's build
// keys prune its probe scan. MERGE prunes its target with its source's join
// keys this way. ok is false when nothing can be said.
func KeyPredicate(ctx context.Context, key planner.Expr, batches []arrow.RecordBatch, x planner.Expr) (pred planner.Expr, ok bool, err error) {
	s := newValueSummary(key.Type())
	for _, b := range batches {
		arr, err := expr.Eval(ctx, key, b, allocator(ctx))
		if err != nil {
			return nil, false, err
		}
		s.add(arr)
		arr.Release()
	}
	pred, ok = s.predicate(x)
	return pred, ok, nil
}
