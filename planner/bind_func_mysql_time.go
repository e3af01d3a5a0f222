package planner

import (
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakesql/lakesql/value"
)

// MySQL's time functions that BI tools send (Metabase asks for the
// server's offset with time_format(timediff(now(), convert_tz(now(),
// @@GLOBAL.time_zone, '+00:00')), '%H:%i')). MySQL's TIME is a signed
// duration of up to 838 hours, which lakesql's TIME (a time of day) is
// not: TIMEDIFF gives an INTERVAL of nanoseconds alone, which prints as
// MySQL prints a TIME (-01:30:00, 46:58:57.999999), and TIME_FORMAT takes
// either.

// bindConvertTZ binds convert_tz(x, from, to): the wall clock x in zone
// from, as a wall clock in zone to. TIMESTAMPTZ values are the session's
// wall clocks, as MySQL's TIMESTAMP columns are read.
func bindConvertTZ(_ *binder, c *funcCall) (Expr, error) {
	x, ok := wallClockArg(c.args[0])
	if !ok {
		return nil, c.mismatch()
	}
	zones := make([]Expr, 2)
	for i, z := range c.args[1:] {
		if zones[i], ok = stringArg(z); !ok {
			return nil, c.mismatch()
		}
	}
	return &Call{Fn: FnConvertTZ, Args: []Expr{x, zones[0], zones[1]}, T: TypeTimestamp}, nil
}

// wallClockArg reads a date, timestamp or text as a TIMESTAMP; text that
// is no timestamp is NULL, as in MySQL.
func wallClockArg(e Expr) (Expr, bool) {
	t := e.Type()
	switch {
	case t.ID() == arrow.NULL || t.ID() == arrow.DATE32 || t.ID() == arrow.TIMESTAMP:
		return castFolded(e, TypeTimestamp), true
	case isString(t):
		if x, err := castTo(e, TypeTimestamp); err == nil {
			return x, true
		}
		return &Cast{X: e, T: TypeTimestamp, Try: true}, true
	}
	return nil, false
}

// bindTimeDiff binds timediff(a, b): a − b, both times or both dates and
// timestamps. As in MySQL, a time beside a timestamp gives NULL, and
// text is read as a timestamp or else as a time.
func bindTimeDiff(_ *binder, c *funcCall) (Expr, error) {
	args := make([]Expr, 2)
	for i, a := range c.args {
		t := a.Type()
		switch {
		case t.ID() == arrow.TIME64:
			args[i] = castFolded(a, TypeTime)
		case isString(t):
			if lit, ok := a.(*Literal); ok && lit.Value != nil {
				if x, err := castTo(a, TypeTime); err == nil && !timestampText(lit) {
					args[i] = x
					continue
				}
			}
			args[i], _ = wallClockArg(a)
		default:
			x, ok := wallClockArg(a)
			if !ok {
				return nil, c.mismatch()
			}
			args[i] = x
		}
	}
	if !arrow.TypeEqual(args[0].Type(), args[1].Type()) {
		return &Literal{T: TypeInterval}, nil
	}
	return &Call{Fn: FnTimeDiff, Args: args, T: TypeInterval}, nil
}

// timestampText reports whether a text literal reads as a timestamp.
func timestampText(lit *Literal) bool {
	_, err := ConvertLiteral(lit.Value, lit.T, TypeTimestamp)
	return err == nil
}

// bindDurationFormat binds time_format(x, 'pattern'): a time, the INTERVAL of
// timediff, or the time of day of a timestamp, formatted by MySQL's
// conversions. A pattern with parts of a date (%M, %W, %j …) is NULL, as
// MySQL's is.
func bindDurationFormat(_ *binder, c *funcCall) (Expr, error) {
	lit, isLit := c.args[1].(*Literal)
	if !isLit || (lit.Value != nil && !isString(lit.T)) {
		return nil, errorf(c.pos, "%s: the format must be a constant string", c.name)
	}
	if lit.Value == nil {
		return &Literal{T: TypeVarchar}, nil
	}
	pattern := lit.Value.(string)
	df, err := value.CompileDurationFormat(pattern)
	if err != nil {
		return nil, errorf(c.pos, "%s: %v", c.name, err)
	}
	x, ok := durationArg(c.args[0])
	if !ok {
		return nil, c.mismatch()
	}
	if df.Null || x.Type().ID() == arrow.NULL {
		return &Literal{T: TypeVarchar}, nil
	}
	return &Call{Fn: FnFormatDuration, Args: []Expr{x, stringLit(pattern)}, T: TypeVarchar}, nil
}

// durationArg takes a TIME or INTERVAL as it is, a timestamp's time of day
// as a TIME, and text as the time it spells ('-01:30:00', '100:00:00').
func durationArg(e Expr) (Expr, bool) {
	t := e.Type()
	switch {
	case t.ID() == arrow.NULL || t.ID() == arrow.TIME64 || isInterval(t):
		return e, true
	case t.ID() == arrow.DATE32 || t.ID() == arrow.TIMESTAMP:
		return castFolded(e, TypeTime), true
	case isString(t):
		if lit, ok := e.(*Literal); ok && lit.Value != nil {
			if iv, err := value.ParseInterval(lit.Value.(string)); err == nil && iv.Months == 0 && iv.Days == 0 {
				return &Literal{Value: iv, T: TypeInterval}, true
			}
			if timestampText(lit) {
				return castFolded(castFolded(e, TypeTimestamp), TypeTime), true
			}
			return &Literal{T: TypeTime}, true
		}
		return &Cast{X: e, T: TypeTime, Try: true}, true
	}
	return nil, false
}
