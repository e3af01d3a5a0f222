package expr

import (
	"cmp"
	"fmt"
	"math"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/value"
)

// Math kernels. The binder gives abs, sign, floor, ceil and round an INT,
// BIGINT, FLOAT, DOUBLE or DECIMAL operand, and the DOUBLE functions DOUBLE
// operands.

// unaryRows maps a one-operand call's values of type T through f into an
// array of type c.T; an overflow outcome fails the call.
func unaryRows[T, R FixedWidth](ev *evaluator, c *planner.Call, ops []operand, f func(T) (R, outcome)) (arrow.Array, error) {
	x := fixedVec[T](ops[0])
	return fixedRows(ev, c.T, ops, func(i int) (R, outcome) { return f(x.At(i)) }, overflowError(c))
}

func absKernel(ev *evaluator, c *planner.Call, ops []operand) (arrow.Array, error) {
	switch KindOf(c.T) {
	case KindInt32:
		return unaryRows(ev, c, ops, intAbs[int32])
	case KindInt64:
		return unaryRows(ev, c, ops, intAbs[int64])
	case KindFloat32:
		return unaryRows(ev, c, ops, floatAbs[float32])
	case KindFloat64:
		return unaryRows(ev, c, ops, floatAbs[float64])
	case KindDecimal:
		// |x| has x's digits, so it keeps within the precision.
		return unaryRows(ev, c, ops, func(x decimal128.Num) (decimal128.Num, outcome) { return x.Abs(), ValueOK })
	}
	return nil, unsupportedType(c, ops[0].t)
}

func intAbs[T Signed](x T) (T, outcome) {
	if x < 0 {
		return intNeg(x)
	}
	return x, ValueOK
}

func floatAbs[T Float](x T) (T, outcome) { return T(math.Abs(float64(x))), ValueOK }

// signKernel gives -1, 0 or 1 as an INT; NaN has sign 0.
func signKernel(ev *evaluator, c *planner.Call, ops []operand) (arrow.Array, error) {
	switch KindOf(ops[0].t) {
	case KindInt32:
		return unaryRows(ev, c, ops, signOf[int32])
	case KindInt64:
		return unaryRows(ev, c, ops, signOf[int64])
	case KindFloat32:
		return unaryRows(ev, c, ops, signOf[float32])
	case KindFloat64:
		return unaryRows(ev, c, ops, signOf[float64])
	case KindDecimal:
		return unaryRows(ev, c, ops, func(x decimal128.Num) (int32, outcome) { return int32(x.Sign()), ValueOK })
	}
	return nil, unsupportedType(c, ops[0].t)
}

func signOf[T cmp.Ordered](x T) (int32, outcome) {
	var zero T
	switch {
	case x > zero:
		return 1, ValueOK
	case x < zero:
		return -1, ValueOK
	}
	return 0, ValueOK
}

// floorCeilKernel rounds a FLOAT, DOUBLE or DECIMAL down (floor) or up; the
// binder leaves integers alone and types a DECIMAL result with scale 0.
func floorCeilKernel(floor bool) func(*evaluator, *planner.Call, []operand) (arrow.Array, error) {
	f := math.Ceil
	if floor {
		f = math.Floor
	}
	return func(ev *evaluator, c *planner.Call, ops []operand) (arrow.Array, error) {
		switch KindOf(c.T) {
		case KindFloat32:
			return unaryRows(ev, c, ops, func(x float32) (float32, outcome) { return float32(f(float64(x))), ValueOK })
		case KindFloat64:
			return unaryRows(ev, c, ops, func(x float64) (float64, outcome) { return f(x), ValueOK })
		case KindDecimal:
			unit := decimal128.GetScaleMultiplier(int(decimalScale(ops[0].t)))
			return unaryRows(ev, c, ops, func(x decimal128.Num) (decimal128.Num, outcome) {
				q, r := x.Div(unit) // truncated toward zero
				switch {
				case floor && r.Sign() < 0:
					q = q.Sub(decimal128.FromI64(1))
				case !floor && r.Sign() > 0:
					q = q.Add(decimal128.FromI64(1))
				}
				return q, ValueOK
			})
		}
		return nil, unsupportedType(c, ops[0].t)
	}
}

