package optimizer

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakesql/lakesql/planner"
)

// normalizePredicates rewrites the scan filters (which only prune, see
// pushDownFilters) so predicates that wrap a column in a function become
// ranges on the column itself, which partition transforms and column
// statistics can use:
//
//	DATE(ts) = DATE '2026-01-15'         → ts >= '2026-01-15 00:00' AND ts < '2026-01-16 00:00'
//	CAST(ts AS DATE) BETWEEN a AND b     → ts >= a 00:00 AND ts < b+1 00:00
//	YEAR(d) = 2024                       → d >= '2024-01-01' AND d < '2025-01-01'
//	YEAR(d) = 2024 AND MONTH(d) = 3      → d >= '2024-03-01' AND d < '2024-04-01'
//	date_trunc('month', ts) >= '2026-01-01' → ts >= '2026-01-01 00:00'
//	CAST(year AS VARCHAR) = '2024'       → year = 2024
//
// Each rewrite is implied by the original predicate (usually equivalent), so
// the scan's row set only ever grows; the original stays in the Filter above.
func normalizePredicates(p planner.Plan) planner.Plan {
	if scan, ok := p.(*planner.Scan); ok && scan.Filter != nil {
		out := *scan
		out.Filter = normalizeFilter(scan.Filter)
		return &out
	}
	return withChildren(p, normalizePredicates)
}

func normalizeFilter(e planner.Expr) planner.Expr {
	parts := planner.Conjuncts(e)
	ranges, paired := yearMonthRanges(parts)
	// A month(x) = m that a year made into a range has nothing left to say
	// to pruning (the Filter above still checks every row): dropped from
	// the scan's filter, EXPLAIN does not call it a predicate that cannot
	// prune.
	parts = slices.DeleteFunc(parts, func(p planner.Expr) bool { return paired[p] })
	parts = append(parts, ranges...)
	for i, c := range parts {
		parts[i] = normalizePredicate(c)
	}
	return planner.Conjunction(parts)
}

// mapOperands rewrites each operand of a call (an AND, an OR) with f.
func mapOperands(call *planner.Call, f func(planner.Expr) planner.Expr) planner.Expr {
	args := make([]planner.Expr, len(call.Args))
	for i, a := range call.Args {
		args[i] = f(a)
	}
	return &planner.Call{Fn: call.Fn, Args: args, T: call.T}
}

// normalizePredicate rewrites one predicate, recursing through OR and NOT.
func normalizePredicate(e planner.Expr) planner.Expr {
	call, ok := e.(*planner.Call)
	if !ok {
		return e
	}
	switch call.Fn {
	case planner.FnAnd, planner.FnOr:
		return mapOperands(call, normalizePredicate)
	case planner.FnEq, planner.FnLt, planner.FnLe, planner.FnGt, planner.FnGe:
		if r, ok := bucketRange(call); ok {
			return unwrapComparisons(r)
		}
		if r, ok := castToStringEquality(call); ok {
			return r
		}
		if r, ok := unwrapComparison(call); ok {
			return r
		}
	case planner.FnIn:
		if r, ok := unwrapCastIn(call); ok {
			return r
		}
		return unwrapComparisons(inBucketRanges(call))
	}
	return e
}

// unwrapComparison removes a cast or a time zone conversion from the column
// side of a comparison with a constant (unwrap_casts.go, unwrap_time_zone.go).
func unwrapComparison(call *planner.Call) (planner.Expr, bool) {
	if r, ok := unwrapCast(call); ok {
		return r, true
	}
	return unwrapTimeZone(call)
}

// unwrapComparisons applies unwrapComparison to every comparison in e, which
// the ranges bucketRange writes on a local wall clock need.
func unwrapComparisons(e planner.Expr) planner.Expr {
	return planner.Rewrite(e, func(x planner.Expr) planner.Expr {
		if call, ok := x.(*planner.Call); ok && flippedOp[call.Fn] != "" {
			if r, ok := unwrapComparison(call); ok {
				return r
			}
		}
		return x
	})
}

// bucketFn describes a monotonic function that maps ranges of its source
// column to values: f(x) = v holds exactly for x in [start(k), start(k+1)).
type bucketFn struct {
	source planner.Expr
	// index gives the bucket of a function value, and whether v is exactly a
	// value f produces (f(x) = v for some x).
	index func(v any) (k int64, aligned bool, ok bool)
	// start is the first source value of bucket k, as a literal.
	start func(k int64) *planner.Literal
	// next is the bucket after k (k+1 when nil; date_trunc numbers buckets
	// by their start time, so its next bucket is one unit later).
	next func(k int64) int64
}

