package expr

import (
	"fmt"
	"math"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/value"
)

// Date and time kernels. Instants are microseconds since 1970-01-01 in UTC,
// the session time zone; a DATE operand is read as its midnight, so every
// kernel takes DATE, TIMESTAMP and TIMESTAMPTZ alike.

const (
	microsPerMinute = 60 * microsPerSecond
	microsPerHour   = 60 * microsPerMinute
)

// instantVec views a DATE, TIMESTAMP or TIMESTAMPTZ operand as microseconds.
type instantVec struct {
	days   *vec[int32] // DATE
	micros *vec[int64] // TIMESTAMP, TIMESTAMPTZ
}

func newInstantVec(o operand) instantVec {
	if o.t.ID() == arrow.DATE32 {
		return instantVec{days: fixedVec[int32](o)}
	}
	return instantVec{micros: fixedVec[int64](o)}
}

func (v instantVec) At(i int) int64 {
	if v.days != nil {
		return int64(v.days.At(i)) * microsPerDay
	}
	return v.micros.At(i)
}

func utcTime(micros int64) time.Time { return time.UnixMicro(micros).UTC() }

// timeOfDay splits an instant into its day and microseconds since midnight.
func timeOfDay(micros int64) (days, rem int64) { return floorDivMod(micros, microsPerDay) }

// mondayOf is the day number of the Monday on or before days (1970-01-01 was
// a Thursday).
func mondayOf(days int64) int64 {
	_, sinceMonday := floorDivMod(days+3, 7)
	return days - sinceMonday
}

// dateParts extracts the fields of planner.FnDatePart.
var dateParts = map[string]func(micros int64) int64{
	"YEAR":  func(us int64) int64 { return int64(utcTime(us).Year()) },
	"MONTH": func(us int64) int64 { return int64(utcTime(us).Month()) },
	"QUARTER": func(us int64) int64 {
		return (int64(utcTime(us).Month())-1)/3 + 1
	},
	"DAY": func(us int64) int64 { return int64(utcTime(us).Day()) },
	"DOY": func(us int64) int64 { return int64(utcTime(us).YearDay()) },
	"WEEK": func(us int64) int64 {
		_, week := utcTime(us).ISOWeek()
		return int64(week)
	},
	"DOW":       func(us int64) int64 { return int64(utcTime(us).Weekday()) },
	"DAYOFWEEK": func(us int64) int64 { return int64(utcTime(us).Weekday()) + 1 },
	"ISODOW":    func(us int64) int64 { return (int64(utcTime(us).Weekday())+6)%7 + 1 },
	"WEEKDAY":   func(us int64) int64 { return (int64(utcTime(us).Weekday()) + 6) % 7 },
	"ISOYEAR": func(us int64) int64 {
		year, _ := utcTime(us).ISOWeek()
		return int64(year)
	},
	"YEARWEEK": func(us int64) int64 {
		year, week := utcTime(us).ISOWeek()
		return int64(year)*100 + int64(week)
	},
	"DECADE":     func(us int64) int64 { return int64(utcTime(us).Year()) / 10 },
	"CENTURY":    func(us int64) int64 { return centuryOf(int64(utcTime(us).Year()), 100) },
	"MILLENNIUM": func(us int64) int64 { return centuryOf(int64(utcTime(us).Year()), 1000) },
	"MILLISECOND": func(us int64) int64 {
		_, rem := timeOfDay(us)
		return rem % microsPerMinute / 1000
	},
	"MICROSECOND": func(us int64) int64 {
		_, rem := timeOfDay(us)
		return rem % microsPerMinute
	},
	"HOUR": func(us int64) int64 {
		_, rem := timeOfDay(us)
		return rem / microsPerHour
	},
	"MINUTE": func(us int64) int64 {
		_, rem := timeOfDay(us)
		return rem / microsPerMinute % 60
	},
	"SECOND": func(us int64) int64 {
		_, rem := timeOfDay(us)
		return rem / microsPerSecond % 60
	},
}

// centuryOf numbers the span of years of a year as PostgreSQL and DuckDB do:
// the first century (or millennium) is years 1 to 100 (1000), year 0 and
// before count down from -1.
func centuryOf(year, span int64) int64 {
	if year > 0 {
		return (year-1)/span + 1
	}
	return -((-year)/span + 1)
}

