package exec

import (
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"time"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
)

// Text forms of values, shared by CAST and the CLI renderer. They follow
// DuckDB: DATE 2024-01-31, TIME 13:45:00.25, TIMESTAMP 2024-01-31 13:45:00.25,
// TIMESTAMPTZ 2024-01-31 13:45:00.25+00 (the session time zone is UTC),
// DOUBLE in shortest round-trip form (1.0, 0.1, 1e+20).

const (
	microsPerSecond = int64(1e6)
	microsPerDay    = 86400 * microsPerSecond
)

// FormatValue renders row i of arr as text; NULL renders as "NULL".
func FormatValue(arr arrow.Array, i int) string {
	if arr.IsNull(i) || arr.DataType().ID() == arrow.NULL {
		return "NULL"
	}
	return string(formatterFor(arr)(nil, i))
}

// formatter appends the text of row i (which must be valid) to dst.
type formatter func(dst []byte, i int) []byte

// formatterFor returns the formatter of arr's type.
func formatterFor(arr arrow.Array) formatter {
	switch a := arr.(type) {
	case *array.Boolean:
		return func(dst []byte, i int) []byte { return strconv.AppendBool(dst, a.Value(i)) }
	case *array.Int8:
		return intFormatter(a.Int8Values())
	case *array.Int16:
		return intFormatter(a.Int16Values())
	case *array.Int32:
		return intFormatter(a.Int32Values())
	case *array.Int64:
		return intFormatter(a.Int64Values())
	case *array.Float32:
		return func(dst []byte, i int) []byte { return appendFloat(dst, float64(a.Value(i)), 32) }
	case *array.Float64:
		return func(dst []byte, i int) []byte { return appendFloat(dst, a.Value(i), 64) }
	case *array.Decimal128:
		scale := a.DataType().(*arrow.Decimal128Type).Scale
		return func(dst []byte, i int) []byte { return append(dst, a.Value(i).ToString(scale)...) }
	case *array.Date32:
		return func(dst []byte, i int) []byte { return appendDate(dst, int32(a.Value(i))) }
	case *array.Time64:
		if a.DataType().(*arrow.Time64Type).Unit == arrow.Microsecond {
			return func(dst []byte, i int) []byte { return appendTimeOfDay(dst, int64(a.Value(i))) }
		}
	case *array.Timestamp:
		if t := a.DataType().(*arrow.TimestampType); t.Unit == arrow.Microsecond {
			tz := t.TimeZone != ""
			return func(dst []byte, i int) []byte { return appendTimestamp(dst, int64(a.Value(i)), tz) }
		}
	case *array.String:
		return func(dst []byte, i int) []byte { return append(dst, a.Value(i)...) }
	case *array.Binary:
		return func(dst []byte, i int) []byte { return appendBlob(dst, a.Value(i)) }
	case array.ExtensionArray:
		if a.ExtensionType().ExtensionName() == "arrow.uuid" {
			v := arrayBytes(a.Storage())
			return func(dst []byte, i int) []byte { return appendUUID(dst, v.at(i)) }
		}
	}
	return func(dst []byte, i int) []byte { return append(dst, arr.ValueStr(i)...) }
}

func intFormatter[T signed](vals []T) formatter {
	return func(dst []byte, i int) []byte { return strconv.AppendInt(dst, int64(vals[i]), 10) }
}