// roundKernel rounds half away from zero (round), or half to even
// (bround), to the digits of the second operand (negative digits round left
// of the decimal point).
func roundKernel(halfEven bool) func(ev *evaluator, c *planner.Call, ops []operand) (arrow.Array, error) {
	return func(ev *evaluator, c *planner.Call, ops []operand) (arrow.Array, error) {
		switch KindOf(c.T) {
		case KindInt32:
			return roundRows(ev, c, ops, func(x int32, d int64) (int32, outcome) { return roundInt(x, d, halfEven) })
		case KindInt64:
			return roundRows(ev, c, ops, func(x int64, d int64) (int64, outcome) { return roundInt(x, d, halfEven) })
		case KindFloat32:
			return roundRows(ev, c, ops, func(x float32, d int64) (float32, outcome) {
				return float32(roundFloat(float64(x), d, halfEven)), ValueOK
			})
		case KindFloat64:
			return roundRows(ev, c, ops, func(x float64, d int64) (float64, outcome) { return roundFloat(x, d, halfEven), ValueOK })
		case KindDecimal:
			prec, _ := decimalParams(c.T)
			scale := int64(decimalScale(ops[0].t))
			return roundRows(ev, c, ops, func(x decimal128.Num, d int64) (decimal128.Num, outcome) {
				return roundDecimal(x, scale, d, prec, halfEven)
			})
		}
		return nil, unsupportedType(c, ops[0].t)
	}
}

// truncKernel is DuckDB's trunc(x, digits): x with the digits after the
// digits-th decimal dropped, toward zero (negative digits drop those left
// of the decimal point). Nothing can overflow.
func truncKernel(ev *evaluator, c *planner.Call, ops []operand) (arrow.Array, error) {
	switch KindOf(c.T) {
	case KindInt32:
		return roundRows(ev, c, ops, truncInt[int32])
	case KindInt64:
		return roundRows(ev, c, ops, truncInt[int64])
	case KindFloat32:
		return roundRows(ev, c, ops, func(x float32, d int64) (float32, outcome) { return float32(truncFloat(float64(x), d)), ValueOK })
	case KindFloat64:
		return roundRows(ev, c, ops, func(x float64, d int64) (float64, outcome) { return truncFloat(x, d), ValueOK })
	case KindDecimal:
		scale := int64(decimalScale(ops[0].t))
		return roundRows(ev, c, ops, func(x decimal128.Num, d int64) (decimal128.Num, outcome) {
			return truncDecimal(x, scale, d), ValueOK
		})
	}
	return nil, unsupportedType(c, ops[0].t)
}

// truncInt drops an integer's digits below 10^-digits; digits ≥ 0 leave it.
func truncInt[T Signed](x T, digits int64) (T, outcome) {
	switch {
	case digits >= 0:
		return x, ValueOK
	case digits < -18:
		return 0, ValueOK // 10^19 exceeds BIGINT
	}
	unit := int64(math.Pow10(int(-digits)))
	return T(int64(x) / unit * unit), ValueOK
}

// truncDecimal drops the digits of x, an unscaled value of the given scale,
// after the digits-th decimal (digits < scale); the result has scale
// max(digits, 0).
func truncDecimal(x decimal128.Num, scale, digits int64) decimal128.Num {
	drop := scale - digits
	if drop > 38 {
		return decimal128.Num{} // |x| < 10^38
	}
	q, _ := x.Div(decimal128.GetScaleMultiplier(int(drop)))
	if digits < 0 {
		q = q.Mul(decimal128.GetScaleMultiplier(int(-digits)))
	}
	return q
}

