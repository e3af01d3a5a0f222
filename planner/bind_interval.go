package planner

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakesql/lakesql/sql"
)

// TypeInterval is the type of INTERVAL constants. Months, days and time are
// kept apart because a month and a day have no fixed length:
// 2026-01-31 + INTERVAL 1 MONTH is 2026-02-28.
var TypeInterval arrow.DataType = arrow.FixedWidthTypes.MonthDayNanoInterval

// intervalUnit is what one unit of an INTERVAL adds.
type intervalUnit struct {
	months, days int32
	nanos        int64
}

var intervalUnits = map[string]intervalUnit{
	"YEAR":        {months: 12},
	"MONTH":       {months: 1},
	"WEEK":        {days: 7},
	"DAY":         {days: 1},
	"HOUR":        {nanos: 3600e9},
	"MINUTE":      {nanos: 60e9},
	"SECOND":      {nanos: 1e9},
	"MILLISECOND": {nanos: 1e6},
	"MICROSECOND": {nanos: 1e3},
}

// bindInterval binds INTERVAL '1' DAY, INTERVAL 1 DAY and INTERVAL '1 day 2
// hours' to an interval constant.
func (b *binder) bindInterval(e *sql.Interval, s *scope) (Expr, error) {
	x, err := b.bindExpr(e.Value, s)
	if err != nil {
		return nil, err
	}
	lit, ok := x.(*Literal)
	if !ok || lit.Value == nil {
		return nil, errorf(e.Pos, "INTERVAL needs a constant number or string")
	}
	var iv arrow.MonthDayNanoInterval
	if e.Unit == "" {
		iv, err = parseInterval(FormatValue(lit.Value, lit.T))
	} else {
		iv, err = intervalOfText(FormatValue(lit.Value, lit.T), e.Unit)
	}
	if err != nil {
		return nil, errorf(e.Pos, "%v", err)
	}
	return &Literal{Value: iv, T: TypeInterval}, nil
}

// parseInterval reads '2 hours', '1 year 2 months' or '-3 days'.
func parseInterval(text string) (arrow.MonthDayNanoInterval, error) {
	fields := strings.Fields(text)
	var total arrow.MonthDayNanoInterval
	if len(fields) == 0 || len(fields)%2 != 0 {
		return total, fmt.Errorf("invalid INTERVAL %q: want a number and a unit, such as '2 hours'", text)
	}
	for i := 0; i < len(fields); i += 2 {
		unit := strings.ToUpper(fields[i+1])
		if _, ok := intervalUnits[unit]; !ok {
			unit = strings.TrimSuffix(unit, "S")
		}
		part, err := intervalOfText(fields[i], unit)
		if err != nil {
			return total, err
		}
		if total, err = addIntervals(total, part); err != nil {
			return total, err
		}
	}
	return total, nil
}

