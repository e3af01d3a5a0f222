package optimizer

import (
	"time"

	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/value"
)

// unwrapTimeZone rewrites a comparison of a zone conversion of a column with
// a constant into a range on the column, so that local-time predicates under
// a session time zone prune (planner/timezone.go writes them):
//
//	tz_local(tstz, zone) >= w    → tstz >= w − (largest offset of zone near w)
//	tz_instant(ts, zone) >= i    → ts >= i + (smallest offset of zone near i)
//
// The offsets a zone uses within two days of the constant bound the
// conversion on both sides, so the range holds every matching row even
// across daylight-saving changes; it is exact in zones without them
// (DATE(ts) = DATE '2026-01-15' in Asia/Tokyo is the instants
// [2026-01-14 15:00 UTC, 2026-01-15 15:00 UTC)).
func unwrapTimeZone(call *planner.Call) (planner.Expr, bool) {
	fn, convExpr, litExpr := call.Fn, call.Args[0], call.Args[1]
	if _, isLit := convExpr.(*planner.Literal); isLit {
		fn, convExpr, litExpr = flippedOp[fn], litExpr, convExpr
	}
	conv, ok := convExpr.(*planner.Call)
	lit, isLit := litExpr.(*planner.Literal)
	if !ok || !isLit || lit.Value == nil || fn == "" || len(conv.Args) != 2 || !isColumn(conv.Args[0]) {
		return nil, false
	}
	if conv.Fn != planner.FnTZLocal && conv.Fn != planner.FnTZInstant {
		return nil, false
	}
	zone, ok := conv.Args[1].(*planner.Literal)
	v, isMicros := lit.Value.(int64)
	if !ok || !isMicros {
		return nil, false
	}
	name, _ := zone.Value.(string)
	loc, err := value.LoadZone(name)
	if err != nil {
		return nil, false
	}
	lo, hi := offsetsNear(v, loc)
	// local = instant + offset: the instant lies in [v − hi, v − lo] for a
	// local constant v; instant = local − offset: the wall clock lies in
	// [v + lo, v + hi] for an instant constant v.
	from, to := v-hi, v-lo
	if conv.Fn == planner.FnTZInstant {
		from, to = v+lo, v+hi
	}
	col := conv.Args[0]
	at := func(us int64) planner.Expr { return &planner.Literal{Value: us, T: col.Type()} }
	switch fn {
	case planner.FnGe, planner.FnGt:
		return comparison(fn, col, at(from)), true
	case planner.FnLe, planner.FnLt:
		return comparison(fn, col, at(to)), true
	case planner.FnEq:
		return planner.Conjunction([]planner.Expr{comparison(planner.FnGe, col, at(from)), comparison(planner.FnLe, col, at(to))}), true
	}
	return nil, false
}

// offsetsNear gives the smallest and largest UTC offset, in microseconds,
// that loc uses within two days either side of the instant us.
func offsetsNear(us int64, loc *time.Location) (lo, hi int64) {
	t := time.UnixMicro(us).Add(-48 * time.Hour).In(loc)
	end := time.UnixMicro(us).Add(48 * time.Hour)
	first := true
	for {
		_, off := t.Zone()
		o := int64(off) * 1_000_000
		if first || o < lo {
			lo = o
		}
		if first || o > hi {
			hi = o
		}
		first = false
		_, next := t.ZoneBounds()
		if next.IsZero() || !next.Before(end) || !next.After(t) {
			return lo, hi
		}
		t = next.In(loc)
	}
}
