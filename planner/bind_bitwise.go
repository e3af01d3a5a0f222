package planner

import (
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakesql/lakesql/sql"
)

// The bitwise operators and functions on integers, as DuckDB has them.
// Both operands take their common integer type, which is the result's.
const (
	// x & y, x | y, xor(x, y).
	FnBitwiseAnd = "bitwise_and"
	FnBitwiseOr  = "bitwise_or"
	FnBitwiseXor = "xor"
	// ~x.
	FnBitwiseNot = "bitwise_not"
	// x << n fails for a negative x or n, for n at least the type's width
	// and when a bit would reach the sign; x >> n is arithmetic, and 0 for
	// n negative or at least the width.
	FnShiftLeft  = "shift_left"
	FnShiftRight = "shift_right"
)

// bitwiseOps are the infix operators' functions.
var bitwiseOps = map[string]string{"&": FnBitwiseAnd, "|": FnBitwiseOr, "<<": FnShiftLeft, ">>": FnShiftRight}

// bitwiseFunctions are the registry's entries for the functions that are
// not operators: DuckDB's xor, and Trino's names for the operators.
func bitwiseFunctions() map[string]*funcSpec {
	binary := func(fn string) bindFn {
		return func(_ *binder, c *funcCall) (Expr, error) {
			return bindBitwise(fn, c.args[0], c.args[1], c.pos)
		}
	}
	return map[string]*funcSpec{
		"xor":         {"(integer, integer)", 2, 2, binary(FnBitwiseXor)},
		"bitwise_and": {"(integer, integer)", 2, 2, binary(FnBitwiseAnd)},
		"bitwise_or":  {"(integer, integer)", 2, 2, binary(FnBitwiseOr)},
		"bitwise_xor": {"(integer, integer)", 2, 2, binary(FnBitwiseXor)},
		"bitwise_not": {"(integer)", 1, 1, func(_ *binder, c *funcCall) (Expr, error) {
			return bindBitwiseNot(c.args[0], c.pos)
		}},
	}
}

// bindBitwise binds a binary bitwise operation. A string literal operand
// reads as the other's type ('5' & 3), as in arithmetic.
func bindBitwise(fn string, l, r Expr, pos sql.Pos) (Expr, error) {
	lt, rt := l.Type(), r.Type()
	if lt.ID() == arrow.NULL {
		lt = rt
	}
	if rt.ID() == arrow.NULL {
		rt = lt
	}
	if _, ok := l.(*Literal); ok && isString(lt) && IsInteger(rt) {
		lt = rt
	}
	if _, ok := r.(*Literal); ok && isString(rt) && IsInteger(lt) {
		rt = lt
	}
	if lt.ID() == arrow.NULL {
		lt, rt = TypeInt, TypeInt
	}
	if !IsInteger(lt) || !IsInteger(rt) {
		return nil, kindErrorf(ErrType, pos, "%s needs integers, got %s and %s", bitwiseName(fn), TypeString(l.Type()), TypeString(r.Type()))
	}
	t := commonNumeric(lt, rt)
	// An integer constant takes the other operand's type when it fits, as
	// DuckDB types integer literals: 1::TINYINT << 7 shifts in 8 bits.
	switch {
	case fitsLiteral(r, lt):
		t = lt
	case fitsLiteral(l, rt):
		t = rt
	}
	args := []Expr{l, r}
	for i, a := range args {
		c, err := castTo(a, t)
		if err != nil {
			return nil, errorf(pos, "%v", err)
		}
		args[i] = c
	}
	return &Call{Fn: fn, Args: args, T: t}, nil
}

// fitsLiteral reports whether e is an integer constant as written (an INT)
// that integer type t holds.
func fitsLiteral(e Expr, t arrow.DataType) bool {
	lit, ok := e.(*Literal)
	if !ok || lit.T.ID() != arrow.INT32 || !IsInteger(t) {
		return false
	}
	i, ok := literalInt(lit.Value)
	return ok && intFits(i, t)
}

// bindBitwiseNot binds ~x.
func bindBitwiseNot(x Expr, pos sql.Pos) (Expr, error) {
	t := x.Type()
	if t.ID() == arrow.NULL {
		return castFolded(x, TypeInt), nil
	}
	if !IsInteger(t) {
		return nil, kindErrorf(ErrType, pos, "~ needs an integer, got %s", TypeString(t))
	}
	return &Call{Fn: FnBitwiseNot, Args: []Expr{x}, T: t}, nil
}

// bitwiseName is how an error names fn: its operator, or its name.
func bitwiseName(fn string) string {
	if op, ok := infixOps[fn]; ok {
		return "operator " + op
	}
	return fn
}
