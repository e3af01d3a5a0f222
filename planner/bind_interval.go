package planner

import (
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakesql/lakesql/sql"
	"github.com/lakesql/lakesql/value"
)

// TypeInterval is the type of INTERVAL constants: months, days and time kept
// apart (package value reads and prints them).
var TypeInterval arrow.DataType = arrow.FixedWidthTypes.MonthDayNanoInterval

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
		iv, err = value.ParseInterval(value.FormatScalar(lit.Value, lit.T))
	} else {
		iv, err = value.IntervalOf(value.FormatScalar(lit.Value, lit.T), e.Unit)
	}
	if err != nil {
		return nil, errorf(e.Pos, "%v", err)
	}
	return &Literal{Value: iv, T: TypeInterval}, nil
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
// BIGINT number of days; an interval times an integer is an interval.
// handled is false when neither operand is a DATE or an INTERVAL, leaving
// the operator to numeric arithmetic.
func bindTemporalArithmetic(op string, l, r Expr, pos sql.Pos) (x Expr, handled bool, err error) {
	lt, rt := l.Type(), r.Type()
	if op == "-" && lt.ID() == arrow.TIMESTAMP && rt.ID() == arrow.TIMESTAMP {
		return subtractTimestamps(l, r), true, nil
	}
	if lt.ID() != arrow.DATE32 && rt.ID() != arrow.DATE32 && !isInterval(lt) && !isInterval(rt) {
		return nil, false, nil
	}
	writtenL, writtenR := lt, rt // for the error, in the order written
	if (op == "+" || op == "*") && (isInterval(lt) && !isInterval(rt) || IsInteger(lt) && rt.ID() == arrow.DATE32) {
		l, r, lt, rt = r, l, rt, lt // + and * commute: put the date, timestamp or integer first
	}
	switch {
	case op == "*" && isInterval(rt) && IsInteger(lt):
		x, err = multiplyInterval(r, l)
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
		return nil, true, kindErrorf(ErrType, pos, "operator %s cannot combine %s and %s", op, TypeString(writtenL), TypeString(writtenR))
	}
	if err != nil {
		return nil, true, errorf(pos, "%v", err)
	}
	return x, true, nil
}

// dateStays brings d ± iv, bound as x, back to a DATE when the interval
// asks for it (sql.Interval.DateStays) and d is a DATE and iv whole days,
// months or years: midnight of the day it lands on, exactly.
func dateStays(e *sql.BinaryExpr, d, iv, x Expr) (Expr, error) {
	in, ok := e.R.(*sql.Interval)
	lit, isLit := iv.(*Literal)
	if !ok || !in.DateStays || !isLit || d.Type().ID() != arrow.DATE32 || x.Type().ID() != arrow.TIMESTAMP {
		return x, nil
	}
	if v, ok := lit.Value.(arrow.MonthDayNanoInterval); !ok || v.Nanoseconds != 0 {
		return x, nil
	}
	return castTo(x, TypeDate)
}

// addInterval binds x ± iv, where x is a date, a timestamp or a constant
// interval, and iv an interval: a constant, or one computed per row
// (ts + n * INTERVAL 1 SECOND) when x is a date or timestamp.
func addInterval(op string, x, iv Expr) (Expr, error) {
	lit, constant := iv.(*Literal)
	if !constant {
		if isInterval(x.Type()) {
			return nil, fmt.Errorf("only constant INTERVALs can be added to an INTERVAL")
		}
		if op == "-" {
			iv = &Call{Fn: FnMulInterval, Args: []Expr{iv, &Literal{Value: int64(-1), T: TypeBigint}}, T: TypeInterval}
		}
		return &Call{Fn: FnAddInterval, Args: []Expr{x, iv}, T: intervalSumType(x.Type())}, nil
	}
	if lit.Value == nil {
		return &Literal{T: intervalSumType(x.Type())}, nil
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
			return nil, fmt.Errorf("only constant INTERVALs can be added to an INTERVAL")
		}
		if left.Value == nil {
			return &Literal{T: TypeInterval}, nil
		}
		sum, err := value.AddIntervals(left.Value.(arrow.MonthDayNanoInterval), v)
		return &Literal{Value: sum, T: TypeInterval}, err
	}
	return &Call{Fn: FnAddInterval, Args: []Expr{x, &Literal{Value: v, T: TypeInterval}}, T: intervalSumType(x.Type())}, nil
}

// intervalSumType is the type of x ± an interval: a date moves to a
// TIMESTAMP, a timestamp keeps its type.
func intervalSumType(t arrow.DataType) arrow.DataType {
	if t.ID() == arrow.DATE32 {
		return TypeTimestamp
	}
	return t
}

// multiplyInterval binds iv × n for an integer n: folded when both are
// constants, else computed per row.
func multiplyInterval(iv, n Expr) (Expr, error) {
	n = castFolded(n, TypeBigint)
	l, lok := iv.(*Literal)
	r, rok := n.(*Literal)
	if !lok || !rok {
		return &Call{Fn: FnMulInterval, Args: []Expr{iv, n}, T: TypeInterval}, nil
	}
	if l.Value == nil || r.Value == nil {
		return &Literal{T: TypeInterval}, nil
	}
	v, ok := value.MultiplyInterval(l.Value.(arrow.MonthDayNanoInterval), r.Value.(int64))
	if !ok {
		return nil, fmt.Errorf("INTERVAL out of range")
	}
	return &Literal{Value: v, T: TypeInterval}, nil
}

// subtractTimestamps binds a − b for timestamps as the INTERVAL between
// them, in days and time as DuckDB gives it (1 day 02:00:00). A TIMESTAMP
// beside a TIMESTAMPTZ is read in the session zone.
func subtractTimestamps(a, b Expr) Expr {
	if isTimestampTZ(a.Type()) != isTimestampTZ(b.Type()) {
		if isTimestampTZ(a.Type()) {
			b = castFolded(b, TypeTimestampTZ)
		} else {
			a = castFolded(a, TypeTimestampTZ)
		}
	}
	return &Call{Fn: FnTimestampSub, Args: []Expr{a, b}, T: TypeInterval}
}

// TypeIntervalKey is the type of interval_key: nanoseconds fit in 38 digits
// for every interval.
var TypeIntervalKey arrow.DataType = &arrow.Decimal128Type{Precision: 38, Scale: 0}

// intervalKeys compares intervals through their interval_key, the total
// length with a month counted as 30 days and a day as 24 hours, as DuckDB
// and PostgreSQL compare them: INTERVAL 1 MONTH = INTERVAL 30 DAYS.
func intervalKeys(args []Expr) []Expr {
	out := make([]Expr, len(args))
	for i, a := range args {
		out[i] = &Call{Fn: FnIntervalKey, Args: []Expr{a}, T: TypeIntervalKey}
	}
	return out
}
