package planner

import (
	"context"
	"fmt"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/lakesql/lakesql/value"
)

// Session time zones. TIMESTAMPTZ values are instants; the session zone
// decides their calendar fields, their text, and how zone-less text and
// TIMESTAMP values become instants. The binder rewrites the operations that
// depend on the zone (localize) into calls of the conversion functions
// below, so the date kernels keep computing on UTC wall clocks. In UTC
// nothing is rewritten.
const (
	// tz_local(x TIMESTAMPTZ, zone STRING literal) → TIMESTAMP: the wall
	// clock of x in zone.
	FnTZLocal = "tz_local"
	// tz_instant(x TIMESTAMP, zone STRING literal) → TIMESTAMPTZ: the
	// instant of wall clock x in zone.
	FnTZInstant = "tz_instant"
	// tz_parse(s STRING, zone STRING literal) → TIMESTAMPTZ; text without an
	// offset is a wall clock in zone. tz_try_parse gives NULL for bad text.
	FnTZParse    = "tz_parse"
	FnTZTryParse = "tz_try_parse"
	// tz_format(x TIMESTAMPTZ, zone STRING literal) → STRING: the wall clock
	// of x in zone with its offset.
	FnTZFormat = "tz_format"
	// tz_add_interval(x TIMESTAMPTZ, iv INTERVAL, zone STRING literal) →
	// TIMESTAMPTZ: x + iv with iv's months and days moving the wall clock
	// in zone, the rest elapsed time.
	FnTZAddInterval = "tz_add_interval"
)

type timeZoneKey struct{}

// WithTimeZone returns a context that binds statements in the session time
// zone loc (nil or UTC: UTC).
func WithTimeZone(ctx context.Context, loc *time.Location) context.Context {
	return context.WithValue(ctx, timeZoneKey{}, loc)
}

// timeZoneOf is the session time zone of ctx, nil for UTC.
func timeZoneOf(ctx context.Context) *time.Location {
	if ctx == nil {
		return nil
	}
	loc, _ := ctx.Value(timeZoneKey{}).(*time.Location)
	if value.IsUTC(loc) {
		return nil
	}
	return loc
}

func isTimestampTZ(t arrow.DataType) bool {
	ts, ok := t.(*arrow.TimestampType)
	return ok && ts.TimeZone != ""
}

func isTimestampNTZ(t arrow.DataType) bool {
	ts, ok := t.(*arrow.TimestampType)
	return ok && ts.TimeZone == ""
}

// zoneDependent reports conversions whose result depends on the session zone.
func zoneDependent(from, to arrow.DataType) bool {
	switch {
	case isTimestampTZ(from):
		return !isTimestampTZ(to) && (to.ID() == arrow.DATE32 || to.ID() == arrow.TIMESTAMP || to.ID() == arrow.TIME64 || isString(to))
	case isTimestampTZ(to):
		return from.ID() == arrow.DATE32 || isTimestampNTZ(from) || isString(from)
	}
	return false
}

// nestedZoneDependent reports whether casting nested type from to nested
// type to converts a TIMESTAMPTZ at some depth into a DATE, TIMESTAMP or
// TIME, whose values depend on the session zone; the cast kernels convert
// nested values in UTC. (Into text the instant keeps its offset, +00.)
// inside is set below the top level.
func nestedZoneDependent(from, to arrow.DataType, inside bool) bool {
	switch f := from.(type) {
	case *arrow.ListType:
		t, ok := to.(*arrow.ListType)
		return ok && nestedZoneDependent(f.Elem(), t.Elem(), true)
	case *arrow.MapType:
		t, ok := to.(*arrow.MapType)
		return ok && (nestedZoneDependent(f.KeyType(), t.KeyType(), true) || nestedZoneDependent(f.ItemType(), t.ItemType(), true))
	case *arrow.StructType:
		t, ok := to.(*arrow.StructType)
		if !ok || t.NumFields() != f.NumFields() {
			return false
		}
		for i := range f.NumFields() {
			if nestedZoneDependent(f.Field(i).Type, t.Field(i).Type, true) {
				return true
			}
		}
		return false
	}
	return inside && zoneDependent(from, to) && !isString(to)
}

