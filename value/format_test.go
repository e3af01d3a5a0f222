package value

import (
	"math"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/extensions"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// arrayOf builds an array of dt from JSON, released when the test ends.
func arrayOf(t *testing.T, dt arrow.DataType, js string) arrow.Array {
	t.Helper()
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	arr, _, err := array.FromJSON(mem, dt, strings.NewReader(js))
	if err != nil {
		t.Fatalf("%s from %s: %v", dt, js, err)
	}
	t.Cleanup(func() {
		arr.Release()
		mem.AssertSize(t, 0)
	})
	return arr
}

var (
	micros      = &arrow.TimestampType{Unit: arrow.Microsecond}
	utcMicros   = &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"}
	timeMicros  = arrow.FixedWidthTypes.Time64us
	decimal9_3  = &arrow.Decimal128Type{Precision: 9, Scale: 3}
	decimal38_2 = &arrow.Decimal128Type{Precision: 38, Scale: 2}
)

func TestFormat(t *testing.T) {
	cases := []struct {
		name string
		dt   arrow.DataType
		js   string
		want string
	}{
		{"null", arrow.BinaryTypes.String, `[null]`, "NULL"},
		{"null type", arrow.Null, `[null]`, "NULL"},
		{"null double", arrow.PrimitiveTypes.Float64, `[null]`, "NULL"},
		{"true", arrow.FixedWidthTypes.Boolean, `[true]`, "true"},
		{"false", arrow.FixedWidthTypes.Boolean, `[false]`, "false"},
		{"int8", arrow.PrimitiveTypes.Int8, `[-128]`, "-128"},
		{"int32", arrow.PrimitiveTypes.Int32, `[2147483647]`, "2147483647"},
		{"int64", arrow.PrimitiveTypes.Int64, `[-9223372036854775808]`, "-9223372036854775808"},
		{"uint64", arrow.PrimitiveTypes.Uint64, `[18446744073709551615]`, "18446744073709551615"},
		{"double whole", arrow.PrimitiveTypes.Float64, `[1]`, "1.0"},
		{"double fraction", arrow.PrimitiveTypes.Float64, `[0.1]`, "0.1"},
		{"double negative", arrow.PrimitiveTypes.Float64, `[-2.5]`, "-2.5"},
		{"double large", arrow.PrimitiveTypes.Float64, `[1e20]`, "1e+20"},
		{"double 1e15", arrow.PrimitiveTypes.Float64, `[1e15]`, "1000000000000000.0"},
		{"double 1e16", arrow.PrimitiveTypes.Float64, `[1e16]`, "1e+16"},
		{"double small", arrow.PrimitiveTypes.Float64, `[0.0001]`, "0.0001"},
		{"double smaller", arrow.PrimitiveTypes.Float64, `[0.00001]`, "1e-05"},
		{"double third", arrow.PrimitiveTypes.Float64, `[0.3333333333333333]`, "0.3333333333333333"},
		{"float32 keeps its own digits", arrow.PrimitiveTypes.Float32, `[0.1]`, "0.1"},
		{"float32 whole", arrow.PrimitiveTypes.Float32, `[3]`, "3.0"},
		{"decimal keeps its scale", decimal9_3, `["1.5"]`, "1.500"},
		{"negative decimal", decimal9_3, `["-1.5"]`, "-1.500"},
		{"negative decimal below one", decimal9_3, `["-0.005"]`, "-0.005"},
		{"decimal scale 0", &arrow.Decimal128Type{Precision: 5, Scale: 0}, `["-42"]`, "-42"},
		{"decimal 38 digits", decimal38_2, `["-123456789012345678901234567890123456.78"]`, "-123456789012345678901234567890123456.78"},
		{"decimal256", &arrow.Decimal256Type{Precision: 40, Scale: 1}, `["-0.5"]`, "-0.5"},
		{"date", arrow.FixedWidthTypes.Date32, `[19753]`, "2024-01-31"},
		{"date before 1970", arrow.FixedWidthTypes.Date32, `[-1]`, "1969-12-31"},
		{"date 1900", arrow.FixedWidthTypes.Date32, `[-25509]`, "1900-02-28"},
		{"date64", arrow.FixedWidthTypes.Date64, `[86400000]`, "1970-01-02"},
		{"time", timeMicros, `[3723000001]`, "01:02:03.000001"},
		{"time fraction trimmed", timeMicros, `[49500250000]`, "13:45:00.25"},
		{"time32 seconds", arrow.FixedWidthTypes.Time32s, `[59]`, "00:00:59"},
		{"timestamp", micros, `[1706708700250000]`, "2024-01-31 13:45:00.25"},
		{"timestamp before 1970", micros, `[-1]`, "1969-12-31 23:59:59.999999"},
		{"timestamp seconds", &arrow.TimestampType{Unit: arrow.Second}, `[0]`, "1970-01-01 00:00:00"},
		{"timestamp millis", &arrow.TimestampType{Unit: arrow.Millisecond}, `[-1]`, "1969-12-31 23:59:59.999"},
		{"timestamp nanos keep nanoseconds", &arrow.TimestampType{Unit: arrow.Nanosecond}, `[1]`, "1970-01-01 00:00:00.000000001"},
		{"timestamptz in UTC", utcMicros, `[0]`, "1970-01-01 00:00:00+00"},
		{"timestamptz in a zone", &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "America/New_York"}, `[0]`, "1969-12-31 19:00:00-05"},
		{"timestamptz in summer time", &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "Europe/Berlin"}, `[1719835200000000]`, "2024-07-01 14:00:00+02"},
		{"timestamptz fixed offset", &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "+05:30"}, `[0]`, "1970-01-01 05:30:00+05:30"},
		{"interval", arrow.FixedWidthTypes.MonthDayNanoInterval, `[{"months": 14, "days": 3, "nanoseconds": 14706500000000}]`, "1 year 2 months 3 days 04:05:06.5"},
		{"negative interval", arrow.FixedWidthTypes.MonthDayNanoInterval, `[{"months": -1, "days": -1, "nanoseconds": -1000}]`, "-1 month -1 day -00:00:00.000001"},
		{"empty interval", arrow.FixedWidthTypes.MonthDayNanoInterval, `[{"months": 0, "days": 0, "nanoseconds": 0}]`, "00:00:00"},
		{"string", arrow.BinaryTypes.String, `["it's"]`, "it's"},
		{"empty string", arrow.BinaryTypes.String, `[""]`, ""},
		{"large string", arrow.BinaryTypes.LargeString, `["x"]`, "x"},
		{"binary", arrow.BinaryTypes.Binary, `["YWIAXA=="]`, `ab\x00\x5C`},
		{"fixed binary", &arrow.FixedSizeBinaryType{ByteWidth: 2}, `["AQI="]`, `\x01\x02`},
		{"uuid", extensions.NewUUIDType(), `["f81d4fae-7dec-11d0-a765-00a0c91e6bf6"]`, "f81d4fae-7dec-11d0-a765-00a0c91e6bf6"},
		{"map", arrow.MapOf(arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int32),
			`[[{"key": "a", "value": 1}, {"key": "b", "value": null}]]`, "{'a'=1, 'b'=NULL}"},
		{"nested list", arrow.ListOf(arrow.ListOf(arrow.BinaryTypes.String)), `[[["a, b"], ["c"]]]`, "[['a, b'], ['c']]"},
		{"list of doubles", arrow.ListOf(arrow.PrimitiveTypes.Float64), `[[1, null, 0.5]]`, "[1.0, NULL, 0.5]"},
		{"struct", arrow.StructOf(arrow.Field{Name: "x", Type: arrow.PrimitiveTypes.Int32, Nullable: true}, arrow.Field{Name: "y", Type: arrow.BinaryTypes.String, Nullable: true}),
			`[{"x": 1, "y": "o'k"}]`, "{'x': 1, 'y': 'o''k'}"},
	}
	for _, c := range cases {
		if got := Format(arrayOf(t, c.dt, c.js), 0); got != c.want {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
}

// TestFormatFloatSpecials covers the values JSON cannot build.
func TestFormatFloatSpecials(t *testing.T) {
	cases := []struct {
		v    float64
		want string
	}{
		{math.NaN(), "nan"},
		{math.Inf(1), "inf"},
		{math.Inf(-1), "-inf"},
		{0, "0.0"},
		{math.Copysign(0, -1), "-0.0"},
		{math.MaxFloat64, "1.7976931348623157e+308"},
		{math.SmallestNonzeroFloat64, "5e-324"},
	}
	for _, c := range cases {
		b := array.NewFloat64Builder(memory.DefaultAllocator)
		b.Append(c.v)
		arr := b.NewArray()
		if got := Format(arr, 0); got != c.want {
			t.Errorf("Format(%v) = %q, want %q", c.v, got, c.want)
		}
		if got := FormatScalar(c.v, arrow.PrimitiveTypes.Float64); got != c.want {
			t.Errorf("FormatScalar(%v) = %q, want %q", c.v, got, c.want)
		}
		arr.Release()
		b.Release()
	}
	if got := FormatScalar(float32(math.Inf(-1)), arrow.PrimitiveTypes.Float32); got != "-inf" {
		t.Errorf("FormatScalar(float32 -inf) = %q", got)
	}
}

func TestFormatDictionaryUsesValues(t *testing.T) {
	dt := &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int8, ValueType: arrow.PrimitiveTypes.Float64}
	b := array.NewDictionaryBuilder(memory.DefaultAllocator, dt).(*array.Float64DictionaryBuilder)
	defer b.Release()
	if err := b.Append(2); err != nil {
		t.Fatal(err)
	}
	b.AppendNull()
	arr := b.NewArray()
	defer arr.Release()
	if got := Format(arr, 0); got != "2.0" {
		t.Errorf("got %q, want 2.0", got)
	}
	if got := Format(arr, 1); got != "NULL" {
		t.Errorf("got %q, want NULL", got)
	}
}