// intervalOfText is the interval of n units, n written as an integer.
func intervalOfText(n, unit string) (arrow.MonthDayNanoInterval, error) {
	u, ok := intervalUnits[unit]
	if !ok {
		return arrow.MonthDayNanoInterval{}, fmt.Errorf("unknown INTERVAL unit %q", strings.ToLower(unit))
	}
	count, err := strconv.ParseInt(strings.TrimSpace(n), 10, 64)
	if err != nil {
		return arrow.MonthDayNanoInterval{}, fmt.Errorf("INTERVAL needs a whole number of %ss, got %q", strings.ToLower(unit), n)
	}
	months, ok1 := mulFits32(count, u.months)
	days, ok2 := mulFits32(count, u.days)
	nanos, ok3 := mulFits64(count, u.nanos)
	if !ok1 || !ok2 || !ok3 {
		return arrow.MonthDayNanoInterval{}, fmt.Errorf("INTERVAL %d %s is out of range", count, strings.ToLower(unit))
	}
	return arrow.MonthDayNanoInterval{Months: months, Days: days, Nanoseconds: nanos}, nil
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

// addIntervals adds two intervals field by field.
func addIntervals(a, b arrow.MonthDayNanoInterval) (arrow.MonthDayNanoInterval, error) {
	months := int64(a.Months) + int64(b.Months)
	days := int64(a.Days) + int64(b.Days)
	nanosOverflow := b.Nanoseconds > 0 && a.Nanoseconds > math.MaxInt64-b.Nanoseconds ||
		b.Nanoseconds < 0 && a.Nanoseconds < math.MinInt64-b.Nanoseconds
	if months != int64(int32(months)) || days != int64(int32(days)) || nanosOverflow {
		return arrow.MonthDayNanoInterval{}, fmt.Errorf("INTERVAL out of range")
	}
	return arrow.MonthDayNanoInterval{Months: int32(months), Days: int32(days), Nanoseconds: a.Nanoseconds + b.Nanoseconds}, nil
}

// negateInterval is -iv; the most negative field values have no negation.
func negateInterval(iv arrow.MonthDayNanoInterval) (arrow.MonthDayNanoInterval, error) {
	if iv.Months == math.MinInt32 || iv.Days == math.MinInt32 || iv.Nanoseconds == math.MinInt64 {
		return iv, fmt.Errorf("INTERVAL out of range")
	}
	return arrow.MonthDayNanoInterval{Months: -iv.Months, Days: -iv.Days, Nanoseconds: -iv.Nanoseconds}, nil
}

func isInterval(t arrow.DataType) bool { return t.ID() == arrow.INTERVAL_MONTH_DAY_NANO }

// bindTemporalArithmetic binds + and - on dates, timestamps and intervals,
// following DuckDB: timestamp ± interval keeps the timestamp's type, date ±
// interval is a TIMESTAMP, date ± integer is a DATE and date − date is the
// BIGINT number of days. handled is false when neither operand is a DATE or
// an INTERVAL, leaving the operator to numeric arithmetic.
func bindTemporalArithmetic(op string, l, r Expr, pos sql.Pos) (x Expr, handled bool, err error) {
	lt, rt := l.Type(), r.Type()
	if lt.ID() != arrow.DATE32 && rt.ID() != arrow.DATE32 && !isInterval(lt) && !isInterval(rt) {
		return nil, false, nil
	}
	if op == "+" && (isInterval(lt) && !isInterval(rt) || IsInteger(lt) && rt.ID() == arrow.DATE32) {
		l, r, lt, rt = r, l, rt, lt // addition commutes: put the date or timestamp first
	}
	switch {
	case (op == "+" || op == "-") && isInterval(rt) && (isInterval(lt) || isTemporal(lt)):
		x, err = addInterval(op, l, r)
	case (op == "+" || op == "-") && lt.ID() == arrow.DATE32 && IsInteger(rt):
		days := castFolded(r, TypeBigint)
		if op == "-" {
			days = foldNegation(days)
		}
		x = &Call{Fn: FnDateAdd, Args: []Expr{l, days}, T: TypeDate}
	case op == "-" && lt.ID() == arrow.DATE32 && rt.ID() == arrow.DATE32:
		x = &Call{Fn: FnDateDiff, Args: []Expr{stringLit("DAY"), r, l}, T: TypeBigint}
	default:
		return nil, true, kindErrorf(ErrType, pos, "operator %s cannot combine %s and %s", op, TypeString(l.Type()), TypeString(r.Type()))
	}
	if err != nil {
		return nil, true, errorf(pos, "%v", err)
	}
	return x, true, nil
}

// addInterval binds x ± iv for a constant interval iv, where x is a date, a
// timestamp or another constant interval.
func addInterval(op string, x, iv Expr) (Expr, error) {
	lit, ok := iv.(*Literal)
	if !ok {
		return nil, fmt.Errorf("only constant INTERVALs are supported")
	}
	v := lit.Value.(arrow.MonthDayNanoInterval)
	var err error
	if op == "-" {
		if v, err = negateInterval(v); err != nil {
			return nil, err
		}
	}
	if isInterval(x.Type()) {
		left, ok := x.(*Literal)
		if !ok {
			return nil, fmt.Errorf("only constant INTERVALs are supported")
		}
		sum, err := addIntervals(left.Value.(arrow.MonthDayNanoInterval), v)
		return &Literal{Value: sum, T: TypeInterval}, err
	}
	t := x.Type()
	if t.ID() == arrow.DATE32 {
		t = TypeTimestamp
	}
	return &Call{Fn: FnAddInterval, Args: []Expr{x, &Literal{Value: v, T: TypeInterval}}, T: t}, nil
}