// truncations implement date_trunc: each maps an instant to the start of
// its unit. Weeks start on Monday (ISO 8601).
var truncations = map[string]func(micros int64) int64{
	"YEAR":    func(us int64) int64 { return startOfMonth(us, func(time.Month) time.Month { return 1 }) },
	"QUARTER": func(us int64) int64 { return startOfMonth(us, func(m time.Month) time.Month { return (m-1)/3*3 + 1 }) },
	"MONTH":   func(us int64) int64 { return startOfMonth(us, func(m time.Month) time.Month { return m }) },
	"WEEK": func(us int64) int64 {
		days, _ := timeOfDay(us)
		return mondayOf(days) * microsPerDay
	},
	"DAY":    truncateTo(microsPerDay),
	"HOUR":   truncateTo(microsPerHour),
	"MINUTE": truncateTo(microsPerMinute),
	"SECOND": truncateTo(microsPerSecond),
}

// startOfMonth is midnight of the first day of month(m) of the instant's year.
func startOfMonth(us int64, month func(time.Month) time.Month) int64 {
	t := utcTime(us)
	return value.DaysFromCivil(int64(t.Year()), int64(month(t.Month())), 1) * microsPerDay
}

func truncateTo(unit int64) func(int64) int64 {
	return func(us int64) int64 {
		q, _ := floorDivMod(us, unit)
		return q * unit
	}
}

// ordinals number the units of datediff from a fixed origin, so that the
// difference of two instants' ordinals counts the unit boundaries between
// them: datediff('month', 2026-01-31, 2026-02-01) is 1.
var ordinals = map[string]func(micros int64) int64{
	"YEAR": func(us int64) int64 { return int64(utcTime(us).Year()) },
	"QUARTER": func(us int64) int64 {
		t := utcTime(us)
		return int64(t.Year())*4 + (int64(t.Month())-1)/3
	},
	"MONTH": func(us int64) int64 {
		t := utcTime(us)
		return int64(t.Year())*12 + int64(t.Month()) - 1
	},
	"DAY":    ordinalOf(microsPerDay),
	"HOUR":   ordinalOf(microsPerHour),
	"MINUTE": ordinalOf(microsPerMinute),
	"SECOND": ordinalOf(microsPerSecond),
}

func ordinalOf(unit int64) func(int64) int64 {
	return func(us int64) int64 {
		q, _ := floorDivMod(us, unit)
		return q
	}
}

// unitFunc looks up the function of a constant unit or field operand.
func unitFunc[F any](c *planner.Call, o operand, table map[string]F) (F, error) {
	var zero F
	if o.lit == nil {
		return zero, fmt.Errorf("%s: the unit must be a constant string", c)
	}
	name, _ := o.lit.Value.(string)
	f, ok := table[name]
	if !ok {
		return zero, fmt.Errorf("%s: unknown unit %s", c, name)
	}
	return f, nil
}

func datePartKernel(ev *evaluator, c *planner.Call, ops []operand) (arrow.Array, error) {
	part, err := unitFunc(c, ops[0], dateParts)
	if err != nil {
		return nil, err
	}
	x := newInstantVec(ops[1])
	return fixedRows(ev, c.T, ops, func(i int) (int64, outcome) { return part(x.At(i)), ValueOK }, nil)
}

// epochKernel gives seconds since the epoch, with the microseconds as a fraction.
func epochKernel(ev *evaluator, c *planner.Call, ops []operand) (arrow.Array, error) {
	x := newInstantVec(ops[0])
	return fixedRows(ev, c.T, ops, func(i int) (float64, outcome) {
		return float64(x.At(i)) / float64(microsPerSecond), ValueOK
	}, nil)
}

func dateTruncKernel(ev *evaluator, c *planner.Call, ops []operand) (arrow.Array, error) {
	trunc, err := unitFunc(c, ops[0], truncations)
	if err != nil {
		return nil, err
	}
	x := newInstantVec(ops[1])
	return fixedRows(ev, c.T, ops, func(i int) (int64, outcome) { return trunc(x.At(i)), ValueOK }, nil)
}