func roundRows[T FixedWidth](ev *evaluator, c *planner.Call, ops []operand, f func(x T, digits int64) (T, outcome)) (arrow.Array, error) {
	x, d := fixedVec[T](ops[0]), fixedVec[int64](ops[1])
	return fixedRows(ev, c.T, ops, func(i int) (T, outcome) { return f(x.At(i), d.At(i)) }, overflowError(c))
}

// roundInt rounds an integer to a multiple of 10^-digits, a tie away from
// zero or to even; digits ≥ 0 leave it whole.
func roundInt[T Signed](x T, digits int64, halfEven bool) (T, outcome) {
	if digits >= 0 {
		return x, ValueOK
	}
	if digits < -18 {
		// 10^19 exceeds BIGINT: every value rounds to 0 or overflows.
		if v := int64(x); v > -5e18 && v < 5e18 {
			return 0, ValueOK
		}
		return 0, overflow
	}
	unit := int64(math.Pow10(int(-digits)))
	q, r := int64(x)/unit, int64(x)%unit
	if twice := 2 * max(r, -r); twice > unit || twice == unit && (!halfEven || q%2 != 0) {
		q += int64(signOfInt(r))
	}
	v, o := intMul(q, unit)
	if o != ValueOK || int64(T(v)) != v {
		return 0, overflow
	}
	return T(v), ValueOK
}

func signOfInt(x int64) int {
	s, _ := signOf(x)
	return int(s)
}

// roundFloat rounds half away from zero; digits beyond what a double holds
// leave x unchanged. halfEven rounds as Spark's bround does, half to even
// from x's shortest decimal form (value.RoundDecimalText).
func roundFloat(x float64, digits int64, halfEven bool) float64 {
	if !halfEven || math.IsNaN(x) || math.IsInf(x, 0) || digits > 308 || digits < -308 {
		return atDigits(x, digits, math.Round)
	}
	text := strconv.FormatFloat(math.Abs(x), 'f', -1, 64)
	r, _ := strconv.ParseFloat(value.RoundDecimalText(text, int(digits), true), 64)
	if r == 0 {
		return 0 // no negative zero, as Spark's BigDecimal has none
	}
	return math.Copysign(r, x)
}

// truncFloat drops the digits after the digits-th decimal, toward zero.
// Where 10^-digits is no double, x stays, as in DuckDB (whose round gives
// 0 there, as roundFloat does).
func truncFloat(x float64, digits int64) float64 {
	if digits < -308 {
		return x
	}
	return atDigits(x, digits, math.Trunc)
}

// atDigits applies whole, a rounding to a whole number, at the digits-th
// decimal of x (left of the point when digits < 0).
func atDigits(x float64, digits int64, whole func(float64) float64) float64 {
	switch {
	case math.IsNaN(x) || math.IsInf(x, 0) || digits > 308:
		return x
	case digits < -308:
		return 0
	case digits >= 0:
		p := math.Pow10(int(digits))
		if y := x * p; !math.IsInf(y, 0) {
			return whole(y) / p
		}
		return x
	}
	p := math.Pow10(int(-digits))
	return whole(x/p) * p
}

// roundDecimal rounds x, an unscaled value of the given scale, to digits <
// scale decimal digits; the result has scale max(digits, 0) and must fit prec.
func roundDecimal(x decimal128.Num, scale, digits int64, prec int32, halfEven bool) (decimal128.Num, outcome) {
	drop := scale - digits
	if drop > 38 {
		return decimal128.Num{}, ValueOK // |x| < 10^38 rounds to 0
	}
	unit := decimal128.GetScaleMultiplier(int(drop))
	q, r := x.Div(unit)
	// |r| ≥ unit/2 (> with halfEven when q is even), written so that
	// nothing overflows
	if tie := r.Abs().Cmp(unit.Sub(r.Abs())); tie > 0 || tie == 0 && (!halfEven || !evenNum(q)) {
		q = q.Add(decimal128.FromI64(int64(x.Sign())))
	}
	if digits < 0 {
		q = q.Mul(decimal128.GetScaleMultiplier(int(-digits)))
	}
	if !q.FitsInPrecision(prec) {
		return decimal128.Num{}, overflow
	}
	return q, ValueOK
}

