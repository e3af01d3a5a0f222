package value

import (
	"bytes"
	"fmt"
	"strings"
	"time"
)

// Parsing times by pattern: DuckDB's strptime (C's %Y-%m-%d conversions)
// and Spark's to_timestamp (Java's yyyy-MM-dd, translated into C's by the
// same builder date_format uses, so both dialects read what they write).
// The rules are DuckDB's: blanks around the text are ignored, a blank in
// the pattern matches one or more blanks, numbers have one digit up to the
// field's width (%m reads 1 and 01), names ignore case, and fields out of
// range (month 13, hour 24, February 30) are errors, not carried over.

// TimeParser is a compiled parsing pattern.
type TimeParser struct {
	pattern string // as the user wrote it, for errors
	steps   []parseStep
	// HasOffset is set when the pattern reads a UTC offset (%z): the
	// result is then an instant, a TIMESTAMPTZ in DuckDB.
	HasOffset bool
	// spark is set for Spark's patterns, whose yy is 2000–2099; C's %y
	// reads 69–99 as 1969–1999 and 00–68 as 2000–2068.
	spark bool
}

// parseField is what one conversion reads.
type parseField byte

const (
	fieldLiteral parseField = iota // the byte lit
	fieldBlank                     // one or more blanks
	fieldYear
	fieldYear2
	fieldMonth
	fieldMonthName
	fieldDay
	fieldYearDay
	fieldWeekdayName
	fieldHour
	fieldHour12
	fieldAMPM
	fieldMinute
	fieldSecond
	fieldFraction // up to width digits of a second
	fieldOffset
)

type parseStep struct {
	field parseField
	lit   byte
	width int // digits of a number field
}

// CompileTimeParser compiles pattern of dialect FormatStrftime or
// FormatSpark for parsing.
func CompileTimeParser(dialect, pattern string) (*TimeParser, error) {
	tp := &TimeParser{pattern: pattern}
	c := pattern
	conversions := map[byte]parseStep{}
	switch dialect {
	case FormatStrftime:
	case FormatMySQL:
		var err error
		if c, err = mysqlParsePattern(pattern); err != nil {
			return nil, err
		}
		// %f reads 1 to 9 digits (Trino's date_parse).
		conversions['f'] = parseStep{field: fieldFraction, width: 9}
	case FormatSpark:
		b := &formatBuilder{customs: map[string]byte{}}
		if err := b.spark(pattern); err != nil {
			return nil, err
		}
		c, tp.spark = b.pattern.String(), true
		// The builder's own conversions: fractions of n digits (S…S)
		// read; quarters (Q) are only written.
		for name, on := range b.customs {
			if !strings.HasPrefix(name, fractionSpecPrefix) {
				return nil, fmt.Errorf("invalid format %q: %s cannot be parsed", pattern, name)
			}
			conversions[on] = parseStep{field: fieldFraction, width: 9}
		}
	default:
		return nil, fmt.Errorf("unknown time format dialect %s", dialect)
	}
	for i := 0; i < len(c); i++ {
		switch {
		case isBlank(c[i]):
			if n := len(tp.steps); n == 0 || tp.steps[n-1].field != fieldBlank {
				tp.steps = append(tp.steps, parseStep{field: fieldBlank})
			}
			continue
		case c[i] != '%':
			tp.steps = append(tp.steps, parseStep{field: fieldLiteral, lit: c[i]})
			continue
		}
		i++
		if i < len(c) && c[i] == '-' { // %-d: no padding, which parsing never needs
			i++
		}
		if i == len(c) {
			return nil, fmt.Errorf("invalid format %q: it ends in %%", pattern)
		}
		step, ok := conversions[c[i]]
		if !ok {
			step, ok = strptimeConversions[c[i]]
		}
		if !ok {
			return nil, fmt.Errorf("invalid format %q: unknown conversion %%%c", pattern, c[i])
		}
		tp.HasOffset = tp.HasOffset || step.field == fieldOffset
		tp.steps = append(tp.steps, step)
	}
	return tp, nil
}

// strptimeConversions are the C conversions DuckDB's strptime reads.
var strptimeConversions = map[byte]parseStep{
	'Y': {field: fieldYear, width: 4},
	'y': {field: fieldYear2, width: 2},
	'm': {field: fieldMonth, width: 2},
	'b': {field: fieldMonthName},
	'B': {field: fieldMonthName},
	'h': {field: fieldMonthName},
	'd': {field: fieldDay, width: 2},
	'e': {field: fieldDay, width: 2},
	'j': {field: fieldYearDay, width: 3},
	'a': {field: fieldWeekdayName},
	'A': {field: fieldWeekdayName},
	'H': {field: fieldHour, width: 2},
	'I': {field: fieldHour12, width: 2},
	'p': {field: fieldAMPM},
	'M': {field: fieldMinute, width: 2},
	'S': {field: fieldSecond, width: 2},
	'g': {field: fieldFraction, width: 3},
	'f': {field: fieldFraction, width: 6},
	'n': {field: fieldFraction, width: 9},
	'z': {field: fieldOffset},
	'%': {field: fieldLiteral, lit: '%'},
}

var monthNames, weekdayNames [][]byte

func init() {
	for m := time.January; m <= time.December; m++ {
		monthNames = append(monthNames, []byte(m.String()))
	}
	for d := time.Sunday; d <= time.Saturday; d++ {
		weekdayNames = append(weekdayNames, []byte(d.String()))
	}
}

