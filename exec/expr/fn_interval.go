package expr

import (
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/value"
)

// maxTimestampYear bounds month arithmetic well beyond TIMESTAMP's range
// (about ±292,000 years) so that the day arithmetic cannot overflow.
const maxTimestampYear = 1_000_000

// addIntervalKernel adds a constant interval to a DATE or TIMESTAMP: first
// the months, keeping the day of the month unless the month is shorter
// (2026-01-31 + 1 month = 2026-02-28), then the days, then the time.
func addIntervalKernel(ev *evaluator, c *planner.Call, ops []operand) (arrow.Array, error) {
	iv := fixedVec[arrow.MonthDayNanoInterval](ops[1])
	x := newInstantVec(ops[0])
	return fixedRows(ev, c.T, ops, func(i int) (int64, outcome) { return AddInterval(x.At(i), iv.At(i)) }, rangeError(c))
}

// mulIntervalKernel multiplies each field of an interval by a BIGINT.
func mulIntervalKernel(ev *evaluator, c *planner.Call, ops []operand) (arrow.Array, error) {
	iv, n := fixedVec[arrow.MonthDayNanoInterval](ops[0]), fixedVec[int64](ops[1])
	return fixedRows(ev, c.T, ops, func(i int) (arrow.MonthDayNanoInterval, outcome) {
		v, ok := value.MultiplyInterval(iv.At(i), n.At(i))
		if !ok {
			return v, overflow
		}
		return v, ValueOK
	}, rangeError(c))
}

// AddInterval adds iv to an instant of microseconds (also for
// generate_series over timestamps).
func AddInterval(us int64, iv arrow.MonthDayNanoInterval) (int64, outcome) {
	if iv.Months != 0 {
		var o outcome
		if us, o = addMonths(us, int64(iv.Months)); o != ValueOK {
			return 0, o
		}
	}
	days, o := intMul(int64(iv.Days), microsPerDay)
	if o != ValueOK {
		return 0, o
	}
	if us, o = IntAdd(us, days); o != ValueOK {
		return 0, o
	}
	return IntAdd(us, iv.Nanoseconds/1000)
}

// addMonths moves an instant by whole months, clamping the day of the month
// to the length of the target month.
func addMonths(us, months int64) (int64, outcome) {
	days, rem := timeOfDay(us)
	y, m, d := civil(days).Date()
	year, month := floorDivMod(int64(y)*12+int64(m)-1+months, 12)
	if year < -maxTimestampYear || year > maxTimestampYear {
		return 0, overflow
	}
	day := min(d, value.DaysInMonth(year, time.Month(month+1)))
	return IntAdd(value.DaysFromCivil(year, month+1, int64(day))*microsPerDay, rem)
}

// timestampSubKernel is a − b for two timestamps: the INTERVAL between
// them in whole days and the rest in nanoseconds, both of the difference's
// sign (DuckDB's 1 day 02:00:00).
func timestampSubKernel(ev *evaluator, c *planner.Call, ops []operand) (arrow.Array, error) {
	a, b := fixedVec[int64](ops[0]), fixedVec[int64](ops[1])
	return fixedRows(ev, c.T, ops, func(i int) (arrow.MonthDayNanoInterval, outcome) {
		d, o := intSub(a.At(i), b.At(i))
		if o != ValueOK {
			return arrow.MonthDayNanoInterval{}, o
		}
		days := d / microsPerDay // truncated: the rest keeps the sign
		return arrow.MonthDayNanoInterval{Days: int32(days), Nanoseconds: d % microsPerDay * 1000}, ValueOK
	}, rangeError(c))
}

// intervalKeyKernel gives an interval's length in nanoseconds, with a month
// of 30 days, as a DECIMAL(38,0): the order in which intervals compare.
func intervalKeyKernel(ev *evaluator, c *planner.Call, ops []operand) (arrow.Array, error) {
	iv := fixedVec[arrow.MonthDayNanoInterval](ops[0])
	const nanosPerDay = microsPerDay * 1000
	return fixedRows(ev, c.T, ops, func(i int) (decimal128.Num, outcome) {
		v := iv.At(i)
		days := decimal128.FromI64(int64(v.Months)*30 + int64(v.Days))
		return days.Mul(decimal128.FromI64(nanosPerDay)).Add(decimal128.FromI64(v.Nanoseconds)), ValueOK
	}, nil)
}
