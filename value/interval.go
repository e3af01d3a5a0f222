package value

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
)

// INTERVAL values keep months, days and time apart, because a month and a
// day have no fixed length: 2026-01-31 + INTERVAL 1 MONTH is 2026-02-28.
// Their text follows DuckDB: 1 year 2 months 3 days 04:05:06.5, and
// 00:00:00 for the empty interval.

// intervalUnit is what one unit of an INTERVAL adds.
type intervalUnit struct {
	months, days int32
	nanos        int64
}

var intervalUnits = map[string]intervalUnit{
	"MILLENNIUM":  {months: 12000},
	"CENTURY":     {months: 1200},
	"DECADE":      {months: 120},
	"YEAR":        {months: 12},
	"QUARTER":     {months: 3},
	"MONTH":       {months: 1},
	"WEEK":        {days: 7},
	"DAY":         {days: 1},
	"HOUR":        {nanos: 3600e9},
	"MINUTE":      {nanos: 60e9},
	"SECOND":      {nanos: 1e9},
	"MILLISECOND": {nanos: 1e6},
	"MICROSECOND": {nanos: 1e3},
}

// intervalUnitNames are the names interval text may give a unit, as DuckDB
// reads them: singular, plural and abbreviated.
var intervalUnitNames = func() map[string]string {
	names := map[string]string{}
	for unit, aliases := range map[string][]string{
		"MILLENNIUM":  {"millennium", "millennia", "millenniums", "mil", "mils"},
		"CENTURY":     {"century", "centuries", "c", "cent"},
		"DECADE":      {"decade", "decades", "dec", "decs"},
		"YEAR":        {"year", "years", "y", "yr", "yrs"},
		"QUARTER":     {"quarter", "quarters"},
		"MONTH":       {"month", "months", "mon", "mons"},
		"WEEK":        {"week", "weeks", "w"},
		"DAY":         {"day", "days", "d", "dayofmonth"},
		"HOUR":        {"hour", "hours", "h", "hr", "hrs"},
		"MINUTE":      {"minute", "minutes", "m", "min", "mins"},
		"SECOND":      {"second", "seconds", "s", "sec", "secs"},
		"MILLISECOND": {"millisecond", "milliseconds", "ms", "msec", "msecs"},
		"MICROSECOND": {"microsecond", "microseconds", "us", "usec", "usecs"},
	} {
		for _, a := range aliases {
			names[a] = unit
		}
	}
	return names
}()

// ParseInterval reads '2 hours', '1 year 2 months', '-3 days', '1.5 days',
// '2 ms' and the text AppendInterval writes, whose time part is
// [-]HH:MM[:SS[.fffffffff]].
func ParseInterval(text string) (arrow.MonthDayNanoInterval, error) {
	fields := strings.Fields(text)
	var total arrow.MonthDayNanoInterval
	if len(fields) == 0 {
		return total, fmt.Errorf("invalid INTERVAL %q: want a number and a unit, such as '2 hours'", text)
	}
	for i := 0; i < len(fields); {
		var part arrow.MonthDayNanoInterval
		var err error
		switch {
		case strings.ContainsRune(fields[i], ':'):
			part, err = parseIntervalClock(fields[i])
			i++
		case i+1 < len(fields):
			unit, ok := intervalUnitNames[strings.ToLower(fields[i+1])]
			if !ok {
				return total, fmt.Errorf("unknown INTERVAL unit %q", fields[i+1])
			}
			part, err = IntervalOf(fields[i], unit)
			i += 2
		default:
			return total, fmt.Errorf("invalid INTERVAL %q: want a number and a unit, such as '2 hours'", text)
		}
		if err != nil {
			return total, err
		}
		if total, err = AddIntervals(total, part); err != nil {
			return total, err
		}
	}
	return total, nil
}

// maxIntervalHours is the most hours an interval's nanoseconds hold.
const maxIntervalHours = math.MaxInt64 / int64(3600e9)

