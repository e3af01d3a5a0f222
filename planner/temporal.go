package planner

import (
	"fmt"
	"strings"
	"time"
)

// Temporal text forms accepted wherever a string becomes a DATE or TIMESTAMP
// (literals, casts, comparisons of a timestamp column with a string).
var timestampLayouts = []string{
	"2006-01-02 15:04:05.999999999",
	"2006-01-02T15:04:05.999999999",
	"2006-01-02 15:04",
	"2006-01-02T15:04",
	"2006-01-02",
}

var zonedLayouts = []string{
	"2006-01-02 15:04:05.999999999Z07:00",
	"2006-01-02T15:04:05.999999999Z07:00",
	"2006-01-02 15:04:05.999999999Z07",
	"2006-01-02 15:04:05.999999999 MST",
	"2006-01-02 15:04Z07:00",
	"2006-01-02Z07:00",
}

// ParseDate parses 'YYYY-MM-DD' into days since 1970-01-01.
func ParseDate(s string) (int32, error) {
	t, err := time.Parse("2006-01-02", strings.TrimSpace(s))
	if err != nil {
		return 0, fmt.Errorf("invalid DATE %q: want YYYY-MM-DD", s)
	}
	return int32(floorDiv(t.Unix(), 86400)), nil
}

// ParseTimestamp parses a timestamp into microseconds since the epoch. A
// time-zone offset (Z, +02:00) is honored; text without one is read in UTC,
// the session time zone.
func ParseTimestamp(s string) (int64, error) {
	text := strings.TrimSpace(s)
	for _, layout := range timestampLayouts {
		if t, err := time.ParseInLocation(layout, text, time.UTC); err == nil {
			return t.UnixMicro(), nil
		}
	}
	for _, layout := range zonedLayouts {
		if t, err := time.Parse(layout, text); err == nil {
			return t.UnixMicro(), nil
		}
	}
	return 0, fmt.Errorf("invalid TIMESTAMP %q: want YYYY-MM-DD[ HH:MM[:SS[.ffffff]]][+HH:MM]", s)
}

// ParseTime parses 'HH:MM[:SS[.ffffff]]' into microseconds since midnight.
func ParseTime(s string) (int64, error) {
	text := strings.TrimSpace(s)
	for _, layout := range []string{"15:04:05.999999999", "15:04"} {
		if t, err := time.ParseInLocation(layout, text, time.UTC); err == nil {
			return int64(t.Hour())*3600e6 + int64(t.Minute())*60e6 + int64(t.Second())*1e6 + int64(t.Nanosecond()/1000), nil
		}
	}
	return 0, fmt.Errorf("invalid TIME %q: want HH:MM[:SS[.ffffff]]", s)
}

// floorDiv divides rounding toward negative infinity, so instants before 1970
// fall on the right day.
func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

// FormatDate prints days since the epoch as YYYY-MM-DD.
func FormatDate(days int32) string {
	return time.Unix(int64(days)*86400, 0).UTC().Format("2006-01-02")
}

// FormatTimestamp prints microseconds since the epoch as
// YYYY-MM-DD HH:MM:SS, with .ffffff only when there are fractional seconds.
func FormatTimestamp(micros int64) string {
	t := time.UnixMicro(micros).UTC()
	if t.Nanosecond() == 0 {
		return t.Format("2006-01-02 15:04:05")
	}
	return t.Format("2006-01-02 15:04:05.000000")
}
