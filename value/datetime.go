package value

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// Dates are days since 1970-01-01, times of day microseconds since midnight,
// timestamps microseconds since the epoch in UTC; their text follows DuckDB:
// DATE 2024-01-31, TIME 13:45:00.25, TIMESTAMP 2024-01-31 13:45:00.25,
// TIMESTAMPTZ 2024-01-31 13:45:00.25+00.

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
		return 0, invalidDate(s)
	}
	return int32(days), nil
}

func invalidDate(s string) error { return fmt.Errorf("invalid date %q: expected YYYY-MM-DD", s) }

// CastToDate is the DATE of text: YYYY-MM-DD, or a ParseTimestamp form
// (with or without a zone) whose date is taken as written and the rest
// dropped: '2024-01-05 22:00:00-08' is 2024-01-05, as CAST to DATE reads
// text in DuckDB and Spark. ParseDate, stricter, tells a date column from a
// timestamp one.
func CastToDate(s string) (int32, error) {
	p := &textParser{s: strings.TrimSpace(s)}
	days, ok := p.date()
	if ok && !p.done() {
		_, _, err := parseTimestampZone(s, "date", true) // the rest must be a time
		ok = err == nil
	}
	if !ok {
		return 0, invalidDate(s)
	}
	return int32(days), nil
}

// ParseTimestamp parses a TIMESTAMP: YYYY-MM-DD, optionally followed by a
// space or 'T' and HH:MM[:SS[.ffffff]]. The result is microseconds since the
// epoch. Digits beyond microseconds are truncated. Text may carry a zone as
// ParseTimestampTZ reads it, which a TIMESTAMP, a wall clock, ignores:
// TIMESTAMP '2026-01-15 10:00:00+02:00' is 10:00, as in DuckDB, PostgreSQL
// and Spark's TIMESTAMP_NTZ, both in literals and in CAST.
func ParseTimestamp(s string) (int64, error) {
	v, _, err := parseTimestampZone(s, "timestamp", true)
	return v, err
}

// ParseTimestampTZ parses a TIMESTAMPTZ: a ParseTimestamp form optionally
// followed by Z, UTC or a ±HH[:MM] offset (UTC when absent), into UTC
// microseconds since the epoch.
func ParseTimestampTZ(s string) (int64, error) {
	v, _, err := parseTimestampZone(s, "timestamptz", false)
	return v, err
}

// parseTimestampZone parses a timestamp with an optional zone and reports
// whether the text carried one (Z, UTC or an offset): the wall clock as
// written when wall is set, else the instant the offset makes of it. what
// names the type in errors.
func parseTimestampZone(s, what string, wall bool) (int64, bool, error) {
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
	zoneStart := p.pos
	off, ok := p.zone()
	if !ok {
		return 0, false, fmt.Errorf("invalid %s %q: bad time zone offset", what, s)
	}
	if !wall {
		tod -= off
	}
	zoned := p.pos > zoneStart
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

// zone reads an optional Z, UTC or ±HH[[:]MM[:SS]] offset, in microseconds.
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
	// Local mean times of old dates have offsets in seconds (+05:21:10).
	var sec int64
	if n == 2 && p.accept(':') {
		if sec, _, ok = p.digits(2, 2); !ok || sec > 59 {
			return 0, false
		}
	}
	return sign * (h*3600 + m*60 + sec) * microsPerSecond, true
}

// FormatDate prints days since the epoch as YYYY-MM-DD.
func FormatDate(days int32) string { return string(AppendDate(nil, days)) }

// FormatTimestamp prints microseconds since the epoch as YYYY-MM-DD
// HH:MM:SS[.ffffff], the fraction without trailing zeros.
func FormatTimestamp(micros int64) string { return string(AppendTimestamp(nil, micros, false)) }

// AppendDate appends YYYY-MM-DD for days since the epoch.
func AppendDate(dst []byte, days int32) []byte { return appendDays(dst, int64(days)) }

func appendDays(dst []byte, days int64) []byte {
	return time.Unix(days*86400, 0).UTC().AppendFormat(dst, "2006-01-02")
}

// appendClock appends HH:MM:SS for seconds since midnight, then the
// fraction of nanos: none for whole seconds, otherwise up to nine digits
// without trailing zeros, so nanosecond values are never silently truncated.
func appendClock(dst []byte, secs, nanos int64) []byte {
	dst = appendTwoDigits(dst, secs/3600)
	dst = append(dst, ':')
	dst = appendTwoDigits(dst, secs/60%60)
	dst = append(dst, ':')
	dst = appendTwoDigits(dst, secs%60)
	return appendFraction(dst, nanos)
}

// appendTwoDigits appends v zero-padded to at least two digits.
func appendTwoDigits(dst []byte, v int64) []byte {
	if v < 10 {
		dst = append(dst, '0')
	}
	return strconv.AppendInt(dst, v, 10)
}

// appendFraction appends .fffffffff without trailing zeros, or nothing for 0.
func appendFraction(dst []byte, nanos int64) []byte {
	if nanos == 0 {
		return dst
	}
	frac := strconv.AppendInt(nil, nanos+1e9, 10)[1:] // zero-padded to 9 digits
	return append(append(dst, '.'), strings.TrimRight(string(frac), "0")...)
}

// AppendTimestamp appends micros since the epoch (UTC) as YYYY-MM-DD
// HH:MM:SS[.ffffff], followed by +00 for a TIMESTAMPTZ (tz).
func AppendTimestamp(dst []byte, micros int64, tz bool) []byte {
	secs, frac := floorDivMod(micros, microsPerSecond)
	dst = appendDateTime(dst, secs, frac*1000)
	if tz {
		dst = append(dst, "+00"...)
	}
	return dst
}

// appendDateTime appends seconds since the epoch plus nanos as YYYY-MM-DD
// HH:MM:SS[.fffffffff]. Floor division keeps instants before 1970 on the
// right day.
func appendDateTime(dst []byte, secs, nanos int64) []byte {
	days, sod := floorDivMod(secs, 86400)
	dst = appendDays(dst, days)
	return appendClock(append(dst, ' '), sod, nanos)
}

// floorDivMod divides rounding toward negative infinity; r is in [0, y).
func floorDivMod(x, y int64) (q, r int64) {
	q, r = x/y, x%y
	if r < 0 {
		q, r = q-1, r+y
	}
	return q, r
}
