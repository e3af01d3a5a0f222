package planner

import (
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakesql/lakesql/value"
)

// bindTimezone binds DuckDB's timezone(zone, x), which x AT TIME ZONE zone
// parses to: the wall clock in zone of a TIMESTAMPTZ, or the instant of a
// TIMESTAMP (a DATE: its midnight) read as a wall clock in zone. zone is a
// constant: an IANA name, UTC or an offset ±HH[:MM]. Text is refused, as
// in DuckDB: '…+02' AT TIME ZONE z could mean the instant or the wall clock.
func bindTimezone(_ *binder, c *funcCall) (Expr, error) {
	zone, x := c.args[0], c.args[1]
	lit, ok := zone.(*Literal)
	if !ok || !isString(lit.T) && lit.T.ID() != arrow.NULL {
		return nil, errorf(c.pos, "the zone of AT TIME ZONE (timezone(zone, x)) must be a constant string, such as 'America/New_York'")
	}
	t := x.Type()
	switch {
	case lit.Value == nil && isTimestampTZ(t):
		return &Literal{T: TypeTimestamp}, nil
	case lit.Value == nil && (isTimestampNTZ(t) || t.ID() == arrow.DATE32 || t.ID() == arrow.NULL):
		return &Literal{T: TypeTimestampTZ}, nil
	case lit.Value == nil:
		return nil, c.mismatch()
	case t.ID() == arrow.DATE32 || t.ID() == arrow.NULL:
		cast, err := castTo(x, TypeTimestamp)
		if err != nil {
			return nil, errorf(c.pos, "%v", err)
		}
		x, t = cast, TypeTimestamp
	}
	if isTimestampNs(t) {
		// The zone kernels work in microseconds, the unit of every zone
		// operation.
		micros := TypeTimestamp
		if isTimestampTZ(t) {
			micros = TypeTimestampTZ
		}
		x, t = &Cast{X: x, T: micros}, micros
	}
	loc, err := value.LoadZone(lit.Value.(string))
	if err != nil {
		return nil, errorf(c.pos, "%v", err)
	}
	switch {
	case isTimestampTZ(t):
		return tzLocal(x, loc), nil
	case isTimestampNTZ(t):
		return tzInstant(x, loc), nil
	}
	return nil, c.mismatch()
}
