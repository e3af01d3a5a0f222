package expr

import (
	"fmt"
	"math"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/value"
)

// outcome is what an arithmetic kernel reports for one row.
type outcome uint8

const (
	ValueOK   outcome = iota
	valueNull         // the row's result is NULL (division or modulo by zero)
	overflow          // the result does not fit the result type
)

type Signed = value.Signed
type Float interface{ ~float32 | ~float64 }

// Integer kernels detect overflow with the sign tricks of two's complement.
func IntAdd[T Signed](x, y T) (T, outcome) {
	s := x + y
	if (s^x)&(s^y) < 0 {
		return 0, overflow
	}
	return s, ValueOK
}

func intSub[T Signed](x, y T) (T, outcome) {
	d := x - y
	if (x^y)&(d^x) < 0 {
		return 0, overflow
	}
	return d, ValueOK
}

func intMul[T Signed](x, y T) (T, outcome) {
	p, ok := value.MulChecked(x, y)
	if !ok {
		return 0, overflow
	}
	return p, ValueOK
}

// intDiv truncates toward zero; division by zero is NULL (SQL engines differ
// here; lakesql follows DuckDB).
func intDiv[T Signed](x, y T) (T, outcome) {
	switch {
	case y == 0:
		return 0, valueNull
	case y == -1 && x == value.MinOf[T]():
		return 0, overflow
	}
	return x / y, ValueOK
}

// intMod has the sign of the dividend; modulo by zero is NULL.
func intMod[T Signed](x, y T) (T, outcome) {
	if y == 0 {
		return 0, valueNull
	}
	return x % y, ValueOK
}

func intNeg[T Signed](x T) (T, outcome) {
	if x == value.MinOf[T]() {
		return 0, overflow
	}
	return -x, ValueOK
}

func floatAdd[T Float](x, y T) (T, outcome) { return x + y, ValueOK }
func floatSub[T Float](x, y T) (T, outcome) { return x - y, ValueOK }
func floatMul[T Float](x, y T) (T, outcome) { return x * y, ValueOK }
func floatNeg[T Float](x T) (T, outcome)    { return -x, ValueOK }

// floatDiv: division by zero is NULL rather than ±Inf/NaN, as for integers.
func floatDiv[T Float](x, y T) (T, outcome) {
	if y == 0 {
		return 0, valueNull
	}
	return x / y, ValueOK
}

func floatMod[T Float](x, y T) (T, outcome) {
	if y == 0 {
		return 0, valueNull
	}
	return T(math.Mod(float64(x), float64(y))), ValueOK
}

// arith evaluates add, sub, mul, div, int_div and mod.
func (ev *evaluator) arith(c *planner.Call, a, b operand) (arrow.Array, error) {
	if a.isNullLiteral() || b.isNullLiteral() {
		return ev.allNull(c.T), nil
	}
	switch KindOf(c.T) {
	case KindInt8:
		return binaryKernel(ev, c, a, b, intKernel[int8](c.Fn))
	case KindInt16:
		return binaryKernel(ev, c, a, b, intKernel[int16](c.Fn))
	case KindInt32:
		return binaryKernel(ev, c, a, b, intKernel[int32](c.Fn))
	case KindInt64:
		return binaryKernel(ev, c, a, b, intKernel[int64](c.Fn))
	case KindFloat32:
		return binaryKernel(ev, c, a, b, floatKernel[float32](c.Fn))
	case KindFloat64:
		return binaryKernel(ev, c, a, b, floatKernel[float64](c.Fn))
	case KindDecimal:
		if out, ok := ev.decimal64Arith(c, a, b); ok {
			return out, nil
		}
		f, err := decimalKernel(c, a.t, b.t)
		if err != nil {
			return nil, err
		}
		return binaryKernel(ev, c, a, b, f)
	}
	return nil, fmt.Errorf("%s: unsupported type %s", c, planner.TypeString(c.T))
}

func intKernel[T Signed](fn string) func(x, y T) (T, outcome) {
	switch fn {
	case planner.FnAdd:
		return IntAdd[T]
	case planner.FnSub:
		return intSub[T]
	case planner.FnMul:
		return intMul[T]
	case planner.FnDiv, planner.FnIntDiv:
		return intDiv[T]
	}
	return intMod[T]
}

