package expr

import (
	"bytes"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

func nestedArrayFromJSON(t *testing.T, typ arrow.DataType, text string) arrow.Array {
	t.Helper()
	arr, _, err := array.FromJSON(memory.DefaultAllocator, typ, strings.NewReader(text))
	if err != nil {
		t.Fatalf("%s: %v", typ, err)
	}
	return arr
}

// TestNestedKeysOrder: the keys of values written in ascending SQL order
// (Spark's: NULL elements and fields first, a shorter array before a longer
// one it starts, floats as numbers with -0 = 0 and NaN last) ascend, and
// values on one line (an inner slice) have equal keys.
func TestNestedKeysOrder(t *testing.T) {
	for _, c := range []struct {
		typ    arrow.DataType
		values [][]string // ascending; the values of one inner slice are equal
	}{
		{arrow.ListOf(arrow.PrimitiveTypes.Int32), [][]string{
			{`[]`}, {`[null]`}, {`[null, 1]`}, {`[-5]`}, {`[-1, 2]`}, {`[0]`}, {`[0, 0]`},
			{`[1]`}, {`[1, null]`}, {`[1, 1]`}, {`[2147483647]`},
		}},
		{arrow.ListOf(arrow.PrimitiveTypes.Float64), [][]string{
			{`[-1e308]`}, {`[-1.5]`}, {`[-0.0]`, `[0.0]`}, {`[1e-300]`}, {`[2.5]`}, {`[1e308]`},
		}},
		{arrow.ListOf(arrow.BinaryTypes.String), [][]string{
			{`[""]`}, {`["\u0000"]`}, {`["\u0000\u0000"]`}, {`["\u0000a"]`}, {`["a"]`},
			{`["a", ""]`}, {`["a\u0000"]`}, {`["ab"]`}, {`["b"]`}, {`["é"]`},
		}},
		{arrow.StructOf(arrow.Field{Name: "a", Type: arrow.PrimitiveTypes.Int64, Nullable: true}, arrow.Field{Name: "b", Type: arrow.FixedWidthTypes.Boolean, Nullable: true}), [][]string{
			{`{"a": null, "b": null}`}, {`{"a": null, "b": true}`}, {`{"a": -9, "b": true}`},
			{`{"a": 3, "b": null}`}, {`{"a": 3, "b": false}`}, {`{"a": 3, "b": true}`},
		}},
		{arrow.ListOf(&arrow.Decimal128Type{Precision: 10, Scale: 2}), [][]string{
			{`["-12345678.90"]`}, {`["-0.01"]`}, {`["0.00"]`}, {`["0.01"]`}, {`["99999999.99"]`},
		}},
		{arrow.MapOf(arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int32), [][]string{
			{`[]`},
			{`[{"key": "a", "value": null}]`},
			{`[{"key": "a", "value": 1}, {"key": "b", "value": 2}]`, `[{"key": "b", "value": 2}, {"key": "a", "value": 1}]`},
			{`[{"key": "a", "value": 2}]`},
			{`[{"key": "b", "value": 0}]`},
		}},
	} {
		var prev []byte
		for i, group := range c.values {
			arr := nestedArrayFromJSON(t, c.typ, "["+strings.Join(group, ", ")+"]")
			keys := NestedKeys(nil, arr)
			for j := range keys {
				if !bytes.Equal(keys[j], keys[0]) {
					t.Errorf("%s: %s and %s have different keys", c.typ, group[0], group[j])
				}
			}
			if i > 0 && bytes.Compare(prev, keys[0]) >= 0 {
				t.Errorf("%s: key of %s is not above that of %s", c.typ, group[0], c.values[i-1][0])
			}
			prev = keys[0]
			arr.Release()
		}
	}
}

// TestNestedKeysRoundTrip: BuildNested gives back the values whose keys it
// is given, NULLs at every level included.
func TestNestedKeysRoundTrip(t *testing.T) {
	for _, c := range []struct {
		typ  arrow.DataType
		json string
	}{
		{arrow.ListOf(arrow.PrimitiveTypes.Int8), `[[1, -128, 127, null], null, []]`},
		{arrow.ListOf(arrow.PrimitiveTypes.Int16), `[[-32768, 0, 32767]]`},
		{arrow.ListOf(arrow.PrimitiveTypes.Float32), `[[1.5, -0.25, null], [3e38]]`},
		{arrow.ListOf(arrow.FixedWidthTypes.Date32), `[["2026-01-15", null]]`},
		{arrow.ListOf(&arrow.Decimal128Type{Precision: 38, Scale: 4}), `[["-1234567890123456789.0001", "0.0000", null]]`},
		{arrow.ListOf(&arrow.FixedSizeBinaryType{ByteWidth: 3}), `[["AAEC", null]]`},
		{arrow.ListOf(arrow.BinaryTypes.Binary), `[["AAD/", "", null]]`},
		{arrow.ListOf(arrow.ListOf(arrow.BinaryTypes.String)), `[[["a\u0000b", null], null, []], null, [[]]]`},
		{arrow.StructOf(
			arrow.Field{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
			arrow.Field{Name: "l", Type: arrow.ListOf(arrow.PrimitiveTypes.Float64), Nullable: true},
			arrow.Field{Name: "n", Type: arrow.StructOf(arrow.Field{Name: "x", Type: arrow.FixedWidthTypes.Boolean, Nullable: true}), Nullable: true},
		), `[{"s": "x", "l": [1, null], "n": {"x": false}}, null, {"s": null, "l": null, "n": null}, {"s": "", "l": [], "n": {"x": null}}]`},
		{arrow.MapOf(arrow.BinaryTypes.String, arrow.ListOf(arrow.PrimitiveTypes.Int64)),
			`[[{"key": "a", "value": [1, null]}, {"key": "b", "value": null}], null, []]`},
	} {
		arr := nestedArrayFromJSON(t, c.typ, c.json)
		valid := make([]bool, arr.Len())
		for i := range valid {
			valid[i] = arr.IsValid(i)
		}
		back := BuildNested(memory.DefaultAllocator, c.typ, NestedKeys(nil, arr), valid)
		if !array.Equal(arr, back) {
			t.Errorf("%s: %s came back as %s", c.typ, arr, back)
		}
		// A slice reads its own values, not the start of the array.
		if arr.Len() > 1 {
			slice := array.NewSlice(arr, 1, int64(arr.Len()))
			again := BuildNested(memory.DefaultAllocator, c.typ, NestedKeys(nil, slice), valid[1:])
			if !array.Equal(slice, again) {
				t.Errorf("%s: slice %s came back as %s", c.typ, slice, again)
			}
			slice.Release()
			again.Release()
		}
		arr.Release()
		back.Release()
	}
}

// TestNestedComparable: a type inside a nested value that cannot be
// compared makes the whole value incomparable.
func TestNestedComparable(t *testing.T) {
	if err := NestedComparable(arrow.ListOf(arrow.FixedWidthTypes.MonthDayNanoInterval)); err == nil {
		t.Fatal("an array of intervals is comparable")
	}
	if err := NestedComparable(arrow.MapOf(arrow.BinaryTypes.String, arrow.StructOf(arrow.Field{Name: "a", Type: arrow.PrimitiveTypes.Int32}))); err != nil {
		t.Fatal(err)
	}
}
