package optimizer

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/lakesql/lakesql/planner"
)

func decLit(v int64, precision, scale int32) *planner.Literal {
	return &planner.Literal{Value: decimal128.FromI64(v), T: &arrow.Decimal128Type{Precision: precision, Scale: scale}}
}

func TestUnwrapCast(t *testing.T) {
	price := &planner.ColumnRef{Index: 3, Name: "price", T: &arrow.Decimal128Type{Precision: 9, Scale: 2}}
	wide := &planner.Cast{X: price, T: &arrow.Decimal128Type{Precision: 12, Scale: 3}}
	asInt := func(fn string, v *planner.Literal) planner.Expr {
		return call(fn, planner.TypeBoolean, &planner.Cast{X: intCol, T: v.T}, v)
	}
	bigPrice := &planner.ColumnRef{Index: 4, Name: "big", T: &arrow.Decimal128Type{Precision: 20, Scale: 2}}
	cases := []struct {
		name string
		in   planner.Expr
		want string
	}{
		{"decimal at least", call(planner.FnGe, planner.TypeBoolean, wide, decLit(50000, 12, 3)), "(price >= 50.00)"},
		{"decimal between grid points", call(planner.FnGe, planner.TypeBoolean, wide, decLit(4005, 12, 3)), "(price >= 4.01)"},
		{"decimal above, off grid", call(planner.FnGt, planner.TypeBoolean, wide, decLit(4005, 12, 3)), "(price > 4.00)"},
		{"decimal at most, off grid", call(planner.FnLe, planner.TypeBoolean, wide, decLit(4005, 12, 3)), "(price <= 4.00)"},
		{"decimal below, off grid", call(planner.FnLt, planner.TypeBoolean, wide, decLit(4005, 12, 3)), "(price < 4.01)"},
		{"decimal equal off grid", call(planner.FnEq, planner.TypeBoolean, wide, decLit(4005, 12, 3)), "false"},
		{"negative off grid", call(planner.FnGe, planner.TypeBoolean, wide, decLit(-4005, 12, 3)), "(price >= -4.00)"},
		{"literal first", call(planner.FnLt, planner.TypeBoolean, decLit(50000, 12, 3), wide), "(price > 50.00)"},
		{"beyond the column's precision", call(planner.FnLt, planner.TypeBoolean, wide, decLit(10_000_000_000, 12, 3)),
			"true"},
		{"int equals decimal", asInt(planner.FnEq, decLit(20, 11, 1)), "(n = 2)"},
		{"int above half", asInt(planner.FnGt, decLit(25, 11, 1)), "(n > 2)"},
		{"int equals a fraction", asInt(planner.FnEq, decLit(25, 11, 1)), "false"},
		{"int widened to bigint", asInt(planner.FnEq, &planner.Literal{Value: int64(2024), T: planner.TypeBigint}), "(n = 2024)"},
		{"int equal beyond its range", asInt(planner.FnEq, &planner.Literal{Value: int64(1 << 40), T: planner.TypeBigint}), "false"},
		{"int below beyond its range", asInt(planner.FnLt, &planner.Literal{Value: int64(1 << 40), T: planner.TypeBigint}), "true"},
		{"int above beyond its range", asInt(planner.FnGt, &planner.Literal{Value: int64(-1 << 40), T: planner.TypeBigint}), "true"},
		{"int at most beyond its range", asInt(planner.FnLe, &planner.Literal{Value: int64(-1 << 40), T: planner.TypeBigint}), "false"},
		{"int against a double", asInt(planner.FnGe, &planner.Literal{Value: 2.5, T: planner.TypeDouble}), "(n >= 3)"},
		{"decimal against a double", call(planner.FnEq, planner.TypeBoolean, &planner.Cast{X: price, T: planner.TypeDouble}, &planner.Literal{Value: 4.5, T: planner.TypeDouble}),
			"(price = 4.50)"},
		{"double off grid equality stays", call(planner.FnEq, planner.TypeBoolean, &planner.Cast{X: price, T: planner.TypeDouble}, &planner.Literal{Value: 4.505, T: planner.TypeDouble}),
			"(CAST(price AS DOUBLE) = 4.505)"},
		{"wide decimal to double stays", call(planner.FnEq, planner.TypeBoolean, &planner.Cast{X: bigPrice, T: planner.TypeDouble}, &planner.Literal{Value: 4.5, T: planner.TypeDouble}),
			"(CAST(big AS DOUBLE) = 4.5)"},
		{"date against a timestamp", call(planner.FnGe, planner.TypeBoolean, &planner.Cast{X: dateCol, T: planner.TypeTimestamp}, tsLit("2026-01-15 06:00:00")),
			"(d >= DATE '2026-01-16')"},
		{"timestamp against an instant", call(planner.FnGe, planner.TypeBoolean, &planner.Cast{X: tsCol, T: planner.TypeTimestampTZ}, &planner.Literal{Value: tsLit("2026-01-15 06:00:00").Value, T: planner.TypeTimestampTZ}),
			"(ts >= TIMESTAMP '2026-01-15 06:00:00')"},
		{"in list", call(planner.FnIn, planner.TypeBoolean, &planner.Cast{X: intCol, T: planner.TypeBigint},
			&planner.Literal{Value: int64(1), T: planner.TypeBigint}, &planner.Literal{Value: int64(1 << 40), T: planner.TypeBigint}),
			"(n IN (1))"},
		{"in list of decimals", call(planner.FnIn, planner.TypeBoolean, &planner.Cast{X: intCol, T: &arrow.Decimal128Type{Precision: 11, Scale: 1}},
			decLit(10, 11, 1), decLit(15, 11, 1)),
			"(n IN (1))"},
		{"try_cast stays", call(planner.FnEq, planner.TypeBoolean, &planner.Cast{X: intCol, T: planner.TypeBigint, Try: true}, &planner.Literal{Value: int64(1), T: planner.TypeBigint}),
			"(TRY_CAST(n AS BIGINT) = 1)"},
	}
	for _, c := range cases {
		if got := normalizePredicate(c.in).String(); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.name, got, c.want)
		}
	}
}
