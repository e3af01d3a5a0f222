package planner

import (
	"fmt"

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
	inner := aggregateArgs(s)
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
	if len(e.OrderBy) > 0 {
		return b.orderAggValues(e, call, inner)
	}
	return call, nil
}

// orderAggValues binds the ORDER BY of string_agg and array_agg: the
// argument becomes a struct of the value and the keys, which the
// accumulator sorts each group's values by. DISTINCT then compares value
// and keys together, so it is allowed only when the keys are the value
// itself.
func (b *binder) orderAggValues(e *sql.FuncCall, call *AggCall, s *scope) (*AggCall, error) {
	args := []Expr{stringLit("value"), call.Arg}
	fields := []arrow.Field{{Name: "value", Type: call.Arg.Type(), Nullable: true}}
	for i, o := range e.OrderBy {
		key, err := b.bindExpr(o.Expr, s)
		if err != nil {
			return nil, err
		}
		if !isOrderable(key.Type()) {
			return nil, errorf(o.Expr.Position(), "%s: cannot order values of type %s", e.Name, TypeString(key.Type()))
		}
		if e.Distinct && exprKey(castFolded(key, call.Arg.Type())) != exprKey(call.Arg) {
			return nil, kindErrorf(ErrUnsupported, o.Expr.Position(), "%s(DISTINCT x ORDER BY y) is supported only when y is x", e.Name)
		}
		name := fmt.Sprintf("key%d", i+1)
		args = append(args, stringLit(name), key)
		fields = append(fields, arrow.Field{Name: name, Type: key.Type(), Nullable: true})
		k := newOrderKey(i, o)
		call.Order = append(call.Order, AggOrder{Desc: k.desc, NullsFirst: k.nullsFirst})
	}
	call.Arg = &Call{Fn: FnMakeStruct, Args: args, T: arrow.StructOf(fields...)}
	return call, nil
}