// listCastIn is a cast of a list whose elements' cast depends on the zone
// as list_transform(l, x -> CAST(x AS element type)) with that cast
// localized in loc; false for other nested types.
func listCastIn(c *Cast, loc *time.Location) (Expr, bool) {
	from, ok1 := c.X.Type().(*arrow.ListType)
	to, ok2 := c.T.(*arrow.ListType)
	if !ok1 || !ok2 {
		return nil, false
	}
	var body Expr = &Cast{X: &ColumnRef{Index: 0, Name: "x", T: from.Elem()}, T: to.Elem(), Try: c.Try}
	switch {
	case zoneDependent(from.Elem(), to.Elem()):
		body = localCast(body.(*Cast), loc)
	case nestedZoneDependent(from.Elem(), to.Elem(), false):
		if body, ok1 = listCastIn(body.(*Cast), loc); !ok1 {
			return nil, false
		}
	}
	return &Call{Fn: FnListTransform, Args: []Expr{c.X, &Lambda{Params: []string{"x"}, Body: body, IndexBase: 1}}, T: c.T}, true
}

// needsLocalize reports whether e holds an operation localize rewrites.
func needsLocalize(e Expr) bool {
	found := false
	Walk(e, func(x Expr) {
		switch x := x.(type) {
		case *Cast:
			found = found || zoneDependent(x.X.Type(), x.T) || nestedZoneDependent(x.X.Type(), x.T, false)
		case *Call:
			switch x.Fn {
			case FnDatePart, FnDateTrunc, FnDateDiff:
				for _, a := range x.Args[1:] {
					found = found || isTimestampTZ(a.Type())
				}
			case FnAddInterval:
				found = found || isTimestampTZ(x.Args[0].Type())
			}
		}
	})
	return found
}

