package optimizer

import (
	"context"

	"github.com/lakesql/lakesql/exec/expr"
	"github.com/lakesql/lakesql/planner"
)

// foldConstants evaluates the parts of filters and projections that do not
// depend on a row (1 + 1, 5 > 3, x > 2 AND TRUE), so a filter that can never
// hold becomes FALSE, which prunes every file, and a filter that always holds
// disappears. Anything whose value is not certain at plan time (an overflow,
// a NaN) is left for the executor.
func foldConstants(p planner.Plan) planner.Plan {
	p = withChildren(p, foldConstants)
	switch n := p.(type) {
	case *planner.Filter:
		cond := fold(n.Cond)
		if lit, ok := cond.(*planner.Literal); ok && lit.Value == true {
			return n.Input
		}
		out := *n
		out.Cond = cond
		return &out
	case *planner.Project:
		out := *n
		out.Exprs = make([]planner.Expr, len(n.Exprs))
		for i, e := range n.Exprs {
			out.Exprs[i] = fold(e)
		}
		return &out
	}
	return p
}

// fold rewrites an expression bottom-up with its constant parts evaluated.
// Functions and casts of constants (now() - INTERVAL 1 DAY, date_sub(
// current_date(), 7), YEAR(current_date()) - 2) run through the executor's
// own kernels, so the folded literal is the value execution would compute
// and the normalized predicate above it can prune.
func fold(e planner.Expr) planner.Expr {
	return planner.Rewrite(e, func(x planner.Expr) planner.Expr {
		switch x := x.(type) {
		case *planner.Call:
			if planner.IsVolatile(x) {
				return x
			}
			if folded, ok := foldCall(x); ok {
				return folded
			}
			if allLiterals(x.Args) {
				if lit, ok := expr.EvalConstant(context.Background(), x); ok {
					return lit
				}
			}
		case *planner.Case:
			if folded, ok := foldCase(x); ok {
				return folded
			}
		case *planner.Cast:
			if allLiterals([]planner.Expr{x.X}) {
				if lit, ok := expr.EvalConstant(context.Background(), x); ok {
					return lit
				}
			}
		}
		return x
	})
}

// foldCase drops the WHEN arms whose condition is a constant other than
// TRUE, which never match, and ends the CASE at the first arm whose
// condition is TRUE, before which nothing else can match: CASE WHEN FALSE
// THEN a WHEN TRUE THEN b … END is b.
func foldCase(c *planner.Case) (planner.Expr, bool) {
	var whens []planner.CaseWhen
	otherwise := c.Else
	for _, w := range c.Whens {
		v, constant := literal(w.Cond)
		if !constant {
			whens = append(whens, w)
			continue
		}
		if v == true {
			otherwise = w.Result
			break
		}
	}
	switch {
	case len(whens) == len(c.Whens):
		return nil, false
	case len(whens) == 0:
		return otherwise, true
	}
	return &planner.Case{Whens: whens, Else: otherwise, T: c.T}, true
}

func allLiterals(args []planner.Expr) bool {
	for _, a := range args {
		if _, ok := a.(*planner.Literal); !ok {
			return false
		}
	}
	return true
}

func boolLit(v any) *planner.Literal { return &planner.Literal{Value: v, T: planner.TypeBoolean} }

// literal returns e's constant value; ok is false when e is not a constant.
func literal(e planner.Expr) (any, bool) {
	lit, ok := e.(*planner.Literal)
	if !ok {
		return nil, false
	}
	return lit.Value, true
}

func foldCall(c *planner.Call) (planner.Expr, bool) {
	switch c.Fn {
	case planner.FnAnd:
		return foldLogic(c, false)
	case planner.FnOr:
		return foldLogic(c, true)
	case planner.FnNot:
		if v, ok := literal(c.Args[0]); ok {
			if b, isBool := v.(bool); isBool {
				return boolLit(!b), true
			}
			return boolLit(nil), true
		}
	case planner.FnIsNull, planner.FnIsNotNull:
		if v, ok := literal(c.Args[0]); ok {
			return boolLit((v == nil) == (c.Fn == planner.FnIsNull)), true
		}
	case planner.FnEq, planner.FnNe, planner.FnLt, planner.FnLe, planner.FnGt, planner.FnGe:
		return foldComparison(c)
	case planner.FnGetField:
		return foldGetField(c)
	}
	return nil, false
}

// foldGetField reads a field of a struct built in place, as a subquery's
// struct value is once it has run (expr.ConstantExpr):
// get_field(named_struct('a', x, 'b', y), 'b') is y.
func foldGetField(c *planner.Call) (planner.Expr, bool) {
	st, ok := c.Args[0].(*planner.Call)
	name, named := literal(c.Args[1])
	if !ok || !named || st.Fn != planner.FnMakeStruct {
		return nil, false
	}
	for i := 0; i+1 < len(st.Args); i += 2 {
		if field, _ := literal(st.Args[i]); field == name {
			return st.Args[i+1], true
		}
	}
	return nil, false
}

// foldLogic simplifies AND (dominant FALSE) and OR (dominant TRUE) with SQL's
// three-valued logic: x AND TRUE is x, x AND FALSE is FALSE, NULL stays.
func foldLogic(c *planner.Call, dominant bool) (planner.Expr, bool) {
	var kept []planner.Expr
	sawNull := false
	for _, a := range c.Args {
		v, ok := literal(a)
		switch {
		case !ok:
			kept = append(kept, a)
		case v == dominant:
			return boolLit(dominant), true
		case v == nil:
			sawNull = true
		}
		// the identity (TRUE for AND, FALSE for OR) is dropped
	}
	if sawNull {
		kept = append(kept, boolLit(nil))
	}
	switch len(kept) {
	case 0:
		return boolLit(!dominant), true
	case 1:
		return kept[0], true
	case len(c.Args):
		return nil, false
	}
	return &planner.Call{Fn: c.Fn, Args: kept, T: c.T}, true
}

// foldComparison compares two constants of one type.
func foldComparison(c *planner.Call) (planner.Expr, bool) {
	l, lok := literal(c.Args[0])
	r, rok := literal(c.Args[1])
	if !lok || !rok {
		return nil, false
	}
	if l == nil || r == nil {
		return boolLit(nil), true
	}
	order, ok := planner.CompareValues(l, r)
	if !ok {
		return nil, false
	}
	var result bool
	switch c.Fn {
	case planner.FnEq:
		result = order == 0
	case planner.FnNe:
		result = order != 0
	case planner.FnLt:
		result = order < 0
	case planner.FnLe:
		result = order <= 0
	case planner.FnGt:
		result = order > 0
	case planner.FnGe:
		result = order >= 0
	}
	return boolLit(result), true
}