// Parse reads s, returning microseconds since 1970-01-01 of the wall clock
// it spells, or of the instant when the pattern has an offset.
func (tp *TimeParser) Parse(s []byte) (int64, error) {
	lead := len(s) - len(bytes.TrimLeft(s, blanks))
	text := bytes.TrimRight(s[lead:], blanks)
	fail := func(j int, format string, args ...any) (int64, error) {
		return 0, fmt.Errorf("cannot parse %q with format %q: %s at character %d", s, tp.pattern, fmt.Sprintf(format, args...), lead+j+1)
	}
	year, month, day, yday := int64(1900), int64(1), int64(1), int64(0)
	var hour, minute, second, nanos, offset int64
	pm := int64(-1)
	j := 0
	for _, st := range tp.steps {
		switch st.field {
		case fieldLiteral:
			if j >= len(text) || text[j] != st.lit {
				return fail(j, "expected %q", st.lit)
			}
			j++
			continue
		case fieldBlank:
			k := j
			for j < len(text) && isBlank(text[j]) {
				j++
			}
			if j == k {
				return fail(j, "expected a blank")
			}
			continue
		case fieldMonthName, fieldWeekdayName:
			names := monthNames
			if st.field == fieldWeekdayName {
				names = weekdayNames
			}
			k, n := matchName(text[j:], names)
			if k < 0 {
				return fail(j, "expected a %s name", map[bool]string{true: "month", false: "weekday"}[st.field == fieldMonthName])
			}
			if st.field == fieldMonthName {
				month = int64(k + 1)
			}
			j += n
			continue
		case fieldAMPM:
			if j+2 > len(text) || !bytes.EqualFold(text[j:j+2], []byte("AM")) && !bytes.EqualFold(text[j:j+2], []byte("PM")) {
				return fail(j, "expected AM or PM")
			}
			pm = int64(0)
			if text[j] == 'P' || text[j] == 'p' {
				pm = 12
			}
			j += 2
			continue
		case fieldOffset:
			n, off, ok := parseOffset(text[j:])
			if !ok {
				return fail(j, "expected a UTC offset (+hh, +hhmm or +hh:mm)")
			}
			offset, j = off, j+n
			continue
		}
		start := j
		v, n := readDigits(text[j:], st.width)
		if n == 0 {
			return fail(j, "expected a number")
		}
		j += n
		inRange := func(what string, lo, hi int64) error {
			if v < lo || v > hi {
				_, err := fail(start, "%s %d is out of range %d to %d", what, v, lo, hi)
				return err
			}
			return nil
		}
		var err error
		switch st.field {
		case fieldYear:
			year = v
		case fieldYear2:
			year = 2000 + v
			if !tp.spark && v >= 69 {
				year = 1900 + v
			}
		case fieldMonth:
			month, err = v, inRange("month", 1, 12)
		case fieldDay:
			day, err = v, inRange("day", 1, 31)
		case fieldYearDay:
			yday, err = v, inRange("day of the year", 1, 366)
		case fieldHour:
			hour, err = v, inRange("hour", 0, 23)
		case fieldHour12:
			hour, err = v%12, inRange("hour", 1, 12)
		case fieldMinute:
			minute, err = v, inRange("minute", 0, 59)
		case fieldSecond:
			second, err = v, inRange("second", 0, 59)
		case fieldFraction:
			for k := n; k < 9; k++ {
				v *= 10
			}
			nanos = v
		}
		if err != nil {
			return 0, err
		}
	}
	if j < len(text) {
		return fail(j, "unexpected text %q", text[j:])
	}
	if pm >= 0 {
		hour = hour%12 + pm
	}
	days := DaysFromCivil(year, month, day)
	switch {
	case yday > 0: // as DuckDB, day 366 of a common year is the next January 1
		days = DaysFromCivil(year, 1, 1) + yday - 1
	case day > int64(DaysInMonth(year, time.Month(month))):
		return 0, fmt.Errorf("cannot parse %q with format %q: there is no day %d-%02d-%02d", s, tp.pattern, year, month, day)
	}
	secs := days*86400 + hour*3600 + minute*60 + second - offset
	return secs*1_000_000 + nanos/1000, nil
}

const blanks = " \t\n\r"

func isBlank(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// readDigits reads up to width digits.
func readDigits(s []byte, width int) (v int64, n int) {
	for n < width && n < len(s) && s[n] >= '0' && s[n] <= '9' {
		v = v*10 + int64(s[n]-'0')
		n++
	}
	return v, n
}

// matchName finds the name, whole or its first three letters, at the start
// of s, ignoring case; it returns the name's index and the bytes it took.
func matchName(s []byte, names [][]byte) (int, int) {
	for k, name := range names {
		if len(s) >= len(name) && bytes.EqualFold(s[:len(name)], name) {
			return k, len(name)
		}
	}
	for k, name := range names {
		if len(s) >= 3 && bytes.EqualFold(s[:3], name[:3]) {
			return k, 3
		}
	}
	return -1, 0
}

// parseOffset reads +hh, +hhmm or +hh:mm as seconds east of UTC (DuckDB
// reads no Z).
func parseOffset(s []byte) (n int, secs int64, ok bool) {
	if len(s) < 3 || s[0] != '+' && s[0] != '-' {
		return 0, 0, false
	}
	h, k := readDigits(s[1:], 2)
	if k != 2 {
		return 0, 0, false
	}
	n = 3
	rest := s[3:]
	if len(rest) > 0 && rest[0] == ':' {
		rest, n = rest[1:], n+1
	}
	m, k := readDigits(rest, 2)
	switch {
	case k == 2:
		n += 2
	case n == 4: // +hh: without minutes
		return 0, 0, false
	}
	if h > 23 || m > 59 {
		return 0, 0, false
	}
	secs = h*3600 + m*60
	if s[0] == '-' {
		secs = -secs
	}
	return n, secs, true
}
