package expr

import (
	"fmt"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakesql/lakesql/planner"
)

// bitwiseKernel computes the bitwise functions (planner bind_bitwise.go)
// on integers of the call's type: ~x, or x op y.
func bitwiseKernel(ev *evaluator, c *planner.Call, ops []operand) (arrow.Array, error) {
	switch KindOf(c.T) {
	case KindInt8:
		return bitwiseRows[int8](ev, c, ops)
	case KindInt16:
		return bitwiseRows[int16](ev, c, ops)
	case KindInt32:
		return bitwiseRows[int32](ev, c, ops)
	case KindInt64:
		return bitwiseRows[int64](ev, c, ops)
	}
	return nil, fmt.Errorf("%s: unsupported type %s", c, planner.TypeString(c.T))
}

func bitwiseRows[T int8 | int16 | int32 | int64](ev *evaluator, c *planner.Call, ops []operand) (arrow.Array, error) {
	x := fixedVec[T](ops[0])
	if c.Fn == planner.FnBitwiseNot {
		return fixedRows(ev, c.T, ops, func(i int) (T, outcome) { return ^x.At(i), ValueOK }, nil)
	}
	y := fixedVec[T](ops[1])
	var op func(a, b T) (T, outcome)
	switch c.Fn {
	case planner.FnBitwiseAnd:
		op = func(a, b T) (T, outcome) { return a & b, ValueOK }
	case planner.FnBitwiseOr:
		op = func(a, b T) (T, outcome) { return a | b, ValueOK }
	case planner.FnBitwiseXor:
		op = func(a, b T) (T, outcome) { return a ^ b, ValueOK }
	case planner.FnShiftLeft:
		op = shiftLeft[T]
	case planner.FnShiftRight:
		op = shiftRight[T]
	default:
		return nil, fmt.Errorf("%s: not a bitwise function", c)
	}
	return fixedRows(ev, c.T, ops, func(i int) (T, outcome) { return op(x.At(i), y.At(i)) },
		func(i int) error { return fmt.Errorf("%s in %s", shiftLeftError(x.At(i), y.At(i)), c) })
}

// widthOf is the number of bits of T.
func widthOf[T int8 | int16 | int32 | int64]() T { return T(8 * unsafe.Sizeof(T(0))) }

// shiftLeft is a << n, which must keep every bit, the sign bit included:
// it fails rather than wraps, as in DuckDB.
func shiftLeft[T int8 | int16 | int32 | int64](a, n T) (T, outcome) {
	switch {
	case a < 0 || n < 0:
		return 0, overflow
	case n >= widthOf[T]():
		if a == 0 {
			return 0, ValueOK
		}
		return 0, overflow
	case n > 0 && a >= T(1)<<(widthOf[T]()-1-n):
		return 0, overflow
	}
	return a << n, ValueOK
}

// shiftLeftError is why shiftLeft(a, n) has no value, as DuckDB words it.
func shiftLeftError[T int8 | int16 | int32 | int64](a, n T) string {
	switch {
	case a < 0:
		return fmt.Sprintf("Cannot left-shift negative number %d", a)
	case n < 0:
		return fmt.Sprintf("Cannot left-shift by negative number %d", n)
	case n >= widthOf[T]():
		return fmt.Sprintf("Left-shift value %d is out of range", n)
	}
	return fmt.Sprintf("Overflow in left shift (%d << %d)", a, n)
}

// shiftRight is a >> n, arithmetic (the sign is kept); 0 when n is
// negative or at least the width, as in DuckDB.
func shiftRight[T int8 | int16 | int32 | int64](a, n T) (T, outcome) {
	if n < 0 || n >= widthOf[T]() {
		return 0, ValueOK
	}
	return a >> n, ValueOK
}
