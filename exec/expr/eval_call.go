package expr

import (
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakesql/lakesql/planner"
)

// call evaluates a function call.
func (ev *evaluator) call(c *planner.Call) (arrow.Array, error) {
	switch c.Fn {
	case planner.FnCoalesce:
		return ev.coalesce(c)
	case planner.FnIn:
		return ev.in(c)
	case planner.FnAnd, planner.FnOr:
		return ev.logic(c)
	case planner.FnListTransform, planner.FnListFilter, planner.FnListExists, planner.FnListForall:
		return ev.lambdaCall(c)
	case planner.FnListReduce:
		return ev.reduce(c)
	}
	ops, err := ev.operands(c.Args)
	if err != nil {
		return nil, err
	}
	defer releaseOperands(ops)
	if fn, ok := scalarFns[c.Fn]; ok {
		return ev.scalar(fn, c, ops)
	}
	if err := checkArity(c, len(ops)); err != nil {
		return nil, err
	}
	switch c.Fn {
	case planner.FnAdd, planner.FnSub, planner.FnMul, planner.FnDiv, planner.FnIntDiv, planner.FnMod:
		return ev.arith(c, ops[0], ops[1])
	case planner.FnNeg:
		return ev.negate(c, ops[0])
	case planner.FnEq, planner.FnNe, planner.FnLt, planner.FnLe, planner.FnGt, planner.FnGe:
		return ev.compare(c.Fn, ops[0], ops[1])
	case planner.FnIsDistinct, planner.FnIsNotDistinct:
		return ev.distinct(c.Fn, ops[0], ops[1])
	case planner.FnNot:
		return ev.not(ops[0])
	case planner.FnIsNull, planner.FnIsNotNull:
		return ev.isNull(c.Fn == planner.FnIsNull, ops[0])
	case planner.FnIsTrue, planner.FnIsFalse:
		return ev.isBool(c.Fn == planner.FnIsTrue, ops[0])
	case planner.FnNullIf:
		return ev.nullIf(ops[0], ops[1])
	case planner.FnConcat:
		return ev.concat(ops)
	case planner.FnLike, planner.FnILike:
		return ev.like(c, ops)
	}
	panic("unreachable: checkArity accepted " + c.Fn)
}

// arity gives the minimum and maximum argument counts of the functions
// evaluated after call's generic operand evaluation.
var arity = map[string][2]int{
	planner.FnAdd: {2, 2}, planner.FnSub: {2, 2}, planner.FnMul: {2, 2},
	planner.FnDiv: {2, 2}, planner.FnIntDiv: {2, 2}, planner.FnMod: {2, 2},
	planner.FnEq: {2, 2}, planner.FnNe: {2, 2}, planner.FnLt: {2, 2},
	planner.FnLe: {2, 2}, planner.FnGt: {2, 2}, planner.FnGe: {2, 2},
	planner.FnIsDistinct: {2, 2}, planner.FnIsNotDistinct: {2, 2},
	planner.FnNullIf: {2, 2},
	planner.FnNeg:    {1, 1}, planner.FnNot: {1, 1},
	planner.FnIsNull: {1, 1}, planner.FnIsNotNull: {1, 1},
	planner.FnIsTrue: {1, 1}, planner.FnIsFalse: {1, 1},
	planner.FnLike: {2, 3}, planner.FnILike: {2, 3},
	planner.FnConcat: {1, math.MaxInt},
}

// checkArity validates the argument count of fixed-arity functions.
func checkArity(c *planner.Call, n int) error {
	r, ok := arity[c.Fn]
	if !ok {
		return fmt.Errorf("unknown function %q in %s", c.Fn, c)
	}
	if n < r[0] || n > r[1] {
		return fmt.Errorf("%s: wrong number of arguments (%d)", c, n)
	}
	return nil
}
