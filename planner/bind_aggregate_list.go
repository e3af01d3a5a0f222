package planner

import (
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakesql/lakesql/sql"
)

// bindArrayAgg binds array_agg(x) (DuckDB's list) and Spark's
// collect_list(x): an ARRAY of x's values, of the types min and max take
// (nested ones too).
func (b *binder) bindArrayAgg(e *sql.FuncCall, fn string, s *scope) (*AggCall, error) {
	if len(e.Args) != 1 {
		return nil, errorf(e.Pos, "%s needs 1 argument, got %d", e.Name, len(e.Args))
	}
	arg, err := b.bindExpr(e.Args[0], aggregateArgs(s))
	if err != nil {
		return nil, err
	}
	if !isOrderable(arg.Type()) {
		return nil, errorf(e.Args[0].Position(), "%s: cannot collect values of type %s", e.Name, TypeString(arg.Type()))
	}
	call := &AggCall{Fn: fn, Arg: arg, Distinct: e.Distinct, T: arrow.ListOfField(elementField(arg.Type()))}
	if len(e.OrderBy) > 0 {
		return b.orderAggValues(e, call, aggregateArgs(s))
	}
	return call, nil
}
