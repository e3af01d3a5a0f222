package optimizer

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakesql/lakesql/planner"
)

func TestFoldFunctionsOfConstants(t *testing.T) {
	dayBack := &planner.Literal{Value: arrow.MonthDayNanoInterval{Days: -1}, T: planner.TypeInterval}
	monthOn := &planner.Literal{Value: arrow.MonthDayNanoInterval{Months: 1}, T: planner.TypeInterval}
	cases := []struct {
		name string
		in   planner.Expr
		want string
	}{
		{"timestamp minus a day", call(planner.FnGe, planner.TypeBoolean, tsCol,
			call(planner.FnAddInterval, planner.TypeTimestamp, tsLit("2026-03-01 00:30:00"), dayBack)),
			"(ts >= TIMESTAMP '2026-02-28 00:30:00')"},
		{"month end clamps", call(planner.FnAddInterval, planner.TypeTimestamp, tsLit("2026-01-31 00:00:00"), monthOn),
			"TIMESTAMP '2026-02-28 00:00:00'"},
		{"date plus days", call(planner.FnEq, planner.TypeBoolean, dateCol,
			call(planner.FnDateAdd, planner.TypeDate, dateLit("2026-01-15"), &planner.Literal{Value: int64(-7), T: planner.TypeBigint})),
			"(d = DATE '2026-01-08')"},
		{"year of a date minus two", call(planner.FnSub, planner.TypeBigint,
			call(planner.FnDatePart, planner.TypeBigint, str("YEAR"), dateLit("2026-11-30")), &planner.Literal{Value: int64(2), T: planner.TypeBigint}),
			"2024"},
		{"cast of a constant", &planner.Cast{X: dateLit("2026-01-15"), T: planner.TypeTimestamp},
			"TIMESTAMP '2026-01-15 00:00:00'"},
		{"overflow stays for the executor", call(planner.FnAdd, planner.TypeBigint,
			&planner.Literal{Value: int64(1 << 62), T: planner.TypeBigint}, &planner.Literal{Value: int64(1 << 62), T: planner.TypeBigint}),
			"(4611686018427387904 + 4611686018427387904)"},
		{"columns stay", call(planner.FnDateAdd, planner.TypeDate, dateCol, &planner.Literal{Value: int64(1), T: planner.TypeBigint}),
			"date_add(d, 1)"},
	}
	for _, c := range cases {
		if got := fold(c.in).String(); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.name, got, c.want)
		}
	}
}

func TestFoldCaseAndStructFields(t *testing.T) {
	x := &planner.ColumnRef{Name: "x", T: planner.TypeBigint}
	lit := func(v any) *planner.Literal { return &planner.Literal{Value: v, T: planner.TypeBigint} }
	when := func(cond, result planner.Expr) planner.CaseWhen { return planner.CaseWhen{Cond: cond, Result: result} }
	caseOf := func(otherwise planner.Expr, whens ...planner.CaseWhen) planner.Expr {
		return &planner.Case{Whens: whens, Else: otherwise, T: planner.TypeBigint}
	}
	isNull := call(planner.FnIsNull, planner.TypeBoolean, x)
	st := call(planner.FnMakeStruct, arrow.StructOf(arrow.Field{Name: "a", Type: planner.TypeBigint}, arrow.Field{Name: "b", Type: planner.TypeBigint}),
		str("a"), lit(int64(1)), str("b"), x)
	cases := []struct {
		name string
		in   planner.Expr
		want string
	}{
		{"false and NULL arms drop", caseOf(lit(int64(9)), when(boolLit(false), lit(int64(1))), when(boolLit(nil), lit(int64(2))), when(isNull, x)),
			"CASE WHEN is_null(x) THEN x ELSE 9 END"},
		{"a TRUE arm first is the value", caseOf(lit(int64(9)), when(boolLit(true), x), when(isNull, lit(int64(2)))), "x"},
		{"a TRUE arm later ends the CASE", caseOf(lit(int64(9)), when(isNull, lit(int64(1))), when(boolLit(true), x), when(isNull, lit(int64(3)))),
			"CASE WHEN is_null(x) THEN 1 ELSE x END"},
		{"no arm left is the ELSE", caseOf(lit(nil), when(boolLit(false), x)), "NULL"},
		{"no constant arm stays", caseOf(lit(nil), when(isNull, x)), "CASE WHEN is_null(x) THEN x ELSE NULL END"},
		{"a field of a built struct", call(planner.FnGetField, planner.TypeBigint, st, str("b")), "x"},
		{"a field of a constant struct", call(planner.FnGetField, planner.TypeBigint, st, str("a")), "1"},
	}
	for _, c := range cases {
		if got := fold(c.in).String(); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.name, got, c.want)
		}
	}
}
