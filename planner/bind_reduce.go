package planner

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakesql/lakesql/sql"
)

// bindReduce binds a fold of a list, written as DuckDB writes it,
// list_reduce(list, (acc, x [, i]) -> expr [, initial]), or as Spark does,
// aggregate(list, initial, (acc, x) -> expr [, acc -> finish]) (reduce
// takes either form). The accumulator has the type of initial, or of the
// elements without one, widened once to the body's type when that differs
// (1 + 0.5 makes a DECIMAL of an INT accumulator); the body's value is
// cast to it. finish is applied to the result.
func (b *binder) bindReduce(e *sql.FuncCall, f lambdaFunction, s *scope) (Expr, error) {
	spark := len(e.Args) >= 3 && !isLambda(e.Args[1])
	usage := fmt.Sprintf("%s(list, (acc, x) -> expression [, initial])", e.Name)
	merge, initialArg, finishArg := 1, 2, -1
	if spark {
		usage = fmt.Sprintf("%s(list, initial, (acc, x) -> expression [, acc -> finish])", e.Name)
		merge, initialArg, finishArg = 2, 1, 3
	}
	if len(e.Args) < 2 || len(e.Args) > 4 || !spark && len(e.Args) > 3 {
		return nil, kindErrorf(ErrType, e.Pos, "%s takes a list, a lambda and an initial value: %s", e.Name, usage)
	}
	lam, err := lambdaArg(e, merge, 3, usage)
	if err != nil {
		return nil, err
	}
	if len(lam.Params) < 2 {
		return nil, kindErrorf(ErrType, lam.Pos, "the lambda of %s takes the accumulator and the element: %s", e.Name, usage)
	}
	list, elem, err := b.bindListArg(e, s)
	if err != nil {
		return nil, err
	}
	var initial Expr
	acc := elem
	if initialArg < len(e.Args) {
		if initial, err = b.bindExpr(e.Args[initialArg], s); err != nil {
			return nil, err
		}
		acc = initial.Type()
	}
	body, values, err := b.bindFold(lam, acc, elem, s)
	if err != nil {
		return nil, err
	}
	if t := body.Type(); !arrow.TypeEqual(t, acc) {
		widened := commonType(acc, t)
		if widened == nil {
			return nil, kindErrorf(ErrType, lam.Body.Position(), "%s: the lambda gives %s, which an accumulator of type %s cannot hold", e.Name, TypeString(t), TypeString(acc))
		}
		acc = widened
		if body, values, err = b.bindFold(lam, acc, elem, s); err != nil {
			return nil, err
		}
	}
	if body, err = castTo(body, acc); err != nil {
		return nil, errorf(lam.Body.Position(), "%s: %v", e.Name, err)
	}
	args := []Expr{list}
	if initial != nil {
		if initial, err = castTo(initial, acc); err != nil {
			return nil, errorf(e.Args[initialArg].Position(), "%s: %v", e.Name, err)
		}
		args = append(args, initial)
	}
	args = append(append(args, values...), &Lambda{Params: lam.Params, Body: body, IndexBase: f.indexBase, Initial: initial != nil})
	var out Expr = &Call{Fn: FnListReduce, Args: args, T: acc}
	if finishArg > 0 && finishArg < len(e.Args) {
		return b.bindFinish(e, finishArg, out, s)
	}
	return out, nil
}

// bindFold binds the body of a fold's lambda with an accumulator of type
// acc.
func (b *binder) bindFold(lam *sql.LambdaExpr, acc, elem arrow.DataType, s *scope) (Expr, []Expr, error) {
	params := []Column{{Name: lam.Params[0], T: acc}, {Name: lam.Params[1], T: elem}}
	if len(lam.Params) == 3 {
		params = append(params, Column{Name: lam.Params[2], T: TypeBigint})
	}
	return b.bindLambdaBody(lam, params, s)
}

// bindFinish applies Spark's finish lambda, argument i of e, to result:
// its body with the parameter read as result.
func (b *binder) bindFinish(e *sql.FuncCall, i int, result Expr, s *scope) (Expr, error) {
	lam, err := lambdaArg(e, i, 1, "acc -> expression")
	if err != nil {
		return nil, err
	}
	body, values, err := b.bindLambdaBody(lam, []Column{{Name: lam.Params[0], T: result.Type()}}, s)
	if err != nil {
		return nil, err
	}
	return Rewrite(body, func(x Expr) Expr {
		ref, ok := x.(*ColumnRef)
		switch {
		case !ok:
			return x
		case ref.Index == 0:
			return result
		}
		return values[ref.Index-1]
	}), nil
}

func isLambda(e sql.Expr) bool {
	_, ok := e.(*sql.LambdaExpr)
	return ok
}
