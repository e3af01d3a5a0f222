package planner

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakesql/lakesql/sql"
)

// bindAggregateBy binds max_by(x, y) and min_by(x, y) (also DuckDB's
// arg_max and arg_min): the argument is a struct of x and y.
func (b *binder) bindAggregateBy(e *sql.FuncCall, fn string, s *scope) (*AggCall, error) {
	if e.Distinct {
		return nil, errorf(e.Pos, "%s(DISTINCT …) is not supported", e.Name)
	}
	arg, err := b.bindPair(e, s, [2]string{"value", "key"}, "(value, ordering key)", keptValue)
	if err != nil {
		return nil, err
	}
	return &AggCall{Fn: fn, Arg: arg, T: arg.Type().(*arrow.StructType).Field(0).Type}, nil
}

// bindPairStatistic binds corr(y, x), covar_pop, covar_samp and the
// regr_* functions: the argument is a struct of y and x as DOUBLE. With
// DISTINCT, equal (y, x) pairs count once, as in DuckDB.
func (b *binder) bindPairStatistic(e *sql.FuncCall, fn string, s *scope) (*AggCall, error) {
	double := func(x Expr) (Expr, error) {
		if t := x.Type(); t.ID() != arrow.NULL && !IsNumeric(t) {
			return nil, fmt.Errorf("needs numbers, got %s", TypeString(t))
		}
		return castTo(x, TypeDouble)
	}
	arg, err := b.bindPair(e, s, [2]string{"y", "x"}, "(y, x)", double)
	if err != nil {
		return nil, err
	}
	t := TypeDouble
	if fn == AggRegrCount {
		t = TypeBigint
	}
	return &AggCall{Fn: fn, Arg: arg, Distinct: e.Distinct, T: t}, nil
}

// bindPair binds the two arguments of a two-argument aggregate, each
// passed through prepare (which types it or says why it cannot be), into
// one struct with the fields names: the accumulator reads both from one
// column, as string_agg's ORDER BY does, and DISTINCT compares the pairs.
func (b *binder) bindPair(e *sql.FuncCall, s *scope, names [2]string, usage string, prepare func(Expr) (Expr, error)) (Expr, error) {
	if len(e.Args) != 2 {
		return nil, errorf(e.Pos, "%s takes %s, got %d arguments", e.Name, usage, len(e.Args))
	}
	inner := aggregateArgs(s)
	var args [2]Expr
	for i, a := range e.Args {
		x, err := b.bindExpr(a, inner)
		if err != nil {
			return nil, err
		}
		if args[i], err = prepare(x); err != nil {
			return nil, errorf(a.Position(), "%s: %v", e.Name, err)
		}
	}
	t := arrow.StructOf(
		arrow.Field{Name: names[0], Type: args[0].Type(), Nullable: true},
		arrow.Field{Name: names[1], Type: args[1].Type(), Nullable: true})
	return &Call{Fn: FnMakeStruct, Args: []Expr{stringLit(names[0]), args[0], stringLit(names[1]), args[1]}, T: t}, nil
}

// keptValue types an argument whose values an aggregate keeps and
// compares (max_by, first): an untyped NULL as BIGINT, and only types
// that can be ordered.
func keptValue(x Expr) (Expr, error) {
	if x.Type().ID() == arrow.NULL {
		return castTo(x, TypeBigint)
	}
	if !isOrderable(x.Type()) {
		return nil, fmt.Errorf("cannot keep or compare values of type %s", TypeString(x.Type()))
	}
	return x, nil
}
