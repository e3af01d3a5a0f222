package expr

import (
	"bytes"
	"cmp"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakesql/lakesql/planner"
)

// kind is the physical representation kernels dispatch on.
type kind int

const (
	KindUnsupported kind = iota
	KindNull
	KindBool
	KindInt8
	KindInt16
	KindInt32 // INT, DATE
	KindInt64 // BIGINT, TIME, TIMESTAMP(TZ)
	KindFloat32
	KindFloat64
	KindDecimal
	KindBytes // STRING, BINARY, UUID
)

func KindOf(t arrow.DataType) kind {
	switch StorageTypeOf(t).ID() {
	case arrow.NULL:
		return KindNull
	case arrow.BOOL:
		return KindBool
	case arrow.INT8:
		return KindInt8
	case arrow.INT16:
		return KindInt16
	case arrow.INT32, arrow.DATE32, arrow.TIME32:
		return KindInt32
	case arrow.INT64, arrow.DATE64, arrow.TIME64, arrow.TIMESTAMP, arrow.DURATION:
		return KindInt64
	case arrow.FLOAT32:
		return KindFloat32
	case arrow.FLOAT64:
		return KindFloat64
	case arrow.DECIMAL128:
		return KindDecimal
	case arrow.STRING, arrow.BINARY, arrow.FIXED_SIZE_BINARY:
		return KindBytes
	}
	return KindUnsupported
}

// cmpPlan reduces every comparison to = or <: a > b is b < a, a >= b is
// NOT (a < b), a <= b is NOT (b < a) and a <> b is NOT (a = b). This keeps one
// equality and one ordering loop per element type. Negation is exact because
// the orderings are total (NaN sorts above all numbers and equals itself, as
// in DuckDB and PostgreSQL).
type cmpPlan struct{ less, swap, negate bool }

var cmpPlans = map[string]cmpPlan{
	planner.FnEq: {},
	planner.FnNe: {negate: true},
	planner.FnLt: {less: true},
	planner.FnGt: {less: true, swap: true},
	planner.FnLe: {less: true, swap: true, negate: true},
	planner.FnGe: {less: true, negate: true},
}

// compare evaluates a comparison; the result is NULL where either side is.
func (ev *evaluator) compare(fn string, a, b operand) (arrow.Array, error) {
	if a.isNullLiteral() || b.isNullLiteral() {
		return ev.allNull(planner.TypeBoolean), nil
	}
	out, err := ev.compareBits(fn, a, b)
	if err != nil {
		return nil, err
	}
	return MakeArray(planner.TypeBoolean, ev.n, ev.validity(a, b), out), nil
}

// compareBits compares the values of two non-NULL-literal operands row by
// row into a new bitmap, ignoring validity.
func (ev *evaluator) compareBits(fn string, a, b operand) (*memory.Buffer, error) {
	p, ok := cmpPlans[fn]
	if !ok {
		return nil, fmt.Errorf("unknown comparison %q", fn)
	}
	if p.swap {
		a, b = b, a
	}
	out := ev.newBitmap()
	bits, n := out.Bytes(), ev.n
	switch KindOf(a.t) {
	case KindBool:
		compareOrdered(p.less, boolVec(a, n), boolVec(b, n), bits, n)
	case KindInt8:
		compareOrdered(p.less, fixedVec[int8](a), fixedVec[int8](b), bits, n)
	case KindInt16:
		compareOrdered(p.less, fixedVec[int16](a), fixedVec[int16](b), bits, n)
	case KindInt32:
		compareOrdered(p.less, fixedVec[int32](a), fixedVec[int32](b), bits, n)
	case KindInt64:
		compareOrdered(p.less, fixedVec[int64](a), fixedVec[int64](b), bits, n)
	case KindFloat32:
		compareOrdered(p.less, fixedVec[float32](a), fixedVec[float32](b), bits, n)
	case KindFloat64:
		compareOrdered(p.less, fixedVec[float64](a), fixedVec[float64](b), bits, n)
	case KindDecimal:
		if !compareDecimal64(p.less, a, b, bits, n) {
			compareWith(p.less, fixedVec[decimal128.Num](a), fixedVec[decimal128.Num](b), decimal128.Num.Cmp, bits, n)
		}
	case KindBytes:
		compareWith(p.less, newBytesVec(a), newBytesVec(b), bytes.Compare, bits, n)
	default:
		if err := ev.compareNested(p.less, a, b, bits); err != nil {
			out.Release()
			return nil, err
		}
	}
	if p.negate {
		for i := range bits {
			bits[i] = ^bits[i]
		}
	}
	return out, nil
}

// ordLess and ordEq order NaN above every other value and equal to itself;
// for integers the NaN tests fold away.
func ordLess[T cmp.Ordered](x, y T) bool { return x < y || (y != y && x == x) }
func ordEq[T cmp.Ordered](x, y T) bool   { return x == y || (x != x && y != y) }

// compareOrdered is the fast path for primitive types: inlined comparisons,
// no per-row calls.
func compareOrdered[T cmp.Ordered](less bool, a, b *vec[T], out []byte, n int) {
	if less {
		for i := 0; i < n; i++ {
			out[i>>3] |= BoolByte(ordLess(a.At(i), b.At(i))) << (i & 7)
		}
		return
	}
	for i := 0; i < n; i++ {
		out[i>>3] |= BoolByte(ordEq(a.At(i), b.At(i))) << (i & 7)
	}
}

// compareWith compares values that need a three-way comparison function
// (decimals, byte strings).
func compareWith[T any, V view[T]](less bool, a, b V, compare func(x, y T) int, out []byte, n int) {
	want := 0
	if less {
		want = -1
	}
	for i := 0; i < n; i++ {
		out[i>>3] |= BoolByte(compare(a.At(i), b.At(i)) == want) << (i & 7)
	}
}

// distinct evaluates IS [NOT] DISTINCT FROM: NULLs compare equal to each
// other and unequal to every value, so the result is never NULL.
func (ev *evaluator) distinct(fn string, a, b operand) (arrow.Array, error) {
	out := ev.newBitmap()
	if !a.isNullLiteral() && !b.isNullLiteral() {
		eq, err := ev.compareBits(planner.FnEq, a, b)
		if err != nil {
			out.Release()
			return nil, err
		}
		copy(out.Bytes(), eq.Bytes())
		eq.Release()
	}
	va, vb := ev.validBits(a), ev.validBits(b)
	bits := out.Bytes()
	for j := range bits {
		x, y := byteAt(va, j), byteAt(vb, j)
		same := (x & y & bits[j]) | (^x & ^y)
		if fn == planner.FnIsDistinct {
			same = ^same
		}
		bits[j] = same
	}
	return MakeArray(planner.TypeBoolean, ev.n, nil, out), nil
}

// validBits returns o's validity with row 0 at bit 0; nil means all valid.
func (ev *evaluator) validBits(o operand) []byte {
	switch {
	case o.isNullLiteral():
		return make([]byte, bitutil.BytesForBits(int64(ev.n)))
	case o.arr == nil || o.arr.NullN() == 0:
		return nil
	}
	return AlignedBits(o.arr.NullBitmapBytes(), o.arr.Data().Offset(), ev.n)
}

// byteAt reads byte j of a bitmap where nil means all bits set.
func byteAt(bm []byte, j int) byte {
	if bm == nil {
		return 0xff
	}
	return bm[j]
}
