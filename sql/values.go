package sql

import (
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow/decimal128"
)

// Text forms of SQL values, shared by the planner (literals folded at plan
// time), the executor (CAST, result rendering) and storage (filters in
// EXPLAIN). They follow DuckDB: DATE 2024-01-31, TIME 13:45:00.25,
// TIMESTAMP 2024-01-31 13:45:00.25, TIMESTAMPTZ 2024-01-31 13:45:00.25+00
// (the session time zone is UTC), DOUBLE in shortest round-trip form (1.0,
// 0.1, 1e+20). Dates are days since 1970-01-01, times of day microseconds
// since midnight, timestamps microseconds since the epoch in UTC.

const (
	microsPerSecond = int64(1e6)
	microsPerDay    = 86400 * microsPerSecond
)

// ParseDate parses YYYY-MM-DD (month and day may have one digit) into days
// since 1970-01-01.
func ParseDate(s string) (int32, error) {
	p := &textParser{s: strings.TrimSpace(s)}
	days, ok := p.date()
	if !ok || !p.done() {
		return 0, fmt.Errorf("invalid date %q: expected YYYY-MM-DD", s)
	}
	return int32(days), nil
}

// ParseTimestamp parses a TIMESTAMP: YYYY-MM-DD, optionally followed by a
// space or 'T' and HH:MM[:SS[.ffffff]]. The result is microseconds since the
// epoch. Digits beyond microseconds are truncated.
func ParseTimestamp(s string) (int64, error) {
	return parseTimestamp(s, false)
}

// ParseTimestampTZ parses a TIMESTAMPTZ: a ParseTimestamp form optionally
// followed by Z, UTC or a ±HH[:MM] offset (UTC when absent), into UTC
// microseconds since the epoch.
func ParseTimestampTZ(s string) (int64, error) {
	v, _, err := parseTimestampZone(s, true)
	return v, err
}

func parseTimestamp(s string, offset bool) (int64, error) {
	v, _, err := parseTimestampZone(s, offset)
	return v, err
}

// parseTimestampZone is parseTimestamp that also reports whether the text
// carried a zone (Z, UTC or an offset).
func parseTimestampZone(s string, offset bool) (int64, bool, error) {
	what := "timestamp"
	if offset {
		what = "timestamptz"
	}
	p := &textParser{s: strings.TrimSpace(s)}
	days, ok := p.date()
	if !ok {
		return 0, false, fmt.Errorf("invalid %s %q: expected YYYY-MM-DD[ HH:MM[:SS[.ffffff]]]", what, s)
	}
	var tod int64
	if p.peek() == ' ' || p.peek() == 'T' {
		p.pos++
		if tod, ok = p.timeOfDay(); !ok {
			return 0, false, fmt.Errorf("invalid %s %q: bad time of day", what, s)
		}
	}
	zoned := false
	if offset {
		zoneStart := p.pos
		off, ok := p.zone()
		if !ok {
			return 0, false, fmt.Errorf("invalid %s %q: bad time zone offset", what, s)
		}
		tod -= off
		zoned = p.pos > zoneStart
	}
	if !p.done() {
		return 0, false, fmt.Errorf("invalid %s %q: unexpected %q", what, s, p.s[p.pos:])
	}
	micros, ok := atDay(days, tod)
	if !ok {
		return 0, false, fmt.Errorf("%s %q is out of range", what, s)
	}
	return micros, zoned, nil
}

// atDay returns days·microsPerDay + tod, and false when that overflows int64.
func atDay(days, tod int64) (int64, bool) {
	p := days * microsPerDay
	s := p + tod
	return s, p/microsPerDay == days && (s^p)&(s^tod) >= 0
}

// ParseTime parses HH:MM[:SS[.ffffff]] into microseconds since midnight.
func ParseTime(s string) (int64, error) {
	p := &textParser{s: strings.TrimSpace(s)}
	tod, ok := p.timeOfDay()
	if !ok || !p.done() {
		return 0, fmt.Errorf("invalid time %q: expected HH:MM[:SS[.ffffff]]", s)
	}
	return tod, nil
}

// textParser scans date and time text.
type textParser struct {
	s   string
	pos int
}

func (p *textParser) done() bool { return p.pos == len(p.s) }

func (p *textParser) peek() byte {
	if p.done() {
		return 0
	}
	return p.s[p.pos]
}

func (p *textParser) accept(c byte) bool {
	if p.peek() == c {
		p.pos++
		return true
	}
	return false
}

