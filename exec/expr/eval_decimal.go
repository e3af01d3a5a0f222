package expr

import (
	"fmt"
	"math/big"
	"math/bits"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/value"
)

// decimalMath evaluates one decimal operation. Operands arrive at scales sa
// and sb; the result has the scale and precision of the call's type. The
// big.Ints are scratch space reused across rows.
type decimalMath struct {
	sa, sb, s, prec int32
	x, y, t         big.Int
}

func decimalParams(t arrow.DataType) (prec, scale int32) {
	d := t.(*arrow.Decimal128Type)
	return d.Precision, d.Scale
}

// decimalKernel returns the row kernel for c over decimal operands of types
// ta and tb, rescaling them to the result type c.T.
func decimalKernel(c *planner.Call, ta, tb arrow.DataType) (func(x, y decimal128.Num) (decimal128.Num, outcome), error) {
	_, sa := decimalParams(ta)
	_, sb := decimalParams(tb)
	prec, s := decimalParams(c.T)
	m := &decimalMath{sa: sa, sb: sb, s: s, prec: prec}
	switch c.Fn {
	case planner.FnAdd:
		return m.add, nil
	case planner.FnSub:
		return m.sub, nil
	case planner.FnMul:
		return m.mul, nil
	case planner.FnDiv:
		return m.div, nil
	case planner.FnMod:
		return m.mod, nil
	}
	return nil, fmt.Errorf("%s: unsupported decimal operation", c)
}

// add and sub rescale both operands to the result scale, which is at least
// theirs, so no digit is dropped; operands below 10^38 cannot make the
// 128-bit sum wrap. An operand that leaves 38 digits once rescaled (an
// operand of DECIMAL(38,0) in a DECIMAL(38,30) sum) is added exactly, in a
// big.Int, and the sum then checked.
func (m *decimalMath) add(x, y decimal128.Num) (decimal128.Num, outcome) {
	a, b := m.rescale(x, m.sa, m.s), m.rescale(y, m.sb, m.s)
	if a == tooLargeDecimal || b == tooLargeDecimal {
		return m.exactSum(x, y, false)
	}
	return m.fit(a.Add(b))
}

func (m *decimalMath) sub(x, y decimal128.Num) (decimal128.Num, outcome) {
	a, b := m.rescale(x, m.sa, m.s), m.rescale(y, m.sb, m.s)
	if a == tooLargeDecimal || b == tooLargeDecimal {
		return m.exactSum(x, y, true)
	}
	return m.fit(a.Sub(b))
}

// exactSum is x + y (x - y with negate) at the result's scale, computed in
// big.Ints.
func (m *decimalMath) exactSum(x, y decimal128.Num, negate bool) (decimal128.Num, outcome) {
	m.load(x, y, m.s)
	if negate {
		m.y.Neg(&m.y)
	}
	return m.result(m.x.Add(&m.x, &m.y))
}

func (m *decimalMath) mul(x, y decimal128.Num) (decimal128.Num, outcome) {
	if m.sa+m.sb == m.s {
		// No rescaling: operands that fit in 64 bits multiply exactly in 128.
		if a, ok := decimalInt64(x); ok {
			if b, ok := decimalInt64(y); ok {
				hi, lo := bits.Mul64(absInt64(a), absInt64(b))
				if hi < 1<<62 {
					n := decimal128.New(int64(hi), lo)
					if (a < 0) != (b < 0) {
						n = n.Negate()
					}
					return m.fit(n)
				}
			}
		}
	}
	toBig(&m.x, x)
	toBig(&m.y, y)
	m.x.Mul(&m.x, &m.y)
	rescaleBig(&m.x, m.sa+m.sb, m.s, &m.t)
	return m.result(&m.x)
}

// div rounds the quotient half away from zero at the result scale; division
// by zero is NULL.
func (m *decimalMath) div(x, y decimal128.Num) (decimal128.Num, outcome) {
	if y.Sign() == 0 {
		return decimal128.Num{}, valueNull
	}
	toBig(&m.x, x)
	toBig(&m.y, y)
	// x/10^sa ÷ y/10^sb = (x · 10^(s+sb-sa) / y) / 10^s
	if e := m.s + m.sb - m.sa; e >= 0 {
		m.x.Mul(&m.x, value.Pow10(e))
	} else {
		m.y.Mul(&m.y, value.Pow10(-e))
	}
	value.RoundQuo(&m.x, &m.x, &m.y, &m.t)
	return m.result(&m.x)
}

