package value

import (
	"strings"
)

// RoundDecimalText rounds a plain non-negative decimal number written as
// text ("1234.5678") at frac digits after the point (negative frac: before
// it), a tie to the even digit with halfEven, else up, and writes it with
// max(frac, 0) decimals. Rounding the text, not a binary double, is what
// Java's BigDecimal does: Spark's bround rounds a double's shortest decimal
// form this way, so that bround(2.675, 2) sees a tie.
func RoundDecimalText(number string, frac int, halfEven bool) string {
	whole, fraction, _ := strings.Cut(number, ".")
	digits := []byte(whole + fraction)
	point := len(whole) // digits before the decimal point
	if keep := point + frac; keep < len(digits) {
		var up bool
		if keep >= 0 {
			d := digits[keep]
			rest := strings.TrimRight(string(digits[keep+1:]), "0") != ""
			odd := keep > 0 && (digits[keep-1]-'0')%2 == 1
			up = d > '5' || d == '5' && (!halfEven || rest || odd)
		}
		digits = digits[:max(keep, 0)]
		if up {
			digits = incrementDigits(digits)
			if len(digits) > keep {
				point++
			}
		}
	}
	for len(digits) < point {
		digits = append(digits, '0')
	}
	var b strings.Builder
	if w := strings.TrimLeft(string(digits[:point]), "0"); w != "" {
		b.WriteString(w)
	} else {
		b.WriteByte('0')
	}
	if frac > 0 {
		b.WriteByte('.')
		f := string(digits[point:])
		b.WriteString(f)
		b.WriteString(strings.Repeat("0", frac-len(f)))
	}
	return b.String()
}

// incrementDigits adds one to a decimal digit string, growing it on carry.
func incrementDigits(d []byte) []byte {
	for i := len(d) - 1; i >= 0; i-- {
		if d[i] < '9' {
			d[i]++
			return d
		}
		d[i] = '0'
	}
	return append([]byte{'1'}, d...)
}

// GroupThousands puts a comma between each group of three digits of the
// whole part of a plain decimal number (-1234567.891 → -1,234,567.891).
func GroupThousands(number string) string {
	sign := ""
	if strings.HasPrefix(number, "-") {
		sign, number = "-", number[1:]
	}
	whole, frac, hasFrac := strings.Cut(number, ".")
	var b strings.Builder
	b.WriteString(sign)
	for i, c := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if hasFrac {
		b.WriteByte('.')
		b.WriteString(frac)
	}
	return b.String()
}
