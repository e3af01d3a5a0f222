package main

import (
	"math"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

func TestFormatFloat(t *testing.T) {
	cases := []struct {
		v    float64
		want string
	}{
		{0, "0"},
		{math.Copysign(0, -1), "-0"},
		{0.1, "0.1"},
		{-2.5, "-2.5"},
		{1e-4, "0.0001"},
		{9.9e-5, "9.9e-05"},
		{123456789012345, "123456789012345"},
		{1e15, "1e+15"},
		{-1.5e300, "-1.5e+300"},
		{1.0 / 3, "0.3333333333333333"},
		{math.NaN(), "NaN"},
		{math.Inf(1), "Infinity"},
		{math.Inf(-1), "-Infinity"},
	}
	for _, c := range cases {
		if got := formatFloat(c.v, 64); got != c.want {
			t.Errorf("formatFloat(%v) = %q, want %q", c.v, got, c.want)
		}
	}
	// float32 values print in their own shortest form, not float64 noise.
	if got := formatFloat(float64(float32(0.1)), 32); got != "0.1" {
		t.Errorf("formatFloat(float32 0.1) = %q, want 0.1", got)
	}
}

// formatOne builds a one-element array of dt from JSON and formats it.
func formatOne(t *testing.T, dt arrow.DataType, js string) string {
	t.Helper()
	arr := fromJSON(t, checkedAlloc(t), dt, js)
	defer arr.Release()
	return formatValue(arr, 0)
}

func TestFormatValue(t *testing.T) {
	cases := []struct {
		name string
		dt   arrow.DataType
		js   string
		want string
	}{
		{"decimal keeps its scale", &arrow.Decimal128Type{Precision: 9, Scale: 3}, `["1.5"]`, "1.500"},
		{"decimal scale 0", &arrow.Decimal128Type{Precision: 5, Scale: 0}, `["-42"]`, "-42"},
		{"decimal 38 digits", &arrow.Decimal128Type{Precision: 38, Scale: 2},
			`["123456789012345678901234567890123456.78"]`, "123456789012345678901234567890123456.78"},
		{"decimal256", &arrow.Decimal256Type{Precision: 40, Scale: 1}, `["-0.5"]`, "-0.5"},
		{"timestamp seconds", &arrow.TimestampType{Unit: arrow.Second}, `[0]`, "1970-01-01 00:00:00"},
		{"timestamp millis", &arrow.TimestampType{Unit: arrow.Millisecond}, `[-1]`, "1969-12-31 23:59:59.999000"},
		{"timestamp nanos keep nanoseconds", &arrow.TimestampType{Unit: arrow.Nanosecond}, `[1]`, "1970-01-01 00:00:00.000000001"},
		{"timestamptz prints in its zone", &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "America/New_York"}, `[0]`, "1969-12-31 19:00:00-05:00"},
		{"timestamptz fixed offset", &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "+05:30"}, `[0]`, "1970-01-01 05:30:00+05:30"},
		{"date64", arrow.FixedWidthTypes.Date64, `[86400000]`, "1970-01-02"},
		{"time", arrow.FixedWidthTypes.Time64us, `[3723000001]`, "01:02:03.000001"},
		{"int8", arrow.PrimitiveTypes.Int8, `[-128]`, "-128"},
		{"uint64", arrow.PrimitiveTypes.Uint64, `[18446744073709551615]`, "18446744073709551615"},
		{"large string", arrow.BinaryTypes.LargeString, `["x"]`, "x"},
		{"fixed binary", &arrow.FixedSizeBinaryType{ByteWidth: 2}, `["AQI="]`, `\x0102`},
		{"map", arrow.MapOf(arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int32),
			`[[{"key": "a", "value": 1}, {"key": "b", "value": null}]]`, "{'a'=1, 'b'=NULL}"},
		{"nested list", arrow.ListOf(arrow.ListOf(arrow.BinaryTypes.String)), `[[["a, b"], ["c"]]]`, "[['a, b'], ['c']]"},
		{"null", arrow.BinaryTypes.String, `[null]`, "NULL"},
		{"null type", arrow.Null, `[null]`, "NULL"},
	}
	for _, c := range cases {
		if got := formatOne(t, c.dt, c.js); got != c.want {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
}

func TestFormatDictionaryUsesValues(t *testing.T) {
	mem := checkedAlloc(t)
	dt := &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int8, ValueType: arrow.BinaryTypes.String}
	b := array.NewDictionaryBuilder(mem, dt).(*array.BinaryDictionaryBuilder)
	defer b.Release()
	if err := b.AppendString("blue"); err != nil {
		t.Fatal(err)
	}
	arr := b.NewArray()
	defer arr.Release()
	if got := formatValue(arr, 0); got != "blue" {
		t.Errorf("got %q, want blue", got)
	}
	if isNumericType(dt) {
		t.Error("a string dictionary is not numeric")
	}
}