// parseIntervalClock reads the time part [-]HH:MM[:SS[.fffffffff]].
func parseIntervalClock(s string) (arrow.MonthDayNanoInterval, error) {
	p := &textParser{s: s}
	neg := p.accept('-')
	h, _, ok1 := p.digits(1, 7)
	ok2 := p.accept(':')
	m, _, ok3 := p.digits(2, 2)
	var sec, frac int64
	ok4 := true
	if p.accept(':') {
		sec, _, ok4 = p.digits(2, 2)
		if ok4 && p.accept('.') {
			var n int
			frac, n, ok4 = p.digits(1, 9)
			for ; n < 9; n++ {
				frac *= 10
			}
		}
	}
	if !(ok1 && ok2 && ok3 && ok4 && p.done()) || m > 59 || sec > 59 || h > maxIntervalHours {
		return arrow.MonthDayNanoInterval{}, fmt.Errorf("invalid INTERVAL time %q: expected HH:MM[:SS[.fffffffff]]", s)
	}
	nanos := ((h*60+m)*60+sec)*1e9 + frac
	if nanos < 0 { // more than maxIntervalHours once minutes are added
		return arrow.MonthDayNanoInterval{}, fmt.Errorf("INTERVAL time %q is out of range", s)
	}
	if neg {
		nanos = -nanos
	}
	return arrow.MonthDayNanoInterval{Nanoseconds: nanos}, nil
}

// IntervalOf is the interval of n units (MILLENNIUM … MICROSECOND), n
// written as a number with an optional fraction, which DuckDB's rules
// carry to the smaller units: its first six digits count, a fraction of a
// year or a month becomes whole months or days (30 to a month), of a week
// or a day days and time, of a time unit microseconds, rounded half away
// from zero (1.5 days is 1 day 12:00:00).
func IntervalOf(n, unit string) (arrow.MonthDayNanoInterval, error) {
	u, ok := intervalUnits[unit]
	if !ok {
		return arrow.MonthDayNanoInterval{}, fmt.Errorf("unknown INTERVAL unit %q", strings.ToLower(unit))
	}
	count, frac, ok := splitIntervalCount(n)
	if !ok {
		return arrow.MonthDayNanoInterval{}, fmt.Errorf("INTERVAL needs a number of %ss, got %q", strings.ToLower(unit), n)
	}
	months, ok1 := mulFits32(count, u.months)
	days, ok2 := mulFits32(count, u.days)
	nanos, ok3 := mulFits64(count, u.nanos)
	iv, err := AddIntervals(arrow.MonthDayNanoInterval{Months: months, Days: days, Nanoseconds: nanos}, fractionOf(u, frac))
	if !ok1 || !ok2 || !ok3 || err != nil {
		return arrow.MonthDayNanoInterval{}, fmt.Errorf("INTERVAL %s %s is out of range", strings.TrimSpace(n), strings.ToLower(unit))
	}
	return iv, nil
}

// splitIntervalCount splits a count [-+]digits[.digits] into its whole
// part and its fraction in millionths, both with the count's sign.
func splitIntervalCount(n string) (whole, frac int64, ok bool) {
	s := strings.TrimSpace(n)
	neg := strings.HasPrefix(s, "-")
	if neg || strings.HasPrefix(s, "+") {
		s = s[1:]
	}
	intPart, fracPart, _ := strings.Cut(s, ".")
	if intPart == "" || !allDigits(intPart) || !allDigits(fracPart) {
		return 0, 0, false
	}
	whole, err := strconv.ParseInt(intPart, 10, 64)
	if err != nil {
		return 0, 0, false
	}
	frac, _ = strconv.ParseInt((fracPart + "000000")[:6], 10, 64)
	if neg {
		whole, frac = -whole, -frac
	}
	return whole, frac, true
}

