package planner

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/lakesql/lakesql/value"
)

// Date parts of date_part, as extract and the year(), month(), … functions
// name them. DAYOFWEEK counts 1 = Sunday … 7 = Saturday (Spark's
// dayofweek); DOW counts 0 = Sunday … 6 = Saturday (DuckDB's and
// PostgreSQL's extract), ISODOW 1 = Monday … 7 = Sunday; WEEK is the ISO
// 8601 week, ISOYEAR the year it belongs to and YEARWEEK both (202401).
// weekday(x) is WEEKDAY, 0 = Monday … 6 = Sunday (Spark's and MySQL's
// weekday), which extract does not take. MILLISECOND and MICROSECOND include the seconds (12.5 s is 12500 ms), as
// in DuckDB and PostgreSQL.
var dateParts = []string{"YEAR", "QUARTER", "MONTH", "WEEK", "DAY", "DAYOFWEEK", "DOW", "ISODOW", "DOY", "HOUR", "MINUTE", "SECOND", "MILLISECOND", "MICROSECOND", "EPOCH",
	"ISOYEAR", "YEARWEEK", "DECADE", "CENTURY", "MILLENNIUM"}

// datePartAliases are other names extract accepts for a date part.
var datePartAliases = map[string]string{"DAYOFMONTH": "DAY", "DAYOFYEAR": "DOY", "WEEKOFYEAR": "WEEK",
	"MILLISECONDS": "MILLISECOND", "MICROSECONDS": "MICROSECOND", "MS": "MILLISECOND", "US": "MICROSECOND"}

// bindDateName binds dayname(x) and monthname(x), the English name of the
// day or month (Monday, January), as DuckDB and MySQL give them.
func bindDateName(pattern string) bindFn {
	format := bindTimeFormat(value.FormatStrftime)
	return func(b *binder, c *funcCall) (Expr, error) {
		named := *c
		named.args = []Expr{c.args[0], stringLit(pattern)}
		return format(b, &named)
	}
}

// TimeUnits are the units of date_trunc and datediff.
var timeUnits = []string{"YEAR", "QUARTER", "MONTH", "WEEK", "DAY", "HOUR", "MINUTE", "SECOND"}

// bindDatePart binds year(x), month(x), … as date_part('FIELD', x).
func bindDatePart(field string) bindFn {
	return func(_ *binder, c *funcCall) (Expr, error) {
		return datePart(c, field, c.args[0])
	}
}

// bindExtract binds extract(FIELD FROM x), which the parser turns into
// extract('FIELD', x), and date_part('field', x).
func bindExtract(_ *binder, c *funcCall) (Expr, error) {
	field, err := requireStringConstant(c, 0, "date part")
	if err != nil {
		return nil, err
	}
	if canonical, ok := datePartAliases[field]; ok {
		field = canonical
	}
	if err := oneOf(c, "date part", field, dateParts); err != nil {
		return nil, err
	}
	return datePart(c, field, c.args[1])
}

// datePart types date_part(field, x); EPOCH, the one fractional part, is
// its own function.
func datePart(c *funcCall, field string, x Expr) (Expr, error) {
	x, ok := temporalArg(x)
	if !ok {
		return nil, c.mismatch()
	}
	if field == "EPOCH" {
		return &Call{Fn: FnEpoch, Args: []Expr{x}, T: TypeDouble}, nil
	}
	return &Call{Fn: FnDatePart, Args: []Expr{stringLit(field), x}, T: TypeBigint}, nil
}

// bindDateTrunc binds date_trunc('unit', x). As in DuckDB, truncating a DATE
// gives a TIMESTAMP; timestamps keep their type.
func bindDateTrunc(_ *binder, c *funcCall) (Expr, error) {
	unit, err := requireStringConstant(c, 0, "unit")
	if err != nil {
		return nil, err
	}
	unit = truncUnit(unit)
	if err := oneOf(c, "unit", unit, timeUnits); err != nil {
		return nil, err
	}
	x, ok := temporalArg(c.args[1])
	if !ok {
		return nil, c.mismatch()
	}
	t := x.Type()
	if t.ID() == arrow.DATE32 {
		t = TypeTimestamp
	}
	return &Call{Fn: FnDateTrunc, Args: []Expr{stringLit(unit), x}, T: t}, nil
}