// TestFormatScalarMatchesFormat checks that a constant prints as the same
// value in a column does: plan-time folding and execution agree.
func TestFormatScalarMatchesFormat(t *testing.T) {
	uuid := extensions.NewUUIDType()
	berlin := &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "Europe/Berlin"}
	cases := []struct {
		dt arrow.DataType
		js string
		v  any
	}{
		{arrow.FixedWidthTypes.Boolean, `[true]`, true},
		{arrow.PrimitiveTypes.Int8, `[-7]`, int8(-7)},
		{arrow.PrimitiveTypes.Int16, `[300]`, int16(300)},
		{arrow.PrimitiveTypes.Int32, `[1]`, int32(1)},
		{arrow.PrimitiveTypes.Int64, `[-1]`, int64(-1)},
		{arrow.PrimitiveTypes.Float32, `[1]`, float32(1)},
		{arrow.PrimitiveTypes.Float64, `[1]`, float64(1)},
		{arrow.PrimitiveTypes.Float64, `[-0.0]`, math.Copysign(0, -1)},
		{arrow.PrimitiveTypes.Float64, `[1e300]`, 1e300},
		{decimal9_3, `["-12.345"]`, decimal128.FromI64(-12345)},
		{arrow.FixedWidthTypes.Date32, `[-719162]`, int32(-719162)},
		{timeMicros, `[1]`, int64(1)},
		{micros, `[-62135596800000000]`, int64(-62135596800000000)},
		{utcMicros, `[1]`, int64(1)},
		{berlin, `[0]`, int64(0)},
		{arrow.FixedWidthTypes.MonthDayNanoInterval, `[{"months": 25, "days": 0, "nanoseconds": 0}]`, arrow.MonthDayNanoInterval{Months: 25}},
		{arrow.BinaryTypes.String, `["a b"]`, "a b"},
		{arrow.BinaryTypes.Binary, `["/w=="]`, []byte{0xff}},
		{uuid, `["00000000-0000-0000-0000-000000000001"]`, []byte{15: 1}},
	}
	for _, c := range cases {
		arr := arrayOf(t, c.dt, c.js)
		if col, lit := Format(arr, 0), FormatScalar(c.v, c.dt); col != lit {
			t.Errorf("%s: column prints %q, constant prints %q", c.dt, col, lit)
		}
	}
	if got := FormatScalar(nil, arrow.PrimitiveTypes.Int32); got != "NULL" {
		t.Errorf("FormatScalar(nil) = %q, want NULL", got)
	}
}