func (b bucketFn) after(k int64) int64 {
	if b.next == nil {
		return k + 1
	}
	return b.next(k)
}

// asBucketFn recognizes CAST(ts AS DATE) (which date(ts) and to_date(ts) bind
// to), year(x) (bound as date_part('YEAR', x)) and date_trunc('unit', x)
// over a column.
func asBucketFn(e planner.Expr) (bucketFn, bool) {
	switch f := e.(type) {
	case *planner.Cast:
		if f.Try || f.T.ID() != arrow.DATE32 || f.X.Type().ID() != arrow.TIMESTAMP {
			return bucketFn{}, false
		}
		return dayBuckets(f.X), isSource(f.X)
	case *planner.Call:
		switch f.Fn {
		case "date", "to_date":
			if len(f.Args) == 1 && f.Args[0].Type().ID() == arrow.TIMESTAMP {
				return dayBuckets(f.Args[0]), isColumn(f.Args[0])
			}
		case planner.FnDatePart:
			if field, x, ok := unitAndColumn(f); ok && field == "year" {
				return yearBuckets(x), true
			}
		case planner.FnDateTrunc:
			if unit, x, ok := unitAndColumn(f); ok {
				b, ok := truncBuckets(unit, x, f.T)
				return b, ok
			}
		}
	}
	return bucketFn{}, false
}

// unitAndColumn reads fn('unit', column) with a constant unit, lower-cased.
func unitAndColumn(f *planner.Call) (string, planner.Expr, bool) {
	if len(f.Args) != 2 || !isSource(f.Args[1]) || !isTemporal(f.Args[1].Type()) {
		return "", nil, false
	}
	unit, ok := f.Args[0].(*planner.Literal)
	if !ok || unit.Value == nil {
		return "", nil, false
	}
	text, ok := unit.Value.(string)
	return strings.ToLower(text), f.Args[1], ok
}

func isColumn(e planner.Expr) bool {
	_, ok := e.(*planner.ColumnRef)
	return ok
}

// isSource reports a column, or the local wall clock of a TIMESTAMPTZ column
// under a session time zone (tz_local(ts, zone)): ranges on the latter
// become ranges on the column (unwrap_time_zone.go).
func isSource(e planner.Expr) bool {
	if call, ok := e.(*planner.Call); ok && call.Fn == planner.FnTZLocal {
		return isColumn(call.Args[0])
	}
	return isColumn(e)
}

func isTemporal(t arrow.DataType) bool { return t.ID() == arrow.DATE32 || t.ID() == arrow.TIMESTAMP }

const microsPerDay = 86400 * 1_000_000

// dayBuckets: a DATE value d is the timestamps [d 00:00, d+1 00:00) (UTC, the session zone).
func dayBuckets(ts planner.Expr) bucketFn {
	return bucketFn{
		source: ts,
		index: func(v any) (int64, bool, bool) {
			d, ok := v.(int32)
			return int64(d), true, ok
		},
		start: func(k int64) *planner.Literal { return &planner.Literal{Value: k * microsPerDay, T: ts.Type()} },
	}
}

// yearBuckets: year(x) = y is x in [y-01-01, y+1-01-01).
func yearBuckets(x planner.Expr) bucketFn {
	return bucketFn{
		source: x,
		index: func(v any) (int64, bool, bool) {
			switch y := v.(type) {
			case int32:
				return int64(y), true, true
			case int64:
				return y, true, true
			}
			return 0, false, false
		},
		start: func(k int64) *planner.Literal {
			return temporalLiteral(time.Date(int(k), 1, 1, 0, 0, 0, 0, time.UTC), x.Type())
		},
	}
}

// truncBuckets: date_trunc(unit, x) = v is x in [v, v + unit) when v is a
// unit boundary; buckets are numbered by their start time in microseconds.
func truncBuckets(unit string, x planner.Expr, result arrow.DataType) (bucketFn, bool) {
	floor, next, ok := truncUnit(unit)
	if !ok {
		return bucketFn{}, false
	}
	return bucketFn{
		source: x,
		index: func(v any) (int64, bool, bool) {
			t, ok := literalTime(v, result)
			if !ok {
				return 0, false, false
			}
			f := floor(t)
			return f.UnixMicro(), f.Equal(t), true
		},
		start: func(k int64) *planner.Literal {
			return temporalLiteral(time.UnixMicro(k).UTC(), x.Type())
		},
		next: func(k int64) int64 { return next(time.UnixMicro(k).UTC()).UnixMicro() },
	}, true
}

