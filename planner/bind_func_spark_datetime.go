package planner

import (
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakesql/lakesql/value"
)

// Spark's date and time functions (Spark 3.5 SQL function reference).
// They take and give TIMESTAMP wall clocks, except that, as in Spark,
// from_unixtime(seconds, pattern) shows the instant in the session zone
// and unix_timestamp reads text in it.
const (
	// months_between(a TIMESTAMP, b TIMESTAMP, round BOOLEAN literal) →
	// DOUBLE: Spark's formula, whole months when both days are the same or
	// both the last of their month, else a fraction of a 31-day month,
	// rounded to 8 digits when round is set.
	FnMonthsBetween = "months_between"
	// next_day(d DATE, day STRING) → DATE: the first date after d that is
	// the named day of the week ('MO', 'Mon', 'Monday', any case); NULL
	// for another name.
	FnNextDay = "next_day"
	// micros_to_timestamp(us BIGINT) → TIMESTAMP.
	FnMicrosToTimestamp = "micros_to_timestamp"
	// make_timestamp(year, month, day, hour, minute BIGINT, seconds
	// DOUBLE) → TIMESTAMP, as DuckDB's (and Spark's, which gives NULL
	// where DuckDB raises an error).
	FnMakeTimestamp = "make_timestamp"
)

func sparkDatetimeFunctions() map[string]*funcSpec {
	return map[string]*funcSpec{
		"add_months":          {"(date, months)", 2, 2, bindAddMonths},
		"months_between":      {"(timestamp, timestamp[, round])", 2, 3, bindMonthsBetween},
		"next_day":            {"(date, 'day of week')", 2, 2, typed(FnNextDay, TypeDate, dateArg, stringArg)},
		"from_utc_timestamp":  {"(timestamp, 'zone')", 2, 2, bindShiftUTC(true)},
		"to_utc_timestamp":    {"(timestamp, 'zone')", 2, 2, bindShiftUTC(false)},
		"timestamp_seconds":   {"(seconds)", 1, 1, bindFromUnixtime},
		"timestamp_millis":    {"(milliseconds)", 1, 1, typed(FnMillisToTimestamp, TypeTimestamp, intArg)},
		"timestamp_micros":    {"(microseconds)", 1, 1, typed(FnMicrosToTimestamp, TypeTimestamp, intArg)},
		"unix_date":           {"(date)", 1, 1, bindUnixDate},
		"date_from_unix_date": {"(days)", 1, 1, bindDateFromUnixDate},
		"to_unix_timestamp":   {"(timestamp or string[, 'pattern'])", 1, 2, bindUnixTimestamp},
		"make_timestamp":      {"(year, month, day, hour, minute, seconds) or make_timestamp(microseconds)", 1, 6, bindMakeTimestamp},
	}
}

// sparkTruncUnits maps Spark's other spellings of date_trunc's and trunc's
// units to lakesql's.
var sparkTruncUnits = map[string]string{"YYYY": "YEAR", "YY": "YEAR", "MON": "MONTH", "MM": "MONTH", "DD": "DAY"}

// truncUnit is unit in lakesql's spelling.
func truncUnit(unit string) string {
	if u, ok := sparkTruncUnits[unit]; ok {
		return u
	}
	return unit
}

// bindAddMonths binds add_months(d, n) as d + n months, which clamps the
// day to the month's last as Spark does: add_months('2024-01-31', 1) is
// 2024-02-29.
func bindAddMonths(_ *binder, c *funcCall) (Expr, error) {
	args, err := c.convert(dateArg, intArg)
	if err != nil {
		return nil, err
	}
	month := &Literal{Value: arrow.MonthDayNanoInterval{Months: 1}, T: TypeInterval}
	months, err := multiplyInterval(month, args[1])
	if err != nil {
		return nil, errorf(c.pos, "%s: %v", c.name, err)
	}
	later, err := addInterval("+", args[0], months)
	if err != nil {
		return nil, errorf(c.pos, "%s: %v", c.name, err)
	}
	return castFolded(later, TypeDate), nil
}

// bindMakeTimestamp binds make_timestamp(microseconds), as
// timestamp_micros, and make_timestamp(year, month, day, hour, minute,
// seconds).
func bindMakeTimestamp(_ *binder, c *funcCall) (Expr, error) {
	switch len(c.args) {
	case 1:
		args, err := c.convert(intArg)
		if err != nil {
			return nil, err
		}
		return &Call{Fn: FnMicrosToTimestamp, Args: args, T: TypeTimestamp}, nil
	case 6:
		args, err := c.convert(intArg, intArg, intArg, intArg, intArg, doubleArg)
		if err != nil {
			return nil, err
		}
		return &Call{Fn: FnMakeTimestamp, Args: args, T: TypeTimestamp}, nil
	}
	return nil, c.mismatch()
}

// bindMonthsBetween binds months_between(a, b[, roundOff]); roundOff must
// be a constant, TRUE when omitted.
func bindMonthsBetween(_ *binder, c *funcCall) (Expr, error) {
	ends := make([]Expr, 2)
	for i, a := range c.args[:2] {
		x, ok := temporalArg(a)
		if !ok {
			return nil, c.mismatch()
		}
		ends[i] = castFolded(x, TypeTimestamp)
	}
	round := true
	if len(c.args) == 3 {
		lit, ok := c.args[2].(*Literal)
		if !ok || lit.T.ID() != arrow.BOOL || lit.Value == nil {
			return nil, errorf(c.pos, "%s: roundOff must be a constant TRUE or FALSE", c.name)
		}
		round = lit.Value.(bool)
	}
	args := append(ends, &Literal{Value: round, T: TypeBoolean})
	return &Call{Fn: FnMonthsBetween, Args: args, T: TypeDouble}, nil
}

