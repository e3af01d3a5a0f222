package planner

import (
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakesql/lakesql/value"
)

// Trino's date and time functions that DuckDB lacks, or spells with other
// arguments, as the Trino documentation defines them. Each is bound onto
// the kernels lakesql already has.

// trinoDateTimeFunctions are the registry's entries for them; the names
// DuckDB or Spark also use (date_format, date_add) are overloaded in the
// registry itself.
func trinoDateTimeFunctions() map[string]*funcSpec {
	return map[string]*funcSpec{
		"date_parse":             {"(string, 'format')", 2, 2, bindDateParse},
		"format_datetime":        {"(timestamp, 'format')", 2, 2, bindTimeFormat(value.FormatSpark)},
		"parse_datetime":         {"(string, 'format')", 2, 2, bindParseDatetime},
		"to_unixtime":            {"(timestamp)", 1, 1, typed(FnEpoch, TypeDouble, temporalArg)},
		"from_iso8601_timestamp": {"(string)", 1, 1, bindFromISO8601(TypeTimestampTZ)},
		"from_iso8601_date":      {"(string)", 1, 1, bindFromISO8601(TypeDate)},
		"to_iso8601":             {"(date or timestamp)", 1, 1, bindToISO8601},
		"day_of_week":            {"(date or timestamp)", 1, 1, bindDatePart("ISODOW")},
		"day_of_year":            {"(date or timestamp)", 1, 1, bindDatePart("DOY")},
		"year_of_week":           {"(date or timestamp)", 1, 1, bindDatePart("ISOYEAR")},
		"last_day_of_month":      {"(date or timestamp)", 1, 1, typed(FnLastDay, TypeDate, dateArg)},
		"current_timezone":       {"()", 0, 0, bindCurrentTimezone},
		"with_timezone":          {"(timestamp, 'zone')", 2, 2, bindWithTimezone},
	}
}

// trinoDateTimeAliases are Trino's short names; dow is ISO (1 = Monday),
// as Trino's is, not date_part's DOW.
var trinoDateTimeAliases = map[string]string{
	"dow": "day_of_week", "doy": "day_of_year", "week_of_year": "week", "yow": "year_of_week",
	"day_of_month": "day",
}

// bindDateFormat binds date_format(x, 'pattern'): Trino's and MySQL's
// pattern (%Y-%m-%d) when it has a %, else Spark's (yyyy-MM-dd).
func bindDateFormat(b *binder, c *funcCall) (Expr, error) {
	if mysqlPattern(c.args[1]) {
		return bindTimeFormat(value.FormatMySQL)(b, c)
	}
	return bindTimeFormat(value.FormatSpark)(b, c)
}

// mysqlPattern reports whether a pattern argument is a constant with a %,
// which only MySQL's patterns give a meaning.
func mysqlPattern(e Expr) bool {
	lit, ok := e.(*Literal)
	return ok && isString(lit.T) && lit.Value != nil && strings.Contains(lit.Value.(string), "%")
}

// bindDateParse binds Trino's date_parse(s, 'format') with MySQL's
// conversions: a TIMESTAMP; text that does not fit is an error.
func bindDateParse(_ *binder, c *funcCall) (Expr, error) {
	return parseTimeCall(c, value.FormatMySQL, false)
}

// bindParseDatetime binds Trino's parse_datetime(s, 'format') with Joda's
// pattern letters, which Spark's are: a TIMESTAMPTZ, text without an
// offset being a wall clock of the session zone.
func bindParseDatetime(_ *binder, c *funcCall) (Expr, error) {
	x, err := parseTimeCall(c, value.FormatSpark, false)
	if err != nil {
		return nil, err
	}
	return castTo(x, TypeTimestampTZ)
}

// bindFromISO8601 binds from_iso8601_timestamp(s) and from_iso8601_date(s):
// s cast to t, an error when it is none; a timestamp without an offset is
// a wall clock of the session zone.
func bindFromISO8601(t arrow.DataType) bindFn {
	return func(_ *binder, c *funcCall) (Expr, error) {
		s, ok := stringArg(c.args[0])
		if !ok {
			return nil, c.mismatch()
		}
		return castTo(s, t)
	}
}

// iso8601Patterns are to_iso8601's Spark patterns for a DATE and for a
// wall clock; a TIMESTAMP has microseconds, Trino's timestamp(6).
const (
	iso8601Date      = "yyyy-MM-dd"
	iso8601Timestamp = "yyyy-MM-dd'T'HH:mm:ss.SSSSSS"
)

