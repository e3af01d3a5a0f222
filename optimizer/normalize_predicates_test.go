package optimizer

import (
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakesql/lakesql/planner"
)

var (
	tsCol   = &planner.ColumnRef{Index: 0, Name: "ts", T: planner.TypeTimestamp}
	dateCol = &planner.ColumnRef{Index: 1, Name: "d", T: planner.TypeDate}
	intCol  = &planner.ColumnRef{Index: 2, Name: "n", T: planner.TypeInt}
)

func tsLit(s string) *planner.Literal {
	t, err := time.Parse(time.DateTime, s)
	if err != nil {
		panic(err)
	}
	return &planner.Literal{Value: t.UnixMicro(), T: planner.TypeTimestamp}
}

func dateLit(s string) *planner.Literal {
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		panic(err)
	}
	return &planner.Literal{Value: int32(t.Unix() / 86400), T: planner.TypeDate}
}

func call(fn string, t arrow.DataType, args ...planner.Expr) *planner.Call {
	return &planner.Call{Fn: fn, Args: args, T: t}
}

func str(s string) *planner.Literal { return &planner.Literal{Value: s, T: planner.TypeVarchar} }

func TestNormalizePredicate(t *testing.T) {
	toDate := &planner.Cast{X: tsCol, T: planner.TypeDate}
	year := call(planner.FnDatePart, planner.TypeBigint, str("YEAR"), dateCol)
	truncDay := call(planner.FnDateTrunc, planner.TypeTimestamp, str("DAY"), tsCol)
	truncMonthOfDate := call(planner.FnDateTrunc, planner.TypeTimestamp, str("MONTH"), dateCol)
	cases := []struct {
		name string
		in   planner.Expr
		want string
	}{
		{"date equals", call(planner.FnEq, planner.TypeBoolean, toDate, dateLit("2026-01-15")),
			"((ts >= TIMESTAMP '2026-01-15 00:00:00') AND (ts < TIMESTAMP '2026-01-16 00:00:00'))"},
		{"date before 1970", call(planner.FnEq, planner.TypeBoolean, toDate, dateLit("1969-12-31")),
			"((ts >= TIMESTAMP '1969-12-31 00:00:00') AND (ts < TIMESTAMP '1970-01-01 00:00:00'))"},
		{"literal first", call(planner.FnLt, planner.TypeBoolean, dateLit("2026-01-15"), toDate),
			"(ts >= TIMESTAMP '2026-01-16 00:00:00')"},
		{"date at most", call(planner.FnLe, planner.TypeBoolean, toDate, dateLit("2026-01-15")),
			"(ts < TIMESTAMP '2026-01-16 00:00:00')"},
		{"year equals", call(planner.FnEq, planner.TypeBoolean, year, &planner.Literal{Value: int64(2024), T: planner.TypeBigint}),
			"((d >= DATE '2024-01-01') AND (d < DATE '2025-01-01'))"},
		{"year after", call(planner.FnGt, planner.TypeBoolean, year, &planner.Literal{Value: int64(2024), T: planner.TypeBigint}),
			"(d >= DATE '2025-01-01')"},
		{"trunc aligned", call(planner.FnEq, planner.TypeBoolean, truncDay, tsLit("2026-01-15 00:00:00")),
			"((ts >= TIMESTAMP '2026-01-15 00:00:00') AND (ts < TIMESTAMP '2026-01-16 00:00:00'))"},
		{"trunc not aligned matches nothing", call(planner.FnEq, planner.TypeBoolean, truncDay, tsLit("2026-01-15 06:00:00")),
			"false"},
		{"trunc at least, not aligned", call(planner.FnGe, planner.TypeBoolean, truncDay, tsLit("2026-01-15 06:00:00")),
			"(ts >= TIMESTAMP '2026-01-16 00:00:00')"},
		{"trunc below, not aligned", call(planner.FnLt, planner.TypeBoolean, truncDay, tsLit("2026-01-15 06:00:00")),
			"(ts < TIMESTAMP '2026-01-16 00:00:00')"},
		{"trunc month of a date", call(planner.FnEq, planner.TypeBoolean, truncMonthOfDate, tsLit("2024-02-01 00:00:00")),
			"((d >= DATE '2024-02-01') AND (d < DATE '2024-03-01'))"},
		{"cast to varchar", call(planner.FnEq, planner.TypeBoolean, &planner.Cast{X: intCol, T: planner.TypeVarchar}, str("2024")),
			"(n = 2024)"},
		{"cast to varchar, not canonical", call(planner.FnEq, planner.TypeBoolean, &planner.Cast{X: intCol, T: planner.TypeVarchar}, str("02024")),
			"false"},
		{"in list", call(planner.FnIn, planner.TypeBoolean, toDate, dateLit("2026-01-14"), dateLit("2026-01-16")),
			"(((ts >= TIMESTAMP '2026-01-14 00:00:00') AND (ts < TIMESTAMP '2026-01-15 00:00:00')) OR ((ts >= TIMESTAMP '2026-01-16 00:00:00') AND (ts < TIMESTAMP '2026-01-17 00:00:00')))"},
		{"month alone stays", call(planner.FnEq, planner.TypeBoolean, call(planner.FnDatePart, planner.TypeBigint, str("MONTH"), dateCol), &planner.Literal{Value: int64(3), T: planner.TypeBigint}),
			"(date_part('MONTH', d) = 3)"},
	}
	for _, c := range cases {
		if got := normalizePredicate(c.in).String(); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.name, got, c.want)
		}
	}
}

func TestYearAndMonthGiveTheMonthRange(t *testing.T) {
	year := call(planner.FnEq, planner.TypeBoolean, call(planner.FnDatePart, planner.TypeBigint, str("YEAR"), dateCol), &planner.Literal{Value: int64(2024), T: planner.TypeBigint})
	month := call(planner.FnEq, planner.TypeBoolean, call(planner.FnDatePart, planner.TypeBigint, str("MONTH"), dateCol), &planner.Literal{Value: int64(12), T: planner.TypeBigint})
	ranges, paired := yearMonthRanges([]planner.Expr{year, month})
	if len(ranges) != 1 || ranges[0].String() != "((d >= DATE '2024-12-01') AND (d < DATE '2025-01-01'))" {
		t.Fatalf("got %v", ranges)
	}
	if !paired[month] || paired[year] {
		t.Fatalf("paired %v: want the month conjunct only", paired)
	}
}
