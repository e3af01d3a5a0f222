package main

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
)

// The text of values is tested in package value; the CLI adds only the
// alignment of numeric columns.
func TestIsNumericType(t *testing.T) {
	cases := []struct {
		dt   arrow.DataType
		want bool
	}{
		{arrow.PrimitiveTypes.Int32, true},
		{arrow.PrimitiveTypes.Float64, true},
		{&arrow.Decimal128Type{Precision: 9, Scale: 2}, true},
		{arrow.BinaryTypes.String, false},
		{arrow.FixedWidthTypes.Date32, false},
		{&arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int8, ValueType: arrow.BinaryTypes.String}, false},
		{&arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int8, ValueType: arrow.PrimitiveTypes.Int64}, true},
	}
	for _, c := range cases {
		if got := isNumericType(c.dt); got != c.want {
			t.Errorf("isNumericType(%s) = %v, want %v", c.dt, got, c.want)
		}
	}
}
