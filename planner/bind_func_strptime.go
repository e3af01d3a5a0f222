package planner

import (
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakesql/lakesql/value"
)

// parse_time(s STRING, dialect STRING, pattern STRING, try BOOLEAN, all
// literals but s) → TIMESTAMP, or TIMESTAMPTZ when the pattern reads a UTC
// offset: s read by a pattern of value.CompileTimeParser. Text that does
// not fit is an error, or NULL when try is set.
const FnParseTime = "parse_time"

// bindStrptime binds DuckDB's strptime(s, 'format') and try_strptime: an
// unparsable string is an error in the first and NULL in the second.
func bindStrptime(try bool) bindFn {
	return func(_ *binder, c *funcCall) (Expr, error) {
		return parseTimeCall(c, value.FormatStrftime, try)
	}
}

// bindToTimestamp binds Spark's to_timestamp(s[, 'pattern']) and DuckDB's
// to_timestamp(seconds). With a pattern, text that does not fit is NULL,
// as in Spark (without ANSI mode); without one, s is cast to TIMESTAMP.
// Seconds give a TIMESTAMPTZ, as in DuckDB.
func bindToTimestamp(b *binder, c *funcCall) (Expr, error) {
	if len(c.args) == 2 {
		return parseTimeCall(c, value.FormatSpark, true)
	}
	x := c.args[0]
	switch t := x.Type(); {
	case IsNumeric(t):
		e, err := bindFromUnixtime(b, c)
		if err != nil {
			return nil, err
		}
		e.(*Call).T = TypeTimestampTZ
		return e, nil
	case isString(t) || t.ID() == arrow.DATE32 || t.ID() == arrow.TIMESTAMP || t.ID() == arrow.NULL:
		x, err := castTo(x, TypeTimestamp)
		if err != nil {
			return nil, errorf(c.pos, "%s: %v", c.name, err)
		}
		return x, nil
	case isTimestampTZ(t):
		return x, nil
	}
	return nil, c.mismatch()
}

// bindSparkToDate binds Spark's to_date(s[, 'pattern']): with a pattern,
// the date of the timestamp to_timestamp reads (NULL when s does not fit);
// without one, date(s).
func bindSparkToDate(b *binder, c *funcCall) (Expr, error) {
	if len(c.args) == 1 {
		return bindToDate(b, c)
	}
	ts, err := parseTimeCall(c, value.FormatSpark, true)
	if err != nil {
		return nil, err
	}
	return castFolded(ts, TypeDate), nil
}

// parseTimeCall types parse_time for c's (string, constant pattern); the
// pattern is compiled here so that a bad one is an error at its position.
func parseTimeCall(c *funcCall, dialect string, try bool) (Expr, error) {
	s, ok := stringArg(c.args[0])
	if !ok {
		return nil, c.mismatch()
	}
	lit, isLit := c.args[1].(*Literal)
	if !isLit || (lit.Value != nil && !isString(lit.T)) {
		return nil, errorf(c.pos, "%s: the format must be a constant string", c.name)
	}
	if lit.Value == nil {
		return &Literal{T: TypeTimestamp}, nil
	}
	pattern := lit.Value.(string)
	tp, err := value.CompileTimeParser(dialect, pattern)
	if err != nil {
		return nil, errorf(c.pos, "%s: %v", c.name, err)
	}
	t := TypeTimestamp
	if tp.HasOffset {
		t = TypeTimestampTZ
	}
	args := []Expr{s, stringLit(dialect), stringLit(pattern), &Literal{Value: try, T: TypeBoolean}}
	return &Call{Fn: FnParseTime, Args: args, T: t}, nil
}