// evenNum reports whether the unscaled value q is even.
func evenNum(q decimal128.Num) bool { return q.LowBits()%2 == 0 }

func decimalScale(t arrow.DataType) int32 {
	_, s := decimalParams(t)
	return s
}

// doubleKernel applies f to a DOUBLE; arguments outside the domain give
// NULL, as in Spark's log (DuckDB raises an error instead).
func doubleKernel(f func(float64) float64, domain func(float64) bool) func(*evaluator, *planner.Call, []operand) (arrow.Array, error) {
	return func(ev *evaluator, c *planner.Call, ops []operand) (arrow.Array, error) {
		return unaryRows(ev, c, ops, func(x float64) (float64, outcome) {
			if !domain(x) {
				return 0, valueNull
			}
			return f(x), ValueOK
		})
	}
}

// nonNegative and positive admit NaN, which passes through.
func nonNegative(x float64) bool { return !(x < 0) }
func positive(x float64) bool    { return !(x <= 0) }
func anyDouble(float64) bool     { return true }

// powerKernel is x^y; a NaN result from non-NaN operands (a negative base
// with a fractional exponent) is NULL.
func powerKernel(ev *evaluator, c *planner.Call, ops []operand) (arrow.Array, error) {
	x, y := fixedVec[float64](ops[0]), fixedVec[float64](ops[1])
	return fixedRows(ev, c.T, ops, func(i int) (float64, outcome) {
		a, b := x.At(i), y.At(i)
		p := math.Pow(a, b)
		if math.IsNaN(p) && !math.IsNaN(a) && !math.IsNaN(b) {
			return 0, valueNull
		}
		return p, ValueOK
	}, nil)
}

// extremeKernel is greatest (better = gt) or least (better = lt): per row,
// the best non-NULL operand; NULL only when all are NULL.
func extremeKernel(better string) func(*evaluator, *planner.Call, []operand) (arrow.Array, error) {
	return func(ev *evaluator, c *planner.Call, ops []operand) (arrow.Array, error) {
		best, err := ev.materialize(ops[0])
		if err != nil {
			return nil, err
		}
		for _, o := range ops[1:] {
			if o.isNullLiteral() {
				continue
			}
			next, err := ev.takeBetter(c.T, best, o, better)
			best.Release()
			if err != nil {
				return nil, err
			}
			best = next
		}
		return best, nil
	}
}

// takeBetter returns best with the rows where o is valid and either best is
// NULL or o is better replaced by o's values.
func (ev *evaluator) takeBetter(t arrow.DataType, best arrow.Array, o operand, better string) (arrow.Array, error) {
	cur := operand{arr: best, t: t}
	wins, err := ev.compareBits(better, o, cur)
	if err != nil {
		return nil, err
	}
	defer wins.Release()
	ov, bv, bits := ev.validBits(o), ev.validBits(cur), wins.Bytes()
	var taken []int32
	for i := 0; i < ev.n; i++ {
		j, m := i>>3, byte(1)<<(i&7)
		if byteAt(ov, j)&m != 0 && (byteAt(bv, j)&m == 0 || bits[j]&m != 0) {
			taken = append(taken, int32(i))
		}
	}
	best.Retain()
	if len(taken) == 0 {
		return best, nil
	}
	arr, err := ev.materialize(o)
	if err != nil {
		best.Release()
		return nil, err
	}
	g := ev.newGather(t)
	defer g.release()
	rows := allRows(ev.n)
	g.add(best, rows, ev.n)
	g.addSelected(arr, rows, taken)
	return g.finish()
}

func unsupportedType(c *planner.Call, t arrow.DataType) error {
	return fmt.Errorf("%s: unsupported type %s", c, planner.TypeString(t))
}
