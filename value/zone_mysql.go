package value

import (
	"strings"
	"time"
)

// MySQL's time zones, as its CONVERT_TZ reads and converts them.

// MySQLZone reads a time zone name as MySQL does: SYSTEM (the server's
// zone, which is UTC for lakesql, as @@system_time_zone says), an offset
// ±[H]H:MM from -13:59 to +14:00, or a named zone (MySQL's time zone tables
// are loaded from the same IANA database Go reads). ok is false for any
// other text, where MySQL's CONVERT_TZ is NULL.
func MySQLZone(name string) (loc *time.Location, ok bool) {
	switch {
	case strings.EqualFold(name, "SYSTEM"):
		return time.UTC, true
	case name == "":
		return nil, false
	case name[0] == '+' || name[0] == '-':
		secs, ok := mysqlOffset(name)
		if !ok {
			return nil, false
		}
		name = string(formatOffset(nil, secs, true))
	}
	loc, err := LoadZone(name)
	return loc, err == nil
}

// mysqlOffset reads ±H:MM as MySQL does: any number of hour digits, one or
// more minute digits below 60, within -13:59 and +14:00.
func mysqlOffset(s string) (secs int, ok bool) {
	sign := 1
	if s[0] == '-' {
		sign = -1
	}
	hours, rest, found := strings.Cut(s[1:], ":")
	if !found || rest == "" || !allDigits(hours) || !allDigits(rest) || len(hours) > 9 || len(rest) > 9 {
		return 0, false
	}
	h, m := atoiDigits(hours), atoiDigits(rest)
	secs = sign * (h*3600 + m*60)
	return secs, m < 60 && secs > -14*3600 && secs <= 14*3600
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func atoiDigits(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		n = n*10 + int(s[i]-'0')
	}
	return n
}

// mysqlTimestampSeconds bound the instants MySQL's CONVERT_TZ converts, the
// range of its TIMESTAMP (8.0.28 and later on 64-bit platforms):
// 1970-01-01 00:00:01 to 3001-01-18 23:59:59.999999 UTC.
const (
	mysqlMinTimestampSeconds = 1
	mysqlMaxTimestampSeconds = 32536771199
)

// MySQLConvertTZ is MySQL's CONVERT_TZ of a wall-clock time (a TIMESTAMP's
// microseconds) from zone from to zone to. As in MySQL, a wall clock a DST
// change skips is the instant of the change (MySQL's UNIX_TIMESTAMP of
// '2005-03-27 02:00:00' in MET is that of 03:00:00), the fraction of a
// second is kept, and a time whose instant is outside MySQL's TIMESTAMP
// range is returned unconverted. A wall clock a DST change repeats is its
// first occurrence.
func MySQLConvertTZ(micros int64, from, to *time.Location) int64 {
	secs, frac := floorDivMod(micros, microsPerSecond)
	instant := mysqlInstant(secs, from)
	if instant < mysqlMinTimestampSeconds || instant > mysqlMaxTimestampSeconds {
		return micros
	}
	_, off := time.Unix(instant, 0).In(to).Zone()
	return (instant+int64(off))*microsPerSecond + frac
}

// mysqlInstant is the instant in seconds of a wall clock in loc.
func mysqlInstant(wall int64, loc *time.Location) int64 {
	t := wallTime(wall, loc)
	_, off := t.Zone()
	if got := t.Unix() + int64(off); got != wall {
		// wall is in a gap: t is a wall clock on one side of the change,
		// whose instant is the bound of t's zone period on wall's side.
		start, end := t.ZoneBounds()
		if got < wall {
			return end.Unix()
		}
		return start.Unix()
	}
	// A repeated wall clock is its first occurrence, as MySQL takes it.
	return firstOccurrence(t, wall)
}
