package expr

import (
	"math/bits"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakesql/lakesql/planner"
)

// decimal64Arith evaluates +, - and * of decimals whose values all fit in 64
// bits (every DECIMAL of precision 18 or less, and most sums and products
// of them) with one tight loop over the 128-bit words, instead of a
// row-by-row kernel: TPC-H's l_extendedprice * (1 - l_discount) * (1 +
// l_tax) runs six million times a query. ok is false when the operands or
// the bound on the result rule it out; the general kernel then runs.
func (ev *evaluator) decimal64Arith(c *planner.Call, a, b operand) (out arrow.Array, ok bool) {
	_, sa := decimalParams(a.t)
	_, sb := decimalParams(b.t)
	prec, s := decimalParams(c.T)
	x, maxX, okX := ev.int64Operand(a)
	y, maxY, okY := ev.int64Operand(b)
	if !okX || !okY {
		return nil, false
	}
	var bound uint64                                  // of the result's magnitudes, when below 2^63
	limit := decimal128.GetScaleMultiplier(int(prec)) // results must stay below it
	res := memory.NewResizableBuffer(ev.mem)
	res.Resize(ev.n * int(unsafe.Sizeof(decimal128.Num{})))
	dst := arrow.GetData[decimal128.Num](res.Bytes())[:ev.n]
	switch c.Fn {
	case planner.FnAdd, planner.FnSub:
		if s < sa || s < sb || s-sa > 18 || s-sb > 18 {
			res.Release()
			return nil, false
		}
		ma, mb := uint64(pow10Int64[s-sa]), uint64(pow10Int64[s-sb])
		hiA, loA := bits.Mul64(maxX, ma)
		hiB, loB := bits.Mul64(maxY, mb)
		sum, carry := bits.Add64(loA, loB, 0)
		if hiA|hiB|carry != 0 || sum >= 1<<63 || !decimal128.FromU64(sum).Less(limit) {
			res.Release()
			return nil, false
		}
		bound = sum
		ia, ib := int64(ma), int64(mb)
		if c.Fn == planner.FnSub {
			ib = -ib
		}
		for i := range dst {
			dst[i] = decimal128.FromI64(x.at(i)*ia + y.at(i)*ib)
		}
	case planner.FnMul:
		if s != sa+sb {
			res.Release()
			return nil, false
		}
		hi, lo := bits.Mul64(maxX, maxY)
		if !decimal128.New(int64(hi), lo).Less(limit) || hi >= 1<<62 {
			res.Release()
			return nil, false
		}
		if hi == 0 && lo < 1<<63 {
			// Every product fits in 64 bits, as most do.
			bound = lo
			for i := range dst {
				dst[i] = decimal128.FromI64(x.at(i) * y.at(i))
			}
			break
		}
		for i := range dst {
			p, q := x.at(i), y.at(i)
			hi, lo := bits.Mul64(absInt64(p), absInt64(q))
			n := decimal128.New(int64(hi), lo)
			if (p < 0) != (q < 0) {
				n = n.Negate()
			}
			dst[i] = n
		}
	default:
		res.Release()
		return nil, false
	}
	out = MakeArray(c.T, ev.n, ev.validity(a, b), res)
	if bound > 0 && ev.int64Bounds != nil {
		ev.int64Bounds[out] = bound
	}
	return out, true
}

// int64Operand is int64Operand, without reading the values again when
// they are a result whose bound the evaluator knows: an operand that is
// itself a product or sum, such as (1 - l_discount) in TPC-H Q1's
// l_extendedprice * (1 - l_discount) * (1 + l_tax), or a column an earlier
// call read.
func (ev *evaluator) int64Operand(o operand) (int64Values, uint64, bool) {
	if o.arr != nil && ev.int64Bounds != nil {
		if bound, ok := ev.int64Bounds[o.arr]; ok {
			return int64Values{words: decimalWords(o.arr, ev.n)}, bound, true
		}
	}
	v, bound, ok := int64Operand(o, ev.n)
	if ok && o.arr != nil && ev.int64Bounds != nil {
		ev.int64Bounds[o.arr] = bound
	}
	return v, bound, ok
}

// compareDecimal64 compares decimals of one scale whose values all fit in
// 64 bits as int64s (TPC-H Q6's l_discount BETWEEN 0.05 AND 0.07), like
// compareOrdered; it reports false, writing nothing, when they do not.
func compareDecimal64(less bool, a, b operand, out []byte, n int) bool {
	_, sa := decimalParams(a.t)
	_, sb := decimalParams(b.t)
	if sa != sb {
		return false
	}
	x, _, okX := int64Operand(a, n)
	y, _, okY := int64Operand(b, n)
	if !okX || !okY {
		return false
	}
	if less {
		for i := 0; i < n; i++ {
			out[i>>3] |= BoolByte(x.at(i) < y.at(i)) << (i & 7)
		}
		return true
	}
	for i := 0; i < n; i++ {
		out[i>>3] |= BoolByte(x.at(i) == y.at(i)) << (i & 7)
	}
	return true
}

// int64Values is a decimal operand's unscaled values as int64s: a column's
// values read from the low words of its 128-bit values, or a constant.
type int64Values struct {
	words   []uint64 // lo, hi, lo, hi, …
	c       int64
	isConst bool
}

func (v int64Values) at(i int) int64 {
	if v.isConst {
		return v.c
	}
	return int64(v.words[2*i])
}

// int64Operand views a decimal operand as int64 values, with the largest
// magnitude among them (NULL rows included: their bits are not defined, so
// they count). ok is false when some value does not fit in 64 bits.
func int64Operand(o operand, n int) (v int64Values, maxAbs uint64, ok bool) {
	if o.lit != nil {
		c, ok := decimalInt64(o.lit.Value.(decimal128.Num))
		return int64Values{c: c, isConst: true}, absInt64(c), ok
	}
	words := decimalWords(o.arr, n)
	for i := 0; i < 2*n; i += 2 {
		lo, hi := words[i], int64(words[i+1])
		// The value fits when hi is lo's sign extended.
		if hi != int64(lo)>>63 {
			return int64Values{}, 0, false
		}
		maxAbs = max(maxAbs, absInt64(int64(lo)))
	}
	return int64Values{words: words}, maxAbs, true
}

// decimalWords views the first n values of a DECIMAL array as 64-bit
// words: lo, hi, lo, hi, ….
func decimalWords(arr arrow.Array, n int) []uint64 {
	vals := FixedValues[decimal128.Num](ExtensionStorage(arr))[:n]
	return unsafe.Slice((*uint64)(unsafe.Pointer(unsafe.SliceData(vals))), 2*n)
}