func floatKernel[T Float](fn string) func(x, y T) (T, outcome) {
	switch fn {
	case planner.FnAdd:
		return floatAdd[T]
	case planner.FnSub:
		return floatSub[T]
	case planner.FnMul:
		return floatMul[T]
	case planner.FnDiv, planner.FnIntDiv:
		return floatDiv[T]
	}
	return floatMod[T]
}

// binaryKernel applies f to the rows where both operands are valid, into a
// new array of type c.T. Rows for which f reports valueNull become NULL; an
// overflow fails the whole evaluation.
func binaryKernel[T FixedWidth](ev *evaluator, c *planner.Call, a, b operand, f func(x, y T) (T, outcome)) (arrow.Array, error) {
	x, y := fixedVec[T](a), fixedVec[T](b)
	return mapRows(ev, c.T, ev.validity(a, b), func(i int) (T, outcome) { return f(x.At(i), y.At(i)) }, overflowError(c))
}

// negate evaluates unary minus.
func (ev *evaluator) negate(c *planner.Call, a operand) (arrow.Array, error) {
	if a.isNullLiteral() {
		return ev.allNull(c.T), nil
	}
	ops := []operand{a}
	switch KindOf(c.T) {
	case KindInt8:
		return unaryRows(ev, c, ops, intNeg[int8])
	case KindInt16:
		return unaryRows(ev, c, ops, intNeg[int16])
	case KindInt32:
		return unaryRows(ev, c, ops, intNeg[int32])
	case KindInt64:
		return unaryRows(ev, c, ops, intNeg[int64])
	case KindFloat32:
		return unaryRows(ev, c, ops, floatNeg[float32])
	case KindFloat64:
		return unaryRows(ev, c, ops, floatNeg[float64])
	case KindDecimal:
		// Negation cannot leave the precision, which is symmetric around zero.
		return unaryRows(ev, c, ops, func(x decimal128.Num) (decimal128.Num, outcome) { return x.Negate(), ValueOK })
	}
	return nil, fmt.Errorf("%s: unsupported type %s", c, planner.TypeString(c.T))
}

// mapRows builds an array of type t from row(i), computed for each row valid
// in validity (nil: all rows); it takes ownership of validity. See fillRows.
func mapRows[T FixedWidth](ev *evaluator, t arrow.DataType, validity *memory.Buffer, row func(i int) (T, outcome), fail func(i int) error) (arrow.Array, error) {
	vals, validity, err := fillRows(ev, validity, row, fail)
	if err != nil {
		return nil, err
	}
	return MakeArray(t, ev.n, validity, vals), nil
}

// fillRows computes row(i) for each row valid in validity (nil: all rows)
// into a new buffer of n values of T, taking ownership of validity. Rows that
// report valueNull become NULL; a row that reports overflow stops the work
// with the error fail(i). NULL rows are skipped, so garbage under them can
// never raise errors.
func fillRows[T FixedWidth](ev *evaluator, validity *memory.Buffer, row func(i int) (T, outcome), fail func(i int) error) (vals, valid *memory.Buffer, err error) {
	n := ev.n
	buf := NewBuffer(ev.mem, n*int(unsafe.Sizeof(*new(T))))
	out := arrow.GetData[T](buf.Bytes())[:n]
	var bits []byte
	if validity != nil {
		bits = validity.Bytes()
	}
	for i := 0; i < n; i++ {
		if bits != nil && !bitutil.BitIsSet(bits, i) {
			continue
		}
		v, o := row(i)
		switch o {
		case valueNull:
			if validity == nil {
				validity = ev.newBitmap()
				bits = validity.Bytes()
				fill(bits, 0xff)
			}
			bitutil.ClearBit(bits, i)
		case overflow:
			buf.Release()
			if validity != nil {
				validity.Release()
			}
			return nil, nil, fail(i)
		}
		out[i] = v
	}
	return buf, validity, nil
}

// overflowError reports that c's result does not fit its type.
func overflowError(c *planner.Call) func(int) error {
	what := "integer"
	if c.T.ID() == arrow.DECIMAL128 {
		what = "decimal"
	}
	return func(int) error { return fmt.Errorf("%s overflow in %s", what, c) }
}