// dateDiffs count the units of datediff from start to end: the boundaries
// of the unit between them (ordinals), and for weeks the whole 7-day spans
// between their days, as DuckDB and Spark's timestampdiff count them.
var dateDiffs = func() map[string]func(start, end int64) int64 {
	out := map[string]func(start, end int64) int64{}
	for unit, ordinal := range ordinals {
		out[unit] = func(start, end int64) int64 { return ordinal(end) - ordinal(start) }
	}
	days := ordinals["DAY"]
	out["WEEK"] = func(start, end int64) int64 { return (days(end) - days(start)) / 7 }
	return out
}()

func dateDiffKernel(ev *evaluator, c *planner.Call, ops []operand) (arrow.Array, error) {
	diff, err := unitFunc(c, ops[0], dateDiffs)
	if err != nil {
		return nil, err
	}
	start, end := newInstantVec(ops[1]), newInstantVec(ops[2])
	return fixedRows(ev, c.T, ops, func(i int) (int64, outcome) {
		return diff(start.At(i), end.At(i)), ValueOK
	}, nil)
}

// dateAddKernel adds a BIGINT number of days to a DATE.
func dateAddKernel(ev *evaluator, c *planner.Call, ops []operand) (arrow.Array, error) {
	d, n := fixedVec[int32](ops[0]), fixedVec[int64](ops[1])
	return fixedRows(ev, c.T, ops, func(i int) (int32, outcome) {
		days, o := IntAdd(int64(d.At(i)), n.At(i))
		if o != ValueOK || days != int64(int32(days)) {
			return 0, overflow
		}
		return int32(days), ValueOK
	}, rangeError(c))
}

// maxCivilYear bounds make_date's year well beyond DATE's range (about
// ±5.8 million years) so that the day arithmetic cannot overflow.
const maxCivilYear = 10_000_000

// civilDays is the day number of a calendar date, ok false when there is
// no such date.
func civilDays(year, month, day int64) (days int64, ok bool) {
	if year < -maxCivilYear || year > maxCivilYear || month < 1 || month > 12 ||
		day < 1 || day > int64(value.DaysInMonth(year, time.Month(month))) {
		return 0, false
	}
	return value.DaysFromCivil(year, month, day), true
}

func makeDateKernel(ev *evaluator, c *planner.Call, ops []operand) (arrow.Array, error) {
	y, m, d := fixedVec[int64](ops[0]), fixedVec[int64](ops[1]), fixedVec[int64](ops[2])
	return fixedRows(ev, c.T, ops, func(i int) (int32, outcome) {
		days, ok := civilDays(y.At(i), m.At(i), d.At(i))
		if !ok || days != int64(int32(days)) {
			return 0, overflow
		}
		return int32(days), ValueOK
	}, rowError(c, func(i int) string {
		return fmt.Sprintf("invalid date: year %d, month %d, day %d", y.At(i), m.At(i), d.At(i))
	}))
}

// fromUnixtimeKernel converts seconds since the epoch, BIGINT or DOUBLE, to
// a TIMESTAMP.
func fromUnixtimeKernel(ev *evaluator, c *planner.Call, ops []operand) (arrow.Array, error) {
	if KindOf(ops[0].t) == KindInt64 {
		return unaryRows(ev, c, ops, func(s int64) (int64, outcome) { return intMul(s, microsPerSecond) })
	}
	return unaryRows(ev, c, ops, func(s float64) (int64, outcome) {
		us := math.Round(s * float64(microsPerSecond))
		if !(us >= math.MinInt64 && us < math.MaxInt64) { // also rejects NaN
			return 0, overflow
		}
		return int64(us), ValueOK
	})
}

// unixTimestampKernel gives whole seconds since the epoch, rounded down.
func unixTimestampKernel(ev *evaluator, c *planner.Call, ops []operand) (arrow.Array, error) {
	x := newInstantVec(ops[0])
	return fixedRows(ev, c.T, ops, func(i int) (int64, outcome) {
		s, _ := floorDivMod(x.At(i), microsPerSecond)
		return s, ValueOK
	}, nil)
}

// lastDayKernel is last_day(d): the last day of d's month. It stays in
// range, since no DATE's month runs past the type's last day.
func lastDayKernel(ev *evaluator, c *planner.Call, ops []operand) (arrow.Array, error) {
	d := fixedVec[int32](ops[0])
	return fixedRows(ev, c.T, ops, func(i int) (int32, outcome) {
		day := int64(d.At(i))
		y, m, dom := civil(day).Date()
		return int32(day + int64(value.DaysInMonth(int64(y), m)-dom)), ValueOK
	}, nil)
}