// sparkTruncFormats are the formats of Spark's trunc(date, fmt).
var sparkTruncFormats = []string{"YEAR", "YYYY", "YY", "QUARTER", "MONTH", "MM", "MON", "WEEK"}

// bindTrunc binds Spark's trunc(date, fmt): the date truncated to the
// year, quarter, month or (Monday-started) week. An unknown format gives
// NULL, as Spark documents; it must be a constant.
func bindTrunc(_ *binder, c *funcCall) (Expr, error) {
	d, ok := dateArg(c.args[0])
	if !ok {
		return nil, c.mismatch()
	}
	unit, null, ok := upperConstant(c.args[1])
	if !ok {
		return nil, errorf(c.pos, "%s: the format must be a constant string", c.name)
	}
	if null || !slices.Contains(sparkTruncFormats, unit) {
		return &Literal{T: TypeDate}, nil
	}
	start := &Call{Fn: FnDateTrunc, Args: []Expr{stringLit(truncUnit(unit)), d}, T: TypeTimestamp}
	return castFolded(start, TypeDate), nil
}

// bindTruncForms binds DuckDB's trunc(number[, digits]) and Spark's
// trunc(date, 'format'), told apart by a date or timestamp first argument
// or a string second one.
func bindTruncForms(b *binder, c *funcCall) (Expr, error) {
	if len(c.args) == 2 && (isTemporal(c.args[0].Type()) || isString(c.args[1].Type())) {
		return bindTrunc(b, c)
	}
	return bindRound(FnTrunc)(b, c)
}

// bindShiftUTC binds from_utc_timestamp(ts, zone), the wall clock in zone
// of the UTC wall clock ts, and to_utc_timestamp(ts, zone), its inverse.
func bindShiftUTC(fromUTC bool) bindFn {
	return func(b *binder, c *funcCall) (Expr, error) {
		utc := stringLit("UTC")
		zones := []Expr{utc, c.args[1]}
		if !fromUTC {
			zones = []Expr{c.args[1], utc}
		}
		return bindConvertTZ(b, &funcCall{name: c.name, pos: c.pos, args: append(c.args[:1:1], zones...), spec: c.spec})
	}
}

// bindUnixDate binds unix_date(d): the days since 1970-01-01, an INT.
func bindUnixDate(_ *binder, c *funcCall) (Expr, error) {
	d, ok := dateArg(c.args[0])
	if !ok {
		return nil, c.mismatch()
	}
	days, err := dateDiff(c, "DAY", &Literal{Value: int32(0), T: TypeDate}, d)
	if err != nil {
		return nil, err
	}
	return castFolded(days, TypeInt), nil
}

// bindDateFromUnixDate binds date_from_unix_date(n): 1970-01-01 plus n days.
func bindDateFromUnixDate(_ *binder, c *funcCall) (Expr, error) {
	n, ok := intArg(c.args[0])
	if !ok {
		return nil, c.mismatch()
	}
	return &Call{Fn: FnDateAdd, Args: []Expr{&Literal{Value: int32(0), T: TypeDate}, n}, T: TypeDate}, nil
}

// sparkDefaultTimePattern is the pattern of from_unixtime(s) and
// unix_timestamp(s) in Spark.
const sparkDefaultTimePattern = "yyyy-MM-dd HH:mm:ss"

// bindFormattedUnixtime binds Spark's from_unixtime(seconds, 'pattern'):
// the instant formatted as date_format does, in the session zone.
func bindFormattedUnixtime(b *binder, c *funcCall) (Expr, error) {
	if t := c.args[0].Type(); !IsNumeric(t) && t.ID() != arrow.NULL {
		return nil, c.mismatch() // naming both arguments
	}
	ts, err := bindFromUnixtime(b, &funcCall{name: c.name, pos: c.pos, args: c.args[:1], spec: c.spec})
	if err != nil {
		return nil, err
	}
	call, ok := ts.(*Call)
	if !ok {
		return nil, c.mismatch()
	}
	// The same call typed as the instant, shown in the session zone.
	ts = &Call{Fn: call.Fn, Args: call.Args, T: TypeTimestampTZ}
	return bindTimeFormat(value.FormatSpark)(b, &funcCall{name: c.name, pos: c.pos, args: []Expr{ts, c.args[1]}, spec: c.spec})
}

// bindParsedUnixTimestamp binds Spark's unix_timestamp(s, 'pattern') and
// unix_timestamp(s) (read by 'yyyy-MM-dd HH:mm:ss'): the seconds of the
// instant s holds in the session zone, NULL when s does not fit.
func bindParsedUnixTimestamp(c *funcCall) (Expr, error) {
	if len(c.args) == 1 {
		c = &funcCall{name: c.name, pos: c.pos, args: []Expr{c.args[0], stringLit(sparkDefaultTimePattern)}, spec: c.spec}
	}
	ts, err := parseTimeCall(c, value.FormatSpark, true)
	if err != nil {
		return nil, err
	}
	if lit, ok := ts.(*Literal); ok && lit.Value == nil {
		return &Literal{T: TypeBigint}, nil
	}
	// A wall clock without an offset is read in the session zone.
	return &Call{Fn: FnUnixTimestamp, Args: []Expr{castFolded(ts, TypeTimestampTZ)}, T: TypeBigint}, nil
}

// upperConstant is the upper-cased text of a constant string argument, or
// ok false when the argument is not one; null reports a NULL constant.
func upperConstant(e Expr) (s string, null, ok bool) {
	lit, isLit := e.(*Literal)
	switch {
	case !isLit:
		return "", false, false
	case lit.Value == nil:
		return "", true, true
	case isString(lit.T):
		return strings.ToUpper(lit.Value.(string)), false, true
	}
	return "", false, false
}
