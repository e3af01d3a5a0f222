package expr

import (
	"fmt"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakesql/lakesql/planner"
)

// bitwiseKernel computes the binary bitwise functions (planner
// bind_bitwise.go) on two integers of the call's type.
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
	x, y := fixedVec[T](ops[0]), fixedVec[T](ops[1])
	var op func(a, b T) (T, outcome)
	switch c.Fn {
	case planner.FnBitwiseAnd:
		op = func(a, b T) (T, outcome) { return a & b, ValueOK }
	case planner.FnBitwiseOr:
		op = func(a, b T) (T, outcome) { return a | b, ValueOK }
	case planner.FnBitwiseXor:
		op = func(a, b T) (T, outcome) { return a ^ b, ValueOK }
	case planner.FnShiftLeft:
		op = func(a, b T) (T, outcome) {
			if shiftLeftError(a, b) != "" {
				return 0, overflow
			}
			return a << b, ValueOK
		}
	case planner.FnShiftRight:
		op = shiftRight[T]
	default:
		return nil, fmt.Errorf("%s: not a bitwise function", c)
	}
	return fixedRows(ev, c.T, ops, func(i int) (T, outcome) { return op(x.At(i), y.At(i)) },
		func(i int) error { return fmt.Errorf("%s in %s", shiftLeftError(x.At(i), y.At(i)), c) })
}

// widthOf is the number of bits of T.
func widthOf[T Signed]() T { return T(8 * unsafe.Sizeof(T(0))) }

// shiftLeftError is why a << n has no value, as DuckDB words it, or "".
// A shift must keep every bit, the sign bit included, so it fails rather
// than wraps.
func shiftLeftError[T Signed](a, n T) string {
	width := widthOf[T]()
	switch {
	case n < 0:
		return fmt.Sprintf("Cannot left-shift by negative number %d", n)
	case a < 0:
		return fmt.Sprintf("Cannot left-shift negative number %d", a)
	case n >= width:
		return fmt.Sprintf("Left-shift value %d is out of range", n)
	case n > 0 && a >= T(1)<<(width-1-n):
		return fmt.Sprintf("Overflow in left shift (%d << %d)", a, n)
	}
	return ""
}

// shiftRight is a >> n, arithmetic (the sign is kept); 0 when n is
// negative or at least the width, as in DuckDB.
func shiftRight[T Signed](a, n T) (T, outcome) {
	if n < 0 || n >= widthOf[T]() {
		return 0, ValueOK
	}
	return a >> n, ValueOK
}

// bitwiseNotKernel is ~x.
func bitwiseNotKernel(ev *evaluator, c *planner.Call, ops []operand) (arrow.Array, error) {
	switch KindOf(c.T) {
	case KindInt8:
		return bitwiseNotRows[int8](ev, c, ops)
	case KindInt16:
		return bitwiseNotRows[int16](ev, c, ops)
	case KindInt32:
		return bitwiseNotRows[int32](ev, c, ops)
	case KindInt64:
		return bitwiseNotRows[int64](ev, c, ops)
	}
	return nil, fmt.Errorf("%s: unsupported type %s", c, planner.TypeString(c.T))
}

func bitwiseNotRows[T int8 | int16 | int32 | int64](ev *evaluator, c *planner.Call, ops []operand) (arrow.Array, error) {
	x := fixedVec[T](ops[0])
	return fixedRows(ev, c.T, ops, func(i int) (T, outcome) { return ^x.At(i), ValueOK }, nil)
}