// mod is truncated (the result has the sign of x); modulo by zero is NULL.
func (m *decimalMath) mod(x, y decimal128.Num) (decimal128.Num, outcome) {
	if y.Sign() == 0 {
		return decimal128.Num{}, valueNull
	}
	m.load(x, y, m.s)
	if m.y.Sign() == 0 {
		return decimal128.Num{}, valueNull
	}
	return m.result(m.x.Rem(&m.x, &m.y))
}

// rescale changes v's scale from `from` to `to`, rounding half away from
// zero when digits are dropped. Values that fit in 64 bits (every decimal of
// precision 18 or less) take 64-bit arithmetic; others go through big.Int.
// A result of 38 digits or more comes back as tooLargeDecimal.
func (m *decimalMath) rescale(v decimal128.Num, from, to int32) decimal128.Num {
	if from == to {
		return v
	}
	if a, ok := decimalInt64(v); ok && to-from <= 18 && from-to <= 18 {
		if to > from {
			hi, lo := bits.Mul64(absInt64(a), uint64(pow10Int64[to-from]))
			if hi < 1<<62 {
				n := decimal128.New(int64(hi), lo)
				if a < 0 {
					n = n.Negate()
				}
				return n
			}
		} else {
			p := pow10Int64[from-to]
			q, r := a/p, a%p
			if 2*absInt64(r) >= uint64(p) {
				q += int64(v.Sign())
			}
			return decimal128.FromI64(q)
		}
	}
	rescaleBig(toBig(&m.x, v), from, to, &m.t)
	if m.x.CmpAbs(value.Pow10(38)) >= 0 {
		return tooLargeDecimal
	}
	return decimal128.FromBigInt(&m.x)
}

// tooLargeDecimal is 10^38, which fits no decimal precision: rescale's
// answer for a value that leaves 38 digits, which callers test for.
var tooLargeDecimal = decimal128.FromBigInt(value.Pow10(38))

// pow10Int64[i] is 10^i.
var pow10Int64 = func() (p [19]int64) {
	p[0] = 1
	for i := 1; i < len(p); i++ {
		p[i] = p[i-1] * 10
	}
	return p
}()

// load sets m.x and m.y to x and y rescaled to scale s.
func (m *decimalMath) load(x, y decimal128.Num, s int32) {
	rescaleBig(toBig(&m.x, x), m.sa, s, &m.t)
	rescaleBig(toBig(&m.y, y), m.sb, s, &m.t)
}

func (m *decimalMath) fit(v decimal128.Num) (decimal128.Num, outcome) {
	if !v.FitsInPrecision(m.prec) {
		return decimal128.Num{}, overflow
	}
	return v, ValueOK
}

func (m *decimalMath) result(v *big.Int) (decimal128.Num, outcome) {
	if v.CmpAbs(value.Pow10(m.prec)) >= 0 {
		return decimal128.Num{}, overflow
	}
	return decimal128.FromBigInt(v), ValueOK
}

// decimalInt64 returns n's unscaled value when it fits in an int64.
func decimalInt64(n decimal128.Num) (int64, bool) {
	hi, lo := n.HighBits(), n.LowBits()
	if (hi == 0 && lo < 1<<63) || (hi == -1 && lo >= 1<<63) {
		return int64(lo), true
	}
	return 0, false
}

// absInt64 is |a| as a uint64 (exact for math.MinInt64 too).
func absInt64(a int64) uint64 {
	if a < 0 {
		return uint64(-a)
	}
	return uint64(a)
}

// toBig sets z to the value of n and returns z.
func toBig(z *big.Int, n decimal128.Num) *big.Int {
	neg := n.Sign() < 0
	if neg {
		n = n.Negate()
	}
	z.SetUint64(uint64(n.HighBits()))
	z.Lsh(z, 64)
	z.Or(z, new(big.Int).SetUint64(n.LowBits()))
	if neg {
		z.Neg(z)
	}
	return z
}

// rescaleBig changes the scale of z from `from` to `to`, rounding half away
// from zero when digits are dropped; t is scratch.
func rescaleBig(z *big.Int, from, to int32, t *big.Int) {
	switch {
	case to > from:
		z.Mul(z, value.Pow10(to-from))
	case to < from:
		value.RoundQuo(z, z, value.Pow10(from-to), t)
	}
}
