package expr

import (
	"fmt"
	"hash/crc32"
	"math"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/value"
)

// Spark's number functions that DuckDB lacks (conv, format_number) or
// types differently (factorial: DuckDB's HUGEINT, here BIGINT).

// factorialKernel is n! for 0 ≤ n ≤ 20; a negative n is an error, as in
// DuckDB, and so is 21! and beyond, which overflow BIGINT.
func factorialKernel(ev *evaluator, c *planner.Call, ops []operand) (arrow.Array, error) {
	n := fixedVec[int64](ops[0])
	return fixedRows(ev, c.T, ops, func(i int) (int64, outcome) {
		k := n.At(i)
		if k < 0 || k > 20 {
			return 0, overflow
		}
		f := int64(1)
		for j := int64(2); j <= k; j++ {
			f *= j
		}
		return f, ValueOK
	}, func(i int) error {
		if n.At(i) < 0 {
			return fmt.Errorf("factorial of a negative number (%d) is undefined", n.At(i))
		}
		return fmt.Errorf("factorial of %d is out of the BIGINT range", n.At(i))
	})
}

// convKernel is Spark's conv(num, from, to): num's digits in base from,
// read as an unsigned 64-bit number (to the first character that is not a
// digit; 2^64-1 when it overflows), written in base |to|. A leading '-'
// negates the number in two's complement, unless to is negative, which
// writes a signed result. A base outside 2…36 or an empty num gives NULL.
func convKernel(ev *evaluator, _ *planner.Call, ops []operand) (arrow.Array, error) {
	num, from, to := newBytesVec(ops[0]), fixedVec[int64](ops[1]), fixedVec[int64](ops[2])
	return ev.nullableStringRows(ops, func(dst []byte, i int) ([]byte, bool) {
		s, fromBase, toBase := strings.Trim(string(num.At(i)), " "), from.At(i), to.At(i)
		if s == "" || !validBase(fromBase) || !validBase(abs64(toBase)) {
			return dst, false
		}
		negative := s[0] == '-'
		v := parseUnsignedPrefix(strings.TrimPrefix(s, "-"), uint64(fromBase))
		switch {
		case negative && toBase > 0 && int64(v) < 0:
			v = math.MaxUint64
		case negative && toBase > 0:
			v = -v
		case toBase < 0 && int64(v) < 0:
			v, negative = -v, true
		}
		if negative && toBase < 0 {
			dst = append(dst, '-')
		}
		return append(dst, strings.ToUpper(strconv.FormatUint(v, int(abs64(toBase))))...), true
	}), nil
}

func validBase(b int64) bool { return b >= 2 && b <= 36 }

func abs64(x int64) int64 { return max(x, -x) }

// parseUnsignedPrefix reads s's leading digits in base as an unsigned
// number, saturating at 2^64-1 as Spark's NumberConverter does.
func parseUnsignedPrefix(s string, base uint64) uint64 {
	var v uint64
	for _, c := range s {
		d := digitValue(c)
		if d >= base {
			break
		}
		if v > (math.MaxUint64-d)/base {
			return math.MaxUint64
		}
		v = v*base + d
	}
	return v
}

// digitValue is the value of a digit of base up to 36, or 36 for a
// character that is not one.
func digitValue(c rune) uint64 {
	switch {
	case c >= '0' && c <= '9':
		return uint64(c - '0')
	case c >= 'a' && c <= 'z':
		return uint64(c-'a') + 10
	case c >= 'A' && c <= 'Z':
		return uint64(c-'A') + 10
	}
	return 36
}

// formatNumberKernel is Spark's format_number(x, d): x rounded half to
// even to d decimals, with a comma between each three digits of the whole
// part, as java.text.DecimalFormat writes it; NULL for d < 0. A DOUBLE
// rounds from its exact binary value (as Java 8's DecimalFormat does:
// 2.675 is 2.67), a DECIMAL from its digits.
func formatNumberKernel(ev *evaluator, c *planner.Call, ops []operand) (arrow.Array, error) {
	digits := fixedVec[int64](ops[1])
	var text func(i int, d int) string
	switch KindOf(ops[0].t) {
	case KindInt64:
		x := fixedVec[int64](ops[0])
		text = func(i, d int) string {
			s := strconv.FormatInt(x.At(i), 10)
			if d > 0 {
				s += "." + strings.Repeat("0", d)
			}
			return s
		}
	case KindFloat64:
		x := fixedVec[float64](ops[0])
		text = func(i, d int) string { return formatDoubleFixed(x.At(i), d) }
	case KindDecimal:
		x, scale := fixedVec[decimal128.Num](ops[0]), decimalScale(ops[0].t)
		text = func(i, d int) string {
			v := x.At(i)
			s := value.RoundDecimalText(v.Abs().ToString(scale), d, true)
			if v.Sign() < 0 {
				s = "-" + s
			}
			return s
		}
	default:
		return nil, unsupportedType(c, ops[0].t)
	}
	return ev.nullableStringRows(ops, func(dst []byte, i int) ([]byte, bool) {
		d := digits.At(i)
		if d < 0 {
			return dst, false
		}
		return append(dst, value.GroupThousands(text(i, int(min(d, 340))))...), true
	}), nil
}

// formatDoubleFixed writes x with d decimals, NaN and infinities as Java's
// DecimalFormat does.
func formatDoubleFixed(x float64, d int) string {
	switch {
	case math.IsNaN(x):
		return "NaN"
	case math.IsInf(x, 1):
		return "∞"
	case math.IsInf(x, -1):
		return "-∞"
	}
	return strconv.FormatFloat(x, 'f', d, 64)
}

// signum is Java's Math.signum: ±1, or x itself for ±0 and NaN.
func signum(x float64) float64 {
	if x == 0 || math.IsNaN(x) {
		return x
	}
	return math.Copysign(1, x)
}

// degrees and radians multiply by the same constants as DuckDB, so that the
// results agree to the last bit.
func degrees(x float64) float64 { return x * (180 / math.Pi) }
func radians(x float64) float64 { return x * (math.Pi / 180) }

// crc32Kernel is crc32(b): the IEEE CRC-32 of the bytes.
func crc32Kernel(ev *evaluator, c *planner.Call, ops []operand) (arrow.Array, error) {
	b := newBytesVec(ops[0])
	return fixedRows(ev, c.T, ops, func(i int) (int64, outcome) { return int64(crc32.ChecksumIEEE(b.At(i))), ValueOK }, nil)
}