// digits reads between min and max decimal digits.
func (p *textParser) digits(min, max int) (v int64, n int, ok bool) {
	for n < max && p.peek() >= '0' && p.peek() <= '9' {
		v = v*10 + int64(p.s[p.pos]-'0')
		p.pos++
		n++
	}
	return v, n, n >= min
}

// date reads [-]YYYY-MM-DD as days since the epoch.
func (p *textParser) date() (int64, bool) {
	neg := p.accept('-')
	y, _, ok1 := p.digits(4, 6)
	ok2 := p.accept('-')
	m, _, ok3 := p.digits(1, 2)
	ok4 := p.accept('-')
	d, _, ok5 := p.digits(1, 2)
	if !(ok1 && ok2 && ok3 && ok4 && ok5) {
		return 0, false
	}
	if neg {
		y = -y
	}
	if m < 1 || m > 12 || d < 1 || d > int64(DaysInMonth(y, time.Month(m))) {
		return 0, false
	}
	days := DaysFromCivil(y, m, d)
	return days, days >= math.MinInt32 && days <= math.MaxInt32
}

// DaysInMonth is the number of days of a month of the proleptic Gregorian
// calendar.
func DaysInMonth(year int64, m time.Month) int {
	return time.Date(int(year), m+1, 0, 0, 0, 0, 0, time.UTC).Day()
}

// DaysFromCivil counts days from 1970-01-01 to y-m-d in the proleptic
// Gregorian calendar (Howard Hinnant's algorithm).
func DaysFromCivil(y, m, d int64) int64 {
	if m <= 2 {
		y--
	}
	era := y / 400
	if y%400 < 0 {
		era--
	}
	yoe := y - era*400
	doy := (153*((m+9)%12)+2)/5 + d - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return era*146097 + doe - 719468
}

// timeOfDay reads HH:MM[:SS[.fraction]] as micros since midnight.
func (p *textParser) timeOfDay() (int64, bool) {
	h, _, ok1 := p.digits(1, 2)
	ok2 := p.accept(':')
	m, _, ok3 := p.digits(2, 2)
	if !(ok1 && ok2 && ok3) || h > 23 || m > 59 {
		return 0, false
	}
	var sec, frac int64
	if p.accept(':') {
		var ok bool
		if sec, _, ok = p.digits(2, 2); !ok || sec > 59 {
			return 0, false
		}
		if p.accept('.') {
			f, n, ok := p.digits(1, 9)
			if !ok {
				return 0, false
			}
			for ; n < 6; n++ {
				f *= 10
			}
			for ; n > 6; n-- {
				f /= 10
			}
			frac = f
			// Ignore precision beyond what was read (more than 9 digits).
			for p.peek() >= '0' && p.peek() <= '9' {
				p.pos++
			}
		}
	}
	return ((h*60+m)*60+sec)*microsPerSecond + frac, true
}

// zone reads an optional Z, UTC or ±HH[[:]MM] offset, in microseconds.
func (p *textParser) zone() (int64, bool) {
	if p.accept(' ') && p.done() {
		return 0, false
	}
	rest := p.s[p.pos:]
	switch {
	case rest == "":
		return 0, true
	case rest == "Z" || rest == "z" || strings.EqualFold(rest, "UTC"):
		p.pos = len(p.s)
		return 0, true
	}
	sign := int64(1)
	switch {
	case p.accept('+'):
	case p.accept('-'):
		sign = -1
	default:
		return 0, false
	}
	h, _, ok := p.digits(2, 2)
	if !ok || h > 23 {
		return 0, false
	}
	p.accept(':')
	m, n, _ := p.digits(0, 2)
	if n == 1 || m > 59 {
		return 0, false
	}
	return sign * (h*3600 + m*60) * microsPerSecond, true
}

// FormatDate prints days since the epoch as YYYY-MM-DD.
func FormatDate(days int32) string { return string(AppendDate(nil, days)) }

// FormatTimestamp prints microseconds since the epoch as YYYY-MM-DD
// HH:MM:SS[.ffffff], the fraction without trailing zeros.
func FormatTimestamp(micros int64) string { return string(AppendTimestamp(nil, micros, false)) }

// AppendDate appends YYYY-MM-DD for days since the epoch.
func AppendDate(dst []byte, days int32) []byte {
	return time.Unix(int64(days)*86400, 0).UTC().AppendFormat(dst, "2006-01-02")
}

// AppendTime appends HH:MM:SS[.ffffff] for micros since midnight.
func AppendTime(dst []byte, micros int64) []byte {
	secs := micros / microsPerSecond
	dst = append(dst, twoDigits(secs/3600)...)
	dst = append(dst, ':')
	dst = append(dst, twoDigits(secs/60%60)...)
	dst = append(dst, ':')
	dst = append(dst, twoDigits(secs%60)...)
	return appendFraction(dst, micros%microsPerSecond)
}

