package planner

import (
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakesql/lakesql/sql"
)

// bindAggregateBy binds max_by(x, y) and min_by(x, y) (also DuckDB's
// arg_max and arg_min): the argument is a struct of x and y, so that the
// accumulator reads both from one column, as string_agg's ORDER BY does.
func (b *binder) bindAggregateBy(e *sql.FuncCall, fn string, s *scope) (*AggCall, error) {
	if len(e.Args) != 2 {
		return nil, errorf(e.Pos, "%s takes (value, ordering key), got %d arguments", e.Name, len(e.Args))
	}
	if e.Distinct {
		return nil, errorf(e.Pos, "%s(DISTINCT …) is not supported", e.Name)
	}
	inner := aggregateArgs(s)
	var args [2]Expr
	for i, a := range e.Args {
		x, err := b.bindExpr(a, inner)
		if err != nil {
			return nil, err
		}
		if x.Type().ID() == arrow.NULL {
			if x, err = castTo(x, TypeBigint); err != nil {
				return nil, err
			}
		}
		if !isOrderable(x.Type()) {
			return nil, errorf(a.Position(), "%s: cannot keep or compare values of type %s", e.Name, TypeString(x.Type()))
		}
		args[i] = x
	}
	t := arrow.StructOf(
		arrow.Field{Name: "value", Type: args[0].Type(), Nullable: true},
		arrow.Field{Name: "key", Type: args[1].Type(), Nullable: true})
	arg := &Call{Fn: FnMakeStruct, Args: []Expr{stringLit("value"), args[0], stringLit("key"), args[1]}, T: t}
	return &AggCall{Fn: fn, Arg: arg, T: args[0].Type()}, nil
}