// localize rewrites the zone-dependent operations of e for the binder's
// session zone. Casts of constants are folded; in UTC they are all that
// changes (castTo leaves zone-dependent constant casts for here).
func (b *binder) localize(e Expr) (Expr, error) {
	if e == nil || !needsLocalize(e) {
		return e, nil
	}
	loc := b.loc
	var err error
	out := Rewrite(e, func(x Expr) Expr {
		switch x := x.(type) {
		case *Cast:
			if loc != nil && nestedZoneDependent(x.X.Type(), x.T, false) {
				if each, ok := listCastIn(x, loc); ok {
					return each
				}
				if err == nil {
					err = fmt.Errorf("%s: converting TIMESTAMPTZ values inside a struct or map to dates or wall-clock times is only done in time zone UTC; convert each field instead", x)
				}
			}
			if !zoneDependent(x.X.Type(), x.T) {
				return x
			}
			if lit, ok := x.X.(*Literal); ok {
				v, cerr := convertLiteralIn(lit.Value, lit.T, x.T, loc)
				if cerr != nil {
					if x.Try {
						return &Literal{T: x.T}
					}
					if err == nil {
						err = cerr
					}
					return x
				}
				return &Literal{Value: v, T: x.T}
			}
			if loc == nil {
				return x
			}
			return localCast(x, loc)
		case *Call:
			if loc == nil {
				return x
			}
			return localCall(x, loc)
		}
		return x
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// convertLiteralIn is ConvertLiteral in zone loc (nil: UTC).
func convertLiteralIn(v any, from, to arrow.DataType, loc *time.Location) (any, error) {
	if v == nil || loc == nil {
		return ConvertLiteral(v, from, to)
	}
	switch {
	case isString(from) && isTimestampTZ(to):
		return value.ParseTimestampTZIn(v.(string), loc)
	case isTimestampTZ(from) && isString(to):
		return string(value.AppendTimestampIn(nil, v.(int64), loc)), nil
	case isTimestampTZ(from):
		local := value.InstantToLocal(v.(int64), loc)
		return ConvertLiteral(local, TypeTimestamp, to)
	case from.ID() == arrow.DATE32 || isTimestampNTZ(from):
		w, err := ConvertLiteral(v, from, TypeTimestamp)
		if err != nil {
			return nil, err
		}
		return value.LocalToInstant(w.(int64), loc), nil
	}
	return ConvertLiteral(v, from, to)
}

func zoneLit(loc *time.Location) *Literal { return stringLit(loc.String()) }

func tzLocal(x Expr, loc *time.Location) Expr {
	return &Call{Fn: FnTZLocal, Args: []Expr{x, zoneLit(loc)}, T: TypeTimestamp}
}

func tzInstant(x Expr, loc *time.Location) Expr {
	return &Call{Fn: FnTZInstant, Args: []Expr{x, zoneLit(loc)}, T: TypeTimestampTZ}
}

// localCast rewrites a zone-dependent cast of a non-constant.
func localCast(c *Cast, loc *time.Location) Expr {
	from := c.X.Type()
	switch {
	case isTimestampTZ(from) && isString(c.T):
		var s Expr = &Call{Fn: FnTZFormat, Args: []Expr{c.X, zoneLit(loc)}, T: TypeVarchar}
		if !arrow.TypeEqual(c.T, TypeVarchar) {
			s = &Cast{X: s, T: c.T, Try: c.Try}
		}
		return s
	case isTimestampTZ(from):
		local := tzLocal(c.X, loc)
		if isTimestampNTZ(c.T) {
			return local
		}
		return &Cast{X: local, T: c.T, Try: c.Try}
	case isString(from):
		fn := FnTZParse
		if c.Try {
			fn = FnTZTryParse
		}
		return &Call{Fn: fn, Args: []Expr{c.X, zoneLit(loc)}, T: c.T}
	case from.ID() == arrow.DATE32:
		return tzInstant(&Cast{X: c.X, T: TypeTimestamp, Try: c.Try}, loc)
	}
	return tzInstant(c.X, loc)
}

// localCall rewrites the calendar functions of TIMESTAMPTZ arguments to work
// on their wall clocks.
func localCall(c *Call, loc *time.Location) Expr {
	switch c.Fn {
	case FnDatePart:
		if isTimestampTZ(c.Args[1].Type()) {
			return &Call{Fn: c.Fn, Args: []Expr{c.Args[0], tzLocal(c.Args[1], loc)}, T: c.T}
		}
	case FnDateTrunc:
		if isTimestampTZ(c.Args[1].Type()) {
			trunc := &Call{Fn: c.Fn, Args: []Expr{c.Args[0], tzLocal(c.Args[1], loc)}, T: TypeTimestamp}
			return tzInstant(trunc, loc)
		}
	case FnDateDiff:
		// Calendar units count wall-clock boundaries; hours and smaller
		// count elapsed time, which the instants give.
		unit, _ := c.Args[0].(*Literal)
		if unit == nil {
			return c
		}
		switch unit.Value {
		case "YEAR", "QUARTER", "MONTH", "WEEK", "DAY":
			args := append([]Expr(nil), c.Args...)
			for i := 1; i < len(args); i++ {
				if isTimestampTZ(args[i].Type()) {
					args[i] = tzLocal(args[i], loc)
				}
			}
			return &Call{Fn: c.Fn, Args: args, T: c.T}
		}
	case FnAddInterval:
		if isTimestampTZ(c.Args[0].Type()) {
			return addIntervalInZone(c, loc)
		}
	}
	return c
}

// addIntervalInZone adds an interval to an instant as DuckDB, PostgreSQL
// and Spark do: months and days move the wall clock in the session zone (a
// day after 12:00 is 12:00, across a change to summer time too), the rest
// is elapsed time.
func addIntervalInZone(c *Call, loc *time.Location) Expr {
	if lit, ok := c.Args[1].(*Literal); ok && lit.Value != nil {
		if iv := lit.Value.(arrow.MonthDayNanoInterval); iv.Months == 0 && iv.Days == 0 {
			return c // elapsed time only
		}
	}
	return &Call{Fn: FnTZAddInterval, Args: []Expr{c.Args[0], c.Args[1], zoneLit(loc)}, T: c.T}
}
