package value

import (
	"errors"
	"fmt"
	"math/big"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow/decimal128"
)

var errDecimalSyntax = errors.New("invalid decimal")

// ParseDecimal parses [+-]digits[.digits][e[+-]digits] into a DECIMAL(prec,
// scale), rounding half away from zero; values that need more than prec
// digits are an error.
func ParseDecimal(s string, prec, scale int32) (decimal128.Num, error) {
	v, exp, err := parseDecimalText(strings.TrimSpace(s))
	if err != nil {
		return decimal128.Num{}, fmt.Errorf("%w %q", err, s)
	}
	var t big.Int
	// v·10^exp at scale `scale` is v·10^(exp+scale) at scale 0.
	shift := int64(exp) + int64(scale)
	switch {
	case shift > 76:
		if v.Sign() != 0 {
			return decimal128.Num{}, fmt.Errorf("decimal %q does not fit DECIMAL(%d,%d)", s, prec, scale)
		}
	case shift >= 0:
		v.Mul(v, pow10[shift])
	case shift >= -76:
		RoundQuo(v, v, pow10[-shift], &t)
	default:
		v.SetInt64(0)
	}
	if v.CmpAbs(pow10[prec]) >= 0 {
		return decimal128.Num{}, fmt.Errorf("decimal %q does not fit DECIMAL(%d,%d)", s, prec, scale)
	}
	return decimal128.FromBigInt(v), nil
}

// parseDecimalText returns the digits of s as an integer v and the power of
// ten exp such that s = v·10^exp.
func parseDecimalText(s string) (v *big.Int, exp int, err error) {
	mantissa, exponent, hasExp := strings.Cut(strings.ToLower(s), "e")
	if hasExp {
		if exp, err = strconv.Atoi(exponent); err != nil || exp > 1000 || exp < -1000 {
			return nil, 0, errDecimalSyntax
		}
	}
	whole, frac, _ := strings.Cut(mantissa, ".")
	sign := ""
	if whole != "" && (whole[0] == '-' || whole[0] == '+') {
		sign, whole = whole[:1], whole[1:]
	}
	digits := whole + frac
	if digits == "" || strings.TrimLeft(digits, "0123456789") != "" {
		return nil, 0, errDecimalSyntax
	}
	v, ok := new(big.Int).SetString(sign+digits, 10)
	if !ok {
		return nil, 0, errDecimalSyntax
	}
	return v, exp - len(frac), nil
}

// pow10 holds 10^0 … 10^76: enough to rescale a product of two 38-digit
// decimals.
var pow10 = func() []*big.Int {
	p := make([]*big.Int, 77)
	p[0] = big.NewInt(1)
	for i := 1; i < len(p); i++ {
		p[i] = new(big.Int).Mul(p[i-1], big.NewInt(10))
	}
	return p
}()

// Pow10 returns 10^n for 0 ≤ n ≤ 76, shared: the caller must not modify it.
func Pow10(n int32) *big.Int { return pow10[n] }

// RoundQuo sets z to num/den rounded half away from zero, the rounding of
// DECIMAL arithmetic and parsing; t is scratch and must not alias the
// arguments.
func RoundQuo(z, num, den, t *big.Int) {
	sign := num.Sign() * den.Sign()
	var r big.Int
	z.QuoRem(num, den, &r)
	// |r| ≥ |den|/2  ⇔  2|r| ≥ |den|
	t.Abs(&r)
	t.Lsh(t, 1)
	if t.CmpAbs(den) >= 0 {
		z.Add(z, big.NewInt(int64(sign)))
	}
}

// exactPowersOfTen are the powers of ten a float64 holds exactly.
var exactPowersOfTen = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// DecimalToFloat64 is the DOUBLE nearest to n·10^-scale, as DuckDB, Spark
// and PostgreSQL cast a decimal. arrow-go's Num.ToFloat64 multiplies by an
// inexact 10^-scale instead, which turns 0.3 into 0.30000000000000004.
// Up to 2^53, both n and 10^scale are exact doubles and one division
// rounds correctly; beyond, the decimal's text is parsed.
func DecimalToFloat64(n decimal128.Num, scale int32) float64 {
	const exact = 1 << 53
	hi, lo := n.HighBits(), n.LowBits()
	if scale >= 0 && int(scale) < len(exactPowersOfTen) {
		switch {
		case hi == 0 && lo <= exact:
			return float64(lo) / exactPowersOfTen[scale]
		case hi == -1 && int64(lo) < 0 && int64(lo) >= -exact:
			return float64(int64(lo)) / exactPowersOfTen[scale]
		}
	}
	f, _ := strconv.ParseFloat(n.ToString(scale), 64)
	return f
}
