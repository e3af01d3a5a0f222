package expr

import (
	"math"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/value"
)

// Spark's date functions that DuckDB lacks, as Spark 3.5's DateTimeUtils
// computes them, in a session whose time zone is UTC.

// monthsBetweenKernel is months_between(a, b, roundOff): the months from b
// to a, whole when both are the same day of the month or both the last
// day of their months, else plus the rest as a fraction of a 31-day month
// (counted in whole seconds), rounded half up to 8 decimals with roundOff.
func monthsBetweenKernel(ev *evaluator, c *planner.Call, ops []operand) (arrow.Array, error) {
	a, b := fixedVec[int64](ops[0]), fixedVec[int64](ops[1])
	roundOff := ops[2].lit.Value.(bool)
	return fixedRows(ev, c.T, ops, func(i int) (float64, outcome) {
		days1, us1 := timeOfDay(a.At(i))
		days2, us2 := timeOfDay(b.At(i))
		y1, m1, d1 := civil(days1).Date()
		y2, m2, d2 := civil(days2).Date()
		months := float64((y1*12 + int(m1)) - (y2*12 + int(m2)))
		if d1 == d2 || d1 == value.DaysInMonth(int64(y1), m1) && d2 == value.DaysInMonth(int64(y2), m2) {
			return months, ValueOK
		}
		seconds := int64(d1-d2)*86400 + us1/1_000_000 - us2/1_000_000
		diff := months + float64(seconds)/(31*86400)
		if roundOff {
			diff = math.Floor(diff*1e8+0.5) / 1e8
		}
		return diff, ValueOK
	}, nil)
}

// nextDayKernel is next_day(d, name): the first date after d that is the
// named day of the week, NULL for a name that is none.
func nextDayKernel(ev *evaluator, c *planner.Call, ops []operand) (arrow.Array, error) {
	d, name := fixedVec[int32](ops[0]), newBytesVec(ops[1])
	return fixedRows(ev, c.T, ops, func(i int) (int32, outcome) {
		want, ok := weekdayNamed(string(name.At(i)))
		if !ok {
			return 0, valueNull
		}
		day := int64(d.At(i))
		ahead := (int64(want)-int64(civil(day).Weekday())+6)%7 + 1
		return int32(day + ahead), ValueOK
	}, nil)
}

// weekdayNamed reads a day of the week as Spark does: its first two or
// three letters or its full English name, in any case.
func weekdayNamed(name string) (time.Weekday, bool) {
	name = strings.ToUpper(name)
	for wd := time.Sunday; wd <= time.Saturday; wd++ {
		full := strings.ToUpper(wd.String())
		if name == full || name == full[:2] || name == full[:3] {
			return wd, true
		}
	}
	return 0, false
}

// microsToTimestampKernel is timestamp_micros(n): the TIMESTAMP n
// microseconds after 1970-01-01, the same number.
func microsToTimestampKernel(ev *evaluator, c *planner.Call, ops []operand) (arrow.Array, error) {
	us := fixedVec[int64](ops[0])
	return fixedRows(ev, c.T, ops, func(i int) (int64, outcome) { return us.At(i), ValueOK }, nil)
}