// fractionOf is frac millionths of unit u, carried as IntervalOf says.
func fractionOf(u intervalUnit, frac int64) arrow.MonthDayNanoInterval {
	switch {
	case u.months == 1:
		return arrow.MonthDayNanoInterval{Days: int32(frac * 30 / 1e6)}
	case u.months > 0:
		return arrow.MonthDayNanoInterval{Months: int32(frac * int64(u.months) / 1e6)}
	case u.days > 0:
		microDays := frac * int64(u.days)
		return arrow.MonthDayNanoInterval{Days: int32(microDays / 1e6), Nanoseconds: microDays % 1e6 * 86400 * 1e3}
	}
	// frac millionths of a unit of u.nanos/1e3 microseconds, rounded.
	micros := frac * (u.nanos / 1e3)
	half := int64(5e5)
	if micros < 0 {
		half = -half
	}
	return arrow.MonthDayNanoInterval{Nanoseconds: (micros + half) / 1e6 * 1e3}
}

func mulFits32(n int64, unit int32) (int32, bool) {
	p, ok := mulFits64(n, int64(unit))
	return int32(p), ok && p >= math.MinInt32 && p <= math.MaxInt32
}

func mulFits64(n, unit int64) (int64, bool) {
	if unit == 0 {
		return 0, true
	}
	p := n * unit
	return p, p/unit == n && !(n == -1 && unit == math.MinInt64)
}

// AddIntervals adds two intervals field by field.
func AddIntervals(a, b arrow.MonthDayNanoInterval) (arrow.MonthDayNanoInterval, error) {
	months := int64(a.Months) + int64(b.Months)
	days := int64(a.Days) + int64(b.Days)
	nanosOverflow := b.Nanoseconds > 0 && a.Nanoseconds > math.MaxInt64-b.Nanoseconds ||
		b.Nanoseconds < 0 && a.Nanoseconds < math.MinInt64-b.Nanoseconds
	if months != int64(int32(months)) || days != int64(int32(days)) || nanosOverflow {
		return arrow.MonthDayNanoInterval{}, fmt.Errorf("INTERVAL out of range")
	}
	return arrow.MonthDayNanoInterval{Months: int32(months), Days: int32(days), Nanoseconds: a.Nanoseconds + b.Nanoseconds}, nil
}

// MultiplyInterval is iv × n, each field multiplied (INTERVAL 1 MONTH × 3 is
// 3 months, as in DuckDB and PostgreSQL); false when a field leaves its range.
func MultiplyInterval(iv arrow.MonthDayNanoInterval, n int64) (arrow.MonthDayNanoInterval, bool) {
	months, okM := MulChecked(int64(iv.Months), n)
	days, okD := MulChecked(int64(iv.Days), n)
	nanos, okN := MulChecked(iv.Nanoseconds, n)
	if !okM || !okD || !okN || months != int64(int32(months)) || days != int64(int32(days)) {
		return arrow.MonthDayNanoInterval{}, false
	}
	return arrow.MonthDayNanoInterval{Months: int32(months), Days: int32(days), Nanoseconds: nanos}, true
}

// AppendInterval appends iv as DuckDB prints it: years, months and days
// each when not zero, then the time as [-]HH:MM:SS[.fffffffff]; the empty
// interval is 00:00:00.
func AppendInterval(dst []byte, iv arrow.MonthDayNanoInterval) []byte {
	start := len(dst)
	part := func(n int64, unit string) {
		if n == 0 {
			return
		}
		if len(dst) > start {
			dst = append(dst, ' ')
		}
		dst = strconv.AppendInt(dst, n, 10)
		dst = append(append(dst, ' '), unit...)
		if n != 1 && n != -1 {
			dst = append(dst, 's')
		}
	}
	part(int64(iv.Months/12), "year")
	part(int64(iv.Months%12), "month")
	part(int64(iv.Days), "day")
	if iv.Nanoseconds == 0 && len(dst) > start {
		return dst
	}
	if len(dst) > start {
		dst = append(dst, ' ')
	}
	// The magnitude of MinInt64 does not fit an int64; as a uint64 it does.
	mag := uint64(iv.Nanoseconds)
	if iv.Nanoseconds < 0 {
		dst = append(dst, '-')
		mag = -mag
	}
	secs, nanos := mag/1e9, mag%1e9
	return appendClock(dst, int64(secs), int64(nanos))
}
