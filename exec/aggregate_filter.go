package exec

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakesql/lakesql/exec/expr"
	"github.com/lakesql/lakesql/planner"
)

// agg(…) FILTER (WHERE cond) folds in only the rows where cond is TRUE.
// The aggregation evaluates cond next to the argument and restricts the
// argument the way a WHERE fused into the aggregation does
// (hash_aggregate_where.go): an aggregate that skips NULLs gets its
// argument with the other rows made NULL (maskRows), and count(*) counts
// cond's TRUE values. An aggregate that does not skip NULLs (array_agg
// keeps them; DISTINCT and the ones aggregateSkipsNulls leaves out) gets
// the passing rows gathered, with their group ids, so that a NULL it keeps
// is told apart from a row the condition left out.

// updateCall folds arg (nil for count(*)) into accumulator i at group ids
// gids, restricted to the rows where cond, the values of the call's
// FILTER condition, is TRUE; cond is nil when the call has none.
func (st *aggState) updateCall(ctx context.Context, i int, arg, cond arrow.Array, gids []int32, mem memory.Allocator) error {
	c := st.h.calls[i]
	if cond != nil {
		var err error
		if arg, gids, err = filterArg(ctx, c, arg, cond, gids, mem); err != nil {
			return fmt.Errorf("%s: %w", c, err)
		}
		defer arg.Release()
	}
	if err := st.accs[i].update(ctx, arg, gids, st.groups); err != nil {
		return fmt.Errorf("%s: %w", c, err)
	}
	return nil
}

// filterArg returns the argument and group ids of call c restricted to the
// rows where cond is TRUE; the caller releases the argument.
func filterArg(ctx context.Context, c *planner.AggCall, arg, cond arrow.Array, gids []int32, mem memory.Allocator) (arrow.Array, []int32, error) {
	var pass []byte
	switch b := cond.(type) {
	case *array.Boolean:
		pass = trueBits(b)
	case *array.Null: // FILTER (WHERE NULL): no row passes
		pass = make([]byte, (cond.Len()+7)/8)
	default:
		return nil, nil, fmt.Errorf("FILTER condition is %s, not BOOLEAN", planner.TypeString(cond.DataType()))
	}
	if arg == nil { // count(*) counts the rows where cond is TRUE
		return maskRows(cond, pass, mem), gids, nil
	}
	if aggregateSkipsNulls(c) {
		return maskRows(arg, pass, mem), gids, nil
	}
	rows := appendSetRows(nil, pass, cond.Len())
	taken, err := expr.Take(ctx, mem, arg, rows)
	if err != nil {
		return nil, nil, err
	}
	kept := make([]int32, len(rows))
	for j, r := range rows {
		kept[j] = gids[r]
	}
	return taken, kept, nil
}