func twoDigits(v int64) string {
	return string([]byte{byte('0' + v/10), byte('0' + v%10)})
}

// appendFraction appends .ffffff without trailing zeros, or nothing for 0.
func appendFraction(dst []byte, micros int64) []byte {
	if micros == 0 {
		return dst
	}
	frac := strconv.AppendInt(nil, micros+microsPerSecond, 10)[1:] // zero-padded to 6 digits
	return append(append(dst, '.'), strings.TrimRight(string(frac), "0")...)
}

// AppendTimestamp appends micros since the epoch (UTC) as YYYY-MM-DD
// HH:MM:SS[.ffffff], followed by +00 for a TIMESTAMPTZ (tz). Floor division
// keeps instants before 1970 on the right day.
func AppendTimestamp(dst []byte, micros int64, tz bool) []byte {
	days, rem := micros/microsPerDay, micros%microsPerDay
	if rem < 0 {
		days, rem = days-1, rem+microsPerDay
	}
	dst = time.Unix(days*86400, 0).UTC().AppendFormat(dst, "2006-01-02 ")
	dst = AppendTime(dst, rem)
	if tz {
		dst = append(dst, "+00"...)
	}
	return dst
}

// AppendFloat appends f like DuckDB (and Python's repr): the shortest text
// that reads back as the same value, positional for exponents in [-4, 15]
// and always with a fractional part ("1.0"), scientific otherwise ("1e+20").
func AppendFloat(dst []byte, f float64, bitSize int) []byte {
	switch {
	case math.IsNaN(f):
		return append(dst, "nan"...)
	case math.IsInf(f, 1):
		return append(dst, "inf"...)
	case math.IsInf(f, -1):
		return append(dst, "-inf"...)
	case f == 0:
		if math.Signbit(f) {
			return append(dst, "-0.0"...)
		}
		return append(dst, "0.0"...)
	}
	sci := strconv.AppendFloat(nil, f, 'e', -1, bitSize)
	exp, _ := strconv.Atoi(string(sci[strings.LastIndexByte(string(sci), 'e')+1:]))
	if exp < -4 || exp > 15 {
		return append(dst, sci...)
	}
	start := len(dst)
	dst = strconv.AppendFloat(dst, f, 'f', -1, bitSize)
	if !strings.ContainsRune(string(dst[start:]), '.') {
		dst = append(dst, ".0"...)
	}
	return dst
}

// AppendBlob appends printable ASCII as is and other bytes as \xHH, as
// DuckDB prints BLOBs.
func AppendBlob(dst, b []byte) []byte {
	const digits = "0123456789ABCDEF"
	for _, c := range b {
		if c >= 0x20 && c < 0x7f && c != '\\' {
			dst = append(dst, c)
			continue
		}
		dst = append(dst, '\\', 'x', digits[c>>4], digits[c&15])
	}
	return dst
}

// AppendUUID appends the 16 bytes of a UUID in the canonical 8-4-4-4-12 form.
func AppendUUID(dst, b []byte) []byte {
	var buf [36]byte
	hex.Encode(buf[0:8], b[0:4])
	buf[8] = '-'
	hex.Encode(buf[9:13], b[4:6])
	buf[13] = '-'
	hex.Encode(buf[14:18], b[6:8])
	buf[18] = '-'
	hex.Encode(buf[19:23], b[8:10])
	buf[23] = '-'
	hex.Encode(buf[24:], b[10:16])
	return append(dst, buf[:]...)
}

// ParseUUID accepts the canonical form, with or without hyphens and braces.
func ParseUUID(s string) ([16]byte, error) {
	var out [16]byte
	clean := strings.NewReplacer("-", "", "{", "", "}", "").Replace(strings.TrimSpace(s))
	if len(clean) != 32 {
		return out, fmt.Errorf("invalid UUID %q", s)
	}
	if _, err := hex.Decode(out[:], []byte(clean)); err != nil {
		return out, fmt.Errorf("invalid UUID %q", s)
	}
	return out, nil
}

// ParseBool accepts true/false, t/f, yes/no, y/n, on/off and 1/0 in any case.
func ParseBool(s string) (bool, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "true", "t", "yes", "y", "on", "1":
		return true, nil
	case "false", "f", "no", "n", "off", "0":
		return false, nil
	}
	return false, fmt.Errorf("invalid boolean %q", s)
}

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
