package optimizer

import (
	"testing"

	"github.com/lakesql/lakesql/planner"
)

func TestUnwrapTimeZone(t *testing.T) {
	tstz := &planner.ColumnRef{Index: 5, Name: "tstz", T: planner.TypeTimestampTZ}
	local := func(zone string) planner.Expr {
		return call(planner.FnTZLocal, planner.TypeTimestamp, tstz, str(zone))
	}
	localDate := func(zone string) planner.Expr { return &planner.Cast{X: local(zone), T: planner.TypeDate} }
	instant := func(s string) *planner.Literal {
		return &planner.Literal{Value: tsLit(s).Value, T: planner.TypeTimestampTZ}
	}
	cases := []struct {
		name string
		in   planner.Expr
		want string
	}{
		// Tokyo has no daylight saving time: the local day is exactly nine hours earlier in UTC.
		{"local day in Tokyo", call(planner.FnEq, planner.TypeBoolean, localDate("Asia/Tokyo"), dateLit("2026-01-15")),
			"((tstz >= TIMESTAMPTZ '2026-01-14 15:00:00+00:00') AND (tstz < TIMESTAMPTZ '2026-01-15 15:00:00+00:00'))"},
		// Berlin springs forward on 2026-03-29 at 02:00 (+01 → +02): the
		// range covers both offsets, a superset of the day's instants.
		{"local day across a DST change", call(planner.FnEq, planner.TypeBoolean, localDate("Europe/Berlin"), dateLit("2026-03-29")),
			"((tstz >= TIMESTAMPTZ '2026-03-28 22:00:00+00:00') AND (tstz < TIMESTAMPTZ '2026-03-29 23:00:00+00:00'))"},
		{"local year", call(planner.FnEq, planner.TypeBoolean, call(planner.FnDatePart, planner.TypeBigint, str("YEAR"), local("Asia/Tokyo")),
			&planner.Literal{Value: int64(2026), T: planner.TypeBigint}),
			"((tstz >= TIMESTAMPTZ '2025-12-31 15:00:00+00:00') AND (tstz < TIMESTAMPTZ '2026-12-31 15:00:00+00:00'))"},
		{"wall clock of a timestamp against an instant",
			call(planner.FnGe, planner.TypeBoolean, call(planner.FnTZInstant, planner.TypeTimestampTZ, tsCol, str("Asia/Tokyo")), instant("2026-01-15 15:00:00")),
			"(ts >= TIMESTAMP '2026-01-16 00:00:00')"},
		{"offset zone", call(planner.FnLt, planner.TypeBoolean, local("+02:00"), tsLit("2026-01-15 00:00:00")),
			"(tstz < TIMESTAMPTZ '2026-01-14 22:00:00+00:00')"},
	}
	for _, c := range cases {
		if got := normalizePredicate(c.in).String(); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.name, got, c.want)
		}
	}
}
