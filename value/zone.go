package value

import (
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
)

// Session time zones. TIMESTAMPTZ values are instants (microseconds since
// the epoch in UTC); a zone decides their wall-clock ("local") form.

// zones caches loaded time zones by name: kernels and renderers load the
// zone of every batch, and time.LoadLocation reads the zone database.
var zones sync.Map // string → *time.Location

// LoadZone reads a time zone name: UTC (also GMT, Z), an IANA name such as
// Europe/Berlin, or a fixed offset ±HH[:MM].
func LoadZone(name string) (*time.Location, error) {
	if loc, ok := zones.Load(name); ok {
		return loc.(*time.Location), nil
	}
	loc, err := loadZone(name)
	if err != nil {
		return nil, err
	}
	zones.Store(name, loc)
	return loc, nil
}

func loadZone(name string) (*time.Location, error) {
	n := strings.TrimSpace(name)
	switch strings.ToLower(n) {
	case "utc", "gmt", "z", "etc/utc", "+00", "+00:00", "-00:00", "+0000":
		return time.UTC, nil
	case "", "local":
		return nil, fmt.Errorf("unknown time zone %q", name)
	}
	if n[0] == '+' || n[0] == '-' {
		p := &textParser{s: n}
		off, ok := p.zone()
		if !ok || !p.done() {
			return nil, fmt.Errorf("invalid time zone offset %q: expected ±HH[:MM]", name)
		}
		secs := int(off / microsPerSecond)
		if secs == 0 {
			return time.UTC, nil
		}
		return time.FixedZone(string(formatOffset(nil, secs, true)), secs), nil
	}
	loc, err := time.LoadLocation(n)
	if err != nil {
		return nil, fmt.Errorf("unknown time zone %q", name)
	}
	return loc, nil
}

// IsUTC reports whether loc is nil or UTC.
func IsUTC(loc *time.Location) bool { return loc == nil || loc == time.UTC }

// InstantToLocal converts an instant to its wall-clock time in loc, as
// microseconds since the epoch read as a TIMESTAMP.
func InstantToLocal(micros int64, loc *time.Location) int64 {
	_, off := time.UnixMicro(micros).In(loc).Zone()
	return micros + int64(off)*microsPerSecond
}

// LocalToInstant converts a wall-clock time in loc (a TIMESTAMP's
// microseconds) to the instant. A time skipped by a DST change is read with
// the offset before the change, as Go's time.Date does (and Java's
// ZonedDateTime, so Spark); a repeated time is the first of the two, as in
// Java and PostgreSQL.
func LocalToInstant(micros int64, loc *time.Location) int64 {
	secs, frac := floorDivMod(micros, microsPerSecond)
	return firstOccurrence(wallTime(secs, loc), secs)*microsPerSecond + frac
}

// wallTime is time.Date's reading of wall, whole seconds of a wall clock
// (as a TIMESTAMP's seconds), in loc.
func wallTime(wall int64, loc *time.Location) time.Time {
	u := time.Unix(wall, 0).UTC()
	return time.Date(u.Year(), u.Month(), u.Day(), u.Hour(), u.Minute(), u.Second(), 0, loc)
}

// firstOccurrence is the instant in seconds of t, wallTime's reading of
// wall, moved to wall's first occurrence when the change that began t's
// zone period repeats it (a fall back): time.Date may take either, and
// takes the later one east of UTC. A wall clock a change skips is read with
// the offset before the change; time.Date's choice is not defined.
func firstOccurrence(t time.Time, wall int64) int64 {
	start, end := t.ZoneBounds()
	_, off := t.Zone()
	if !start.IsZero() {
		_, before := start.Add(-time.Second).Zone()
		if earlier := wall - int64(before); earlier < start.Unix() {
			return earlier
		}
		if wall < start.Unix()+int64(off) {
			// A wall clock the change at start skipped (02:30 on the
			// day clocks go from 02:00 to 03:00): read with the offset
			// before it, as PostgreSQL and DuckDB do (03:30).
			return wall - int64(before)
		}
	}
	if !end.IsZero() && wall >= end.Unix()+int64(off) {
		return wall - int64(off) // skipped by the change at end, likewise
	}
	return t.Unix()
}

// ParseTimestampTZIn parses a TIMESTAMPTZ; text without a zone is a
// wall-clock time in loc.
func ParseTimestampTZIn(s string, loc *time.Location) (int64, error) {
	v, zoned, err := parseTimestampZone(s, "timestamptz", false)
	if err != nil || zoned || IsUTC(loc) {
		return v, err
	}
	return LocalToInstant(v, loc), nil
}

// AppendTimestampIn appends an instant as its wall-clock time in loc
// followed by the offset: +01, -03, +05:30.
func AppendTimestampIn(dst []byte, micros int64, loc *time.Location) []byte {
	if IsUTC(loc) {
		return AppendTimestamp(dst, micros, true)
	}
	return appendTimestampIn(dst, micros, arrow.Microsecond, loc)
}

// appendTimestampIn appends an instant v of unit as its wall-clock time in
// loc followed by the offset.
func appendTimestampIn(dst []byte, v int64, unit arrow.TimeUnit, loc *time.Location) []byte {
	secs, nanos := splitSeconds(v, unit)
	_, off := time.Unix(secs, 0).In(loc).Zone()
	dst = appendDateTime(dst, secs+int64(off), nanos)
	return formatOffset(dst, off, false)
}

// formatOffset appends ±HH, ±HH:MM when the minutes are not zero (always
// with minutes when full), and ±HH:MM:SS for offsets in seconds.
func formatOffset(dst []byte, secs int, full bool) []byte {
	sign := byte('+')
	if secs < 0 {
		sign, secs = '-', -secs
	}
	dst = append(dst, sign)
	dst = appendTwoDigits(dst, int64(secs/3600))
	if m := secs / 60 % 60; m != 0 || full || secs%60 != 0 {
		dst = appendTwoDigits(append(dst, ':'), int64(m))
	}
	if s := secs % 60; s != 0 {
		dst = appendTwoDigits(append(dst, ':'), int64(s))
	}
	return dst
}
