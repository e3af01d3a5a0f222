package storage

import (
	"testing"

	"github.com/apache/iceberg-go"
)

func TestNegatedPredicatesPruneSingleValueRanges(t *testing.T) {
	schema := iceberg.NewSchema(0,
		iceberg.NestedField{ID: 1, Name: "c", Type: iceberg.PrimitiveTypes.Int32},
		iceberg.NestedField{ID: 2, Name: "s", Type: iceberg.PrimitiveTypes.String})
	one := func(v iceberg.Literal) FieldStats {
		return FieldStats{Lower: v, Upper: v, Nulls: 0, Values: 3, NaNs: 0}
	}
	span := func(lo, hi iceberg.Literal) FieldStats {
		return FieldStats{Lower: lo, Upper: hi, Nulls: 1, Values: 3, NaNs: 0}
	}
	allNull := FieldStats{Nulls: 2, Values: 2, NaNs: 0}
	cases := []struct {
		name  string
		expr  iceberg.BooleanExpression
		stats FieldStats
		want  bool
	}{
		{"<> the only value", iceberg.NotEqualTo(iceberg.Reference("c"), int32(1)), one(iceberg.Int32Literal(1)), false},
		{"<> another value", iceberg.NotEqualTo(iceberg.Reference("c"), int32(2)), one(iceberg.Int32Literal(1)), true},
		{"<> within a range", iceberg.NotEqualTo(iceberg.Reference("c"), int32(1)), span(iceberg.Int32Literal(1), iceberg.Int32Literal(2)), true},
		{"<> on NULLs only", iceberg.NotEqualTo(iceberg.Reference("c"), int32(1)), allNull, false},
		{"<> without bounds", iceberg.NotEqualTo(iceberg.Reference("c"), int32(1)), unknownStats(), true},
		{"NOT IN holding the value", iceberg.NotIn(iceberg.Reference("c"), int32(3), int32(1)), one(iceberg.Int32Literal(1)), false},
		{"NOT IN missing the value", iceberg.NotIn(iceberg.Reference("c"), int32(3), int32(4)), one(iceberg.Int32Literal(1)), true},
		{"NOT LIKE, both bounds share the prefix", iceberg.NotStartsWith(iceberg.Reference("s"), "ap"), span(iceberg.StringLiteral("apple"), iceberg.StringLiteral("apricot")), false},
		{"NOT LIKE, one bound differs", iceberg.NotStartsWith(iceberg.Reference("s"), "ap"), span(iceberg.StringLiteral("apple"), iceberg.StringLiteral("banana")), true},
	}
	for _, c := range cases {
		bound, err := iceberg.BindExpr(schema, c.expr, true)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := MightMatch(bound, func(int) FieldStats { return c.stats }); got != c.want {
			t.Errorf("%s: MightMatch = %v, want %v", c.name, got, c.want)
		}
	}
}