// appendFloat prints like DuckDB (and Python's repr): the shortest text that
// reads back as the same value, positional for exponents in [-4, 15] and
// always with a fractional part ("1.0"), scientific otherwise ("1e+20").
func appendFloat(dst []byte, f float64, bitSize int) []byte {
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

// civil converts days since 1970-01-01 to a proleptic Gregorian date.
func civil(days int64) time.Time {
	return time.Unix(days*86400, 0).UTC()
}

func appendDate(dst []byte, days int32) []byte {
	return civil(int64(days)).AppendFormat(dst, "2006-01-02")
}

// appendTimeOfDay appends HH:MM:SS[.ffffff] for micros since midnight.
func appendTimeOfDay(dst []byte, micros int64) []byte {
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

// appendTimestamp formats micros since the epoch (UTC); floor division keeps
// instants before 1970 on the right day.
func appendTimestamp(dst []byte, micros int64, tz bool) []byte {
	days, rem := floorDivMod(micros, microsPerDay)
	dst = civil(days).AppendFormat(dst, "2006-01-02 ")
	dst = appendTimeOfDay(dst, rem)
	if tz {
		dst = append(dst, "+00"...)
	}
	return dst
}

func floorDivMod(x, y int64) (q, r int64) {
	q, r = x/y, x%y
	if r < 0 {
		q, r = q-1, r+y
	}
	return q, r
}

// appendBlob prints printable ASCII as is and other bytes as \xHH, as DuckDB
// prints BLOBs.
func appendBlob(dst, b []byte) []byte {
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

// appendUUID prints the canonical 8-4-4-4-12 form.
func appendUUID(dst, b []byte) []byte {
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

// parseUUID accepts the canonical form, with or without hyphens and braces.
func parseUUID(s string) ([16]byte, error) {
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
	return parseTimestamp(s, true)
}

func parseTimestamp(s string, offset bool) (int64, error) {
	what := "timestamp"
	if offset {
		what = "timestamptz"
	}
	p := &textParser{s: strings.TrimSpace(s)}
	days, ok := p.date()
	if !ok {
		return 0, fmt.Errorf("invalid %s %q: expected YYYY-MM-DD[ HH:MM[:SS[.ffffff]]]", what, s)
	}
	var tod int64
	if p.peek() == ' ' || p.peek() == 'T' {
		p.pos++
		if tod, ok = p.timeOfDay(); !ok {
			return 0, fmt.Errorf("invalid %s %q: bad time of day", what, s)
		}
	}
	if offset {
		off, ok := p.zone()
		if !ok {
			return 0, fmt.Errorf("invalid %s %q: bad time zone offset", what, s)
		}
		tod -= off
	}
	if !p.done() {
		return 0, fmt.Errorf("invalid %s %q: unexpected %q", what, s, p.s[p.pos:])
	}
	micros, overflow := mulAdd(days, microsPerDay, tod)
	if overflow {
		return 0, fmt.Errorf("%s %q is out of range", what, s)
	}
	return micros, nil
}

// parseTime parses HH:MM[:SS[.ffffff]] into microseconds since midnight.
func parseTime(s string) (int64, error) {
	p := &textParser{s: strings.TrimSpace(s)}
	tod, ok := p.timeOfDay()
	if !ok || !p.done() {
		return 0, fmt.Errorf("invalid time %q: expected HH:MM[:SS[.ffffff]]", s)
	}
	return tod, nil
}

// mulAdd returns a*b+c and whether it overflows int64.
func mulAdd(a, b, c int64) (int64, bool) {
	p, o := intMul(a, b)
	if o != valueOK {
		return 0, true
	}
	s, o := intAdd(p, c)
	return s, o != valueOK
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
	if m < 1 || m > 12 || d < 1 || d > int64(daysIn(time.Month(m), y)) {
		return 0, false
	}
	days := daysFromCivil(y, m, d)
	return days, days >= math.MinInt32 && days <= math.MaxInt32
}

func daysIn(m time.Month, year int64) int {
	return time.Date(int(year), m+1, 0, 0, 0, 0, 0, time.UTC).Day()
}

// daysFromCivil counts days from 1970-01-01 to y-m-d in the proleptic
// Gregorian calendar (Howard Hinnant's algorithm).
func daysFromCivil(y, m, d int64) int64 {
	if m <= 2 {
		y--
	}
	era, _ := floorDivMod(y, 400)
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

// parseBool accepts true/false, t/f, yes/no, y/n, on/off and 1/0 in any case.
func parseBool(s string) (bool, error) {
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
		roundQuo(v, v, pow10[-shift], &t)
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

// unsafeString views b as a string without copying, for parsers that do not
// retain their input.
func unsafeString(b []byte) string {
	return unsafe.String(unsafe.SliceData(b), len(b))
}