// bindDateDiff binds Spark's datediff(end, start), the days from start to
// end, and DuckDB's datediff('unit', start, end).
func bindDateDiff(_ *binder, c *funcCall) (Expr, error) {
	unit, ends := "DAY", []Expr{c.args[1], c.args[0]}
	if len(c.args) == 3 {
		var err error
		if unit, err = requireStringConstant(c, 0, "unit"); err != nil {
			return nil, err
		}
		if err := oneOf(c, "unit", unit, timeUnits); err != nil {
			return nil, err
		}
		ends = c.args[1:]
	}
	return dateDiff(c, unit, ends[0], ends[1])
}

// dateDiff types datediff(unit, start, end).
func dateDiff(c *funcCall, unit string, start, end Expr) (Expr, error) {
	start, ok1 := temporalArg(start)
	end, ok2 := temporalArg(end)
	if !ok1 || !ok2 {
		return nil, c.mismatch()
	}
	return &Call{Fn: FnDateDiff, Args: []Expr{stringLit(unit), start, end}, T: TypeBigint}, nil
}

// bindDateAdd binds Spark's date_add(d, n) and date_sub(d, n): DATE ± n days.
// A timestamp argument is first truncated to its date, as Spark does.
func bindDateAdd(subtract bool) bindFn {
	return func(_ *binder, c *funcCall) (Expr, error) {
		args, err := c.convert(temporalArg, intArg)
		if err != nil {
			return nil, err
		}
		d, err := castTo(args[0], TypeDate)
		if err != nil {
			return nil, errorf(c.pos, "%v", err)
		}
		days := args[1]
		if subtract {
			days = foldNegation(days)
		}
		return &Call{Fn: FnDateAdd, Args: []Expr{d, days}, T: TypeDate}, nil
	}
}

// bindToDate binds date(x) and to_date(x). Strings go through TIMESTAMP so
// that both '2026-01-31' and '2026-01-31 10:00' read as dates.
func bindToDate(_ *binder, c *funcCall) (Expr, error) {
	x := c.args[0]
	switch t := x.Type(); {
	case isString(t):
		x = castFolded(x, TypeTimestamp)
	case !isTemporal(t) && t.ID() != arrow.NULL:
		return nil, c.mismatch()
	}
	d, err := castTo(x, TypeDate)
	if err != nil {
		return nil, errorf(c.pos, "%v", err)
	}
	return d, nil
}

// bindFromUnixtime binds from_unixtime(seconds): integer seconds convert
// exactly; other numbers keep their microseconds. Spark's
// from_unixtime(seconds, 'pattern') formats the timestamp.
func bindFromUnixtime(b *binder, c *funcCall) (Expr, error) {
	if len(c.args) == 2 {
		return bindFormattedUnixtime(b, c)
	}
	p := doubleArg
	if IsInteger(c.args[0].Type()) {
		p = intArg
	}
	args, err := c.convert(p)
	if err != nil {
		return nil, err
	}
	return &Call{Fn: FnFromUnixtime, Args: args, T: TypeTimestamp}, nil
}

// bindUnixTimestamp binds unix_timestamp([x[, 'pattern']]); without x it
// is the statement's time. A string is parsed by the pattern, Spark's
// 'yyyy-MM-dd HH:mm:ss' when there is none (bindParsedUnixTimestamp); a
// timestamp or date ignores the pattern, as in Spark.
func bindUnixTimestamp(b *binder, c *funcCall) (Expr, error) {
	if len(c.args) == 0 {
		return &Literal{Value: b.statementTime().Unix(), T: TypeBigint}, nil
	}
	if isString(c.args[0].Type()) {
		return bindParsedUnixTimestamp(c)
	}
	x, ok := temporalArg(c.args[0])
	if !ok {
		return nil, c.mismatch()
	}
	return &Call{Fn: FnUnixTimestamp, Args: []Expr{x}, T: TypeBigint}, nil
}

// bindNow binds current_date, current_time and current_timestamp to
// constants: the statement's instant (statementTime), whose date and time of
// day are read in the session time zone.
func bindNow(t arrow.DataType) bindFn {
	return func(b *binder, _ *funcCall) (Expr, error) {
		micros := b.statementTime().UnixMicro()
		if t.ID() == arrow.TIMESTAMP {
			return &Literal{Value: micros, T: t}, nil
		}
		if b.loc != nil {
			micros = value.InstantToLocal(micros, b.loc)
		}
		if t.ID() == arrow.DATE32 {
			return &Literal{Value: int32(floorDiv(micros, 86400e6)), T: t}, nil
		}
		return &Literal{Value: micros - floorDiv(micros, 86400e6)*86400e6, T: t}, nil
	}
}
