package planner

import (
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakesql/lakesql/sql"
)

// bindStringAgg binds string_agg(x[, sep]), also spelled listagg and
// group_concat (DuckDB's names): x's non-NULL values as text, joined by
// the constant sep (',' when left out), NULL for a group without values.
func (b *binder) bindStringAgg(e *sql.FuncCall, s *scope) (*AggCall, error) {
	if len(e.Args) < 1 || len(e.Args) > 2 {
		return nil, errorf(e.Pos, "%s takes (value[, separator])", e.Name)
	}
	inner := forbidAggregates(s, "aggregate function calls cannot be nested")
	arg, err := b.bindExpr(e.Args[0], inner)
	if err != nil {
		return nil, err
	}
	if arg, err = castTo(arg, TypeVarchar); err != nil {
		return nil, errorf(e.Pos, "%s: %v", e.Name, err)
	}
	call := &AggCall{Fn: AggStringAgg, Arg: arg, Distinct: e.Distinct, Separator: ",", T: TypeVarchar}
	if len(e.Args) == 2 {
		sep, err := b.bindExpr(e.Args[1], inner)
		if err != nil {
			return nil, err
		}
		lit, ok := sep.(*Literal)
		text, isText := "", false
		if ok && lit.T.ID() == arrow.STRING {
			text, isText = lit.Value.(string)
		}
		if !isText {
			return nil, errorf(e.Args[1].Position(), "%s: the separator must be a constant string, got %s", e.Name, sql.Format(e.Args[1]))
		}
		call.Separator = text
	}
	return call, nil
}