// bindToISO8601 binds to_iso8601(x). A TIMESTAMPTZ is written as its UTC
// wall clock with Z: the same instant, where Trino writes the offset of
// the value's own zone, which lakesql's TIMESTAMPTZ does not keep.
func bindToISO8601(_ *binder, c *funcCall) (Expr, error) {
	x, ok := temporalArg(c.args[0])
	if !ok {
		return nil, c.mismatch()
	}
	format := func(x Expr, pattern string) Expr {
		return &Call{Fn: FnFormatTime, Args: []Expr{x, stringLit(value.FormatSpark), stringLit(pattern)}, T: TypeVarchar}
	}
	switch t := x.Type(); {
	case t.ID() == arrow.DATE32:
		return format(x, iso8601Date), nil
	case isTimestampTZ(t):
		utc := &Call{Fn: FnTZLocal, Args: []Expr{x, stringLit("UTC")}, T: TypeTimestamp}
		return &Call{Fn: FnConcat, Args: []Expr{format(utc, iso8601Timestamp), stringLit("Z")}, T: TypeVarchar}, nil
	}
	return format(castFolded(x, TypeTimestamp), iso8601Timestamp), nil
}

// bindCurrentTimezone binds current_timezone(): the session zone's name.
func bindCurrentTimezone(b *binder, _ *funcCall) (Expr, error) {
	name := "UTC"
	if b.loc != nil {
		name = b.loc.String()
	}
	return stringLit(name), nil
}

// trinoDateAddUnits are the units of Trino's date_add(unit, n, x), as
// one of each; a DATE takes the units of whole days.
var trinoDateAddUnits = map[string]arrow.MonthDayNanoInterval{
	"MILLISECOND": {Nanoseconds: 1e6}, "SECOND": {Nanoseconds: 1e9}, "MINUTE": {Nanoseconds: 60e9},
	"HOUR": {Nanoseconds: 3600e9}, "DAY": {Days: 1}, "WEEK": {Days: 7},
	"MONTH": {Months: 1}, "QUARTER": {Months: 3}, "YEAR": {Months: 12},
}

// bindDateAddForms binds Spark's date_add(d, days) and Trino's
// date_add('unit', n, x), which is x + n units, of x's type.
func bindDateAddForms(b *binder, c *funcCall) (Expr, error) {
	if len(c.args) == 2 {
		return bindDateAdd(false)(b, c)
	}
	unit, err := requireStringConstant(c, 0, "unit")
	if err != nil {
		return nil, err
	}
	one, ok := trinoDateAddUnits[unit]
	if !ok {
		return nil, errorf(c.pos, "%s: unknown unit %s (expected one of MILLISECOND, SECOND, MINUTE, HOUR, DAY, WEEK, MONTH, QUARTER, YEAR)", c.name, unit)
	}
	args, err := c.convert(stringArg, accepting(IsInteger, TypeBigint), temporalArg)
	if err != nil {
		return nil, err
	}
	x := args[2]
	isDate := x.Type().ID() == arrow.DATE32
	if isDate && one.Nanoseconds != 0 {
		return nil, errorf(c.pos, "%s: a DATE takes the units DAY, WEEK, MONTH, QUARTER and YEAR, not %s", c.name, unit)
	}
	iv, err := multiplyInterval(&Literal{Value: one, T: TypeInterval}, args[1])
	if err != nil {
		return nil, errorf(c.pos, "%s: %v", c.name, err)
	}
	sum, err := addInterval("+", x, iv)
	if err != nil {
		return nil, errorf(c.pos, "%s: %v", c.name, err)
	}
	if isDate {
		return castTo(sum, TypeDate)
	}
	return sum, nil
}

// bindWithTimezone binds Trino's with_timezone(timestamp, zone): the
// instant at which the wall clock in zone shows timestamp, a TIMESTAMPTZ,
// as DuckDB's timezone(zone, timestamp). Trino takes no TIMESTAMPTZ here,
// whose timezone(zone, x) is a wall clock instead.
func bindWithTimezone(b *binder, c *funcCall) (Expr, error) {
	if t := c.args[0].Type(); !isTimestampNTZ(t) && t.ID() != arrow.DATE32 && t.ID() != arrow.NULL {
		return nil, c.mismatch()
	}
	if _, ok := c.args[1].(*Literal); !ok {
		return nil, errorf(c.pos, "%s: the zone must be a constant string, such as 'America/New_York'", c.name)
	}
	return bindTimezone(b, &funcCall{name: c.name, pos: c.pos, args: []Expr{c.args[1], c.args[0]}, spec: c.spec})
}