// truncUnit gives the floor and the next boundary of a date_trunc unit.
func truncUnit(unit string) (floor, next func(time.Time) time.Time, ok bool) {
	switch unit {
	case "year":
		return func(t time.Time) time.Time { return time.Date(t.Year(), 1, 1, 0, 0, 0, 0, time.UTC) },
			func(t time.Time) time.Time { return t.AddDate(1, 0, 0) }, true
	case "quarter":
		return func(t time.Time) time.Time {
				return time.Date(t.Year(), (t.Month()-1)/3*3+1, 1, 0, 0, 0, 0, time.UTC)
			},
			func(t time.Time) time.Time { return t.AddDate(0, 3, 0) }, true
	case "month":
		return func(t time.Time) time.Time { return time.Date(t.Year(), t.Month(), 1, 0, 0, 0, 0, time.UTC) },
			func(t time.Time) time.Time { return t.AddDate(0, 1, 0) }, true
	case "day":
		return func(t time.Time) time.Time { return t.Truncate(24 * time.Hour) },
			func(t time.Time) time.Time { return t.AddDate(0, 0, 1) }, true
	case "hour":
		return func(t time.Time) time.Time { return t.Truncate(time.Hour) },
			func(t time.Time) time.Time { return t.Add(time.Hour) }, true
	}
	return nil, nil, false
}

// literalTime reads a DATE or TIMESTAMP constant as a UTC time.
func literalTime(v any, t arrow.DataType) (time.Time, bool) {
	switch x := v.(type) {
	case int32:
		if t.ID() == arrow.DATE32 {
			return time.Unix(int64(x)*86400, 0).UTC(), true
		}
	case int64:
		if t.ID() == arrow.TIMESTAMP {
			return time.UnixMicro(x).UTC(), true
		}
	}
	return time.Time{}, false
}

// temporalLiteral makes a DATE or TIMESTAMP constant of type t at instant u.
// A DATE bucket boundary that is not midnight rounds up: x >= 10:00 on a
// date column means x >= the next day.
func temporalLiteral(u time.Time, t arrow.DataType) *planner.Literal {
	if t.ID() == arrow.DATE32 {
		days := u.Unix() / 86400
		if u.Unix()%86400 != 0 {
			days++
		}
		return &planner.Literal{Value: int32(days), T: t}
	}
	return &planner.Literal{Value: u.UnixMicro(), T: t}
}

// bucketRange rewrites f(x) op v into a range on x.
func bucketRange(call *planner.Call) (planner.Expr, bool) {
	fn, fExpr, vExpr := call.Fn, call.Args[0], call.Args[1]
	if _, isLit := fExpr.(*planner.Literal); isLit {
		fn, fExpr, vExpr = flippedOp[fn], vExpr, fExpr
	}
	b, ok := asBucketFn(fExpr)
	if !ok {
		return nil, false
	}
	lit, ok := vExpr.(*planner.Literal)
	if !ok || lit.Value == nil {
		return nil, false
	}
	k, aligned, ok := b.index(lit.Value)
	if !ok {
		return nil, false
	}
	// first is the first bucket whose values are >= v.
	first := k
	if !aligned {
		first = b.after(k)
	}
	switch fn {
	case planner.FnEq:
		if !aligned {
			return falseLiteral(), true
		}
		return planner.Conjunction([]planner.Expr{comparison(planner.FnGe, b.source, b.start(k)), comparison(planner.FnLt, b.source, b.start(b.after(k)))}), true
	case planner.FnGe:
		return comparison(planner.FnGe, b.source, b.start(first)), true
	case planner.FnGt:
		return comparison(planner.FnGe, b.source, b.start(b.after(k))), true
	case planner.FnLe:
		return comparison(planner.FnLt, b.source, b.start(b.after(k))), true
	case planner.FnLt:
		return comparison(planner.FnLt, b.source, b.start(first)), true
	}
	return nil, false
}

var flippedOp = map[string]string{
	planner.FnEq: planner.FnEq, planner.FnLt: planner.FnGt, planner.FnLe: planner.FnGe,
	planner.FnGt: planner.FnLt, planner.FnGe: planner.FnLe,
}

func comparison(fn string, l, r planner.Expr) planner.Expr {
	return &planner.Call{Fn: fn, Args: []planner.Expr{l, r}, T: planner.TypeBoolean}
}

func falseLiteral() planner.Expr { return &planner.Literal{Value: false, T: planner.TypeBoolean} }

