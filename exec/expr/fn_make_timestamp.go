package expr

import (
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakesql/lakesql/planner"
)

// makeTimestampKernel is make_timestamp(year, month, day, hour, minute,
// seconds) as DuckDB computes it (timeOfDayMicros); an invalid date or time
// is an error.
func makeTimestampKernel(ev *evaluator, c *planner.Call, ops []operand) (arrow.Array, error) {
	fields := make([]*vec[int64], 5)
	for k := range fields {
		fields[k] = fixedVec[int64](ops[k])
	}
	sec := fixedVec[float64](ops[5])
	var bad string // what the failing row got wrong
	return fixedRows(ev, c.T, ops, func(i int) (int64, outcome) {
		days, ok := civilDays(fields[0].At(i), fields[1].At(i), fields[2].At(i))
		if !ok {
			bad = fmt.Sprintf("invalid date: year %d, month %d, day %d", fields[0].At(i), fields[1].At(i), fields[2].At(i))
			return 0, overflow
		}
		micros, ok := timeOfDayMicros(fields[3].At(i), fields[4].At(i), sec.At(i))
		if !ok {
			bad = fmt.Sprintf("invalid time: hour %d, minute %d, second %v", fields[3].At(i), fields[4].At(i), sec.At(i))
			return 0, overflow
		}
		ts, overflows := mulAdd(days, microsPerDay, micros)
		if overflows {
			bad = "result out of range"
			return 0, overflow
		}
		return ts, ValueOK
	}, rowError(c, func(int) string { return bad }))
}

// timeOfDayMicros is the microseconds of hour:minute:sec after midnight,
// ok false outside what DuckDB's Time::IsValidTime admits: whole seconds
// 0…60 and a fraction of 0…1,000,000 µs once rounded, so 60.9999999 is
// 61 seconds.
func timeOfDayMicros(hour, minute int64, sec float64) (int64, bool) {
	whole := math.Trunc(sec)
	if !(whole >= 0 && whole <= 60) { // NaN too
		return 0, false
	}
	frac := int64(math.Round((sec - whole) * 1_000_000))
	switch {
	case hour == 24:
		if minute != 0 || whole != 0 || frac != 0 {
			return 0, false
		}
	case hour < 0 || hour > 23 || minute < 0 || minute > 59 || frac < 0 || frac > 1_000_000:
		return 0, false
	}
	return (hour*60+minute)*60_000_000 + int64(whole)*1_000_000 + frac, true
}