// inBucketRanges rewrites f(x) IN (v1, …) into an OR of ranges.
func inBucketRanges(call *planner.Call) planner.Expr {
	if _, ok := asBucketFn(call.Args[0]); !ok {
		return call
	}
	var ranges []planner.Expr
	for _, v := range call.Args[1:] {
		if _, ok := v.(*planner.Literal); !ok {
			return call
		}
		r, ok := bucketRange(&planner.Call{Fn: planner.FnEq, Args: []planner.Expr{call.Args[0], v}, T: planner.TypeBoolean})
		if !ok {
			return call
		}
		ranges = append(ranges, r)
	}
	var out planner.Expr
	for _, r := range ranges {
		if out == nil {
			out = r
			continue
		}
		out = &planner.Call{Fn: planner.FnOr, Args: []planner.Expr{out, r}, T: planner.TypeBoolean}
	}
	if out == nil {
		return falseLiteral()
	}
	return out
}

// castToStringEquality rewrites CAST(int_col AS VARCHAR) = '2024' into
// int_col = 2024. A string that is not how the integer prints ('02024')
// matches no row.
func castToStringEquality(call *planner.Call) (planner.Expr, bool) {
	if call.Fn != planner.FnEq {
		return nil, false
	}
	castExpr, litExpr := call.Args[0], call.Args[1]
	if _, isLit := castExpr.(*planner.Literal); isLit {
		castExpr, litExpr = litExpr, castExpr
	}
	c, ok := castExpr.(*planner.Cast)
	lit, isLit := litExpr.(*planner.Literal)
	if !ok || !isLit || lit.Value == nil || c.T.ID() != arrow.STRING || !isColumn(c.X) {
		return nil, false
	}
	text := lit.Value.(string)
	var value any
	switch c.X.Type().ID() {
	case arrow.INT32:
		n, err := strconv.ParseInt(text, 10, 32)
		if err != nil || strconv.FormatInt(n, 10) != text {
			return falseLiteral(), true
		}
		value = int32(n)
	case arrow.INT64:
		n, err := strconv.ParseInt(text, 10, 64)
		if err != nil || strconv.FormatInt(n, 10) != text {
			return falseLiteral(), true
		}
		value = n
	default:
		return nil, false
	}
	return comparison(planner.FnEq, c.X, &planner.Literal{Value: value, T: c.X.Type()}), true
}

// yearMonthRanges finds year(x) = y together with month(x) = m among the
// conjuncts and returns the month's range on x, which neither gives alone,
// and the month conjuncts it used.
func yearMonthRanges(parts []planner.Expr) ([]planner.Expr, map[planner.Expr]bool) {
	years := map[string]int64{}
	months := map[string][]int64{}
	monthParts := map[string][]planner.Expr{}
	sources := map[string]planner.Expr{}
	for _, p := range parts {
		fn, x, v, ok := fnEqualsInt(p)
		if !ok {
			continue
		}
		key := x.String()
		sources[key] = x
		switch fn {
		case "year":
			years[key] = v
		case "month":
			months[key] = append(months[key], v)
			monthParts[key] = append(monthParts[key], p)
		}
	}
	var out []planner.Expr
	paired := map[planner.Expr]bool{}
	for key, y := range years {
		for _, p := range monthParts[key] {
			paired[p] = true
		}
		for _, m := range months[key] {
			if m < 1 || m > 12 {
				out = append(out, falseLiteral())
				continue
			}
			x := sources[key]
			from := time.Date(int(y), time.Month(m), 1, 0, 0, 0, 0, time.UTC)
			out = append(out, planner.Conjunction([]planner.Expr{
				comparison(planner.FnGe, x, temporalLiteral(from, x.Type())),
				comparison(planner.FnLt, x, temporalLiteral(from.AddDate(0, 1, 0), x.Type())),
			}))
		}
	}
	return out, paired
}

// fnEqualsInt matches date_part('field', column) = integer constant.
func fnEqualsInt(e planner.Expr) (string, planner.Expr, int64, bool) {
	call, ok := e.(*planner.Call)
	if !ok || call.Fn != planner.FnEq {
		return "", nil, 0, false
	}
	f, fok := call.Args[0].(*planner.Call)
	lit, lok := call.Args[1].(*planner.Literal)
	if !fok || !lok || f.Fn != planner.FnDatePart {
		return "", nil, 0, false
	}
	field, x, ok := unitAndColumn(f)
	if !ok {
		return "", nil, 0, false
	}
	switch v := lit.Value.(type) {
	case int32:
		return field, x, int64(v), true
	case int64:
		return field, x, v, true
	}
	return "", nil, 0, false
}
