package value

import (
	"fmt"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
)

// NullText is the text of SQL NULL in results.
const NullText = "NULL"

// uuidExtension is the Arrow extension name of the UUID type.
const uuidExtension = "arrow.uuid"

// IsNull reports whether arr[i] is NULL. Arrays of Arrow's null type (the
// type of a bare NULL literal) have no validity bitmap, so IsNull alone
// reports their values as valid.
func IsNull(arr arrow.Array, i int) bool {
	return arr.IsNull(i) || arr.DataType().ID() == arrow.NULL
}

// Format returns the text of row i of arr; NULL is "NULL".
func Format(arr arrow.Array, i int) string {
	if IsNull(arr, i) {
		return NullText
	}
	return string(FormatterOf(arr)(nil, i))
}

// Formatter appends the text of row i, which must not be NULL, to dst.
type Formatter func(dst []byte, i int) []byte

// FormatterOf returns the formatter of arr's type. Callers that format
// many rows (CAST to STRING, the CLI renderers) get it once per batch.
func FormatterOf(arr arrow.Array) Formatter {
	switch a := arr.(type) {
	case *array.Boolean:
		return func(dst []byte, i int) []byte { return strconv.AppendBool(dst, a.Value(i)) }
	case *array.Int8:
		return intFormatter(a.Int8Values())
	case *array.Int16:
		return intFormatter(a.Int16Values())
	case *array.Int32:
		return intFormatter(a.Int32Values())
	case *array.Int64:
		return intFormatter(a.Int64Values())
	case *array.Uint8:
		return uintFormatter(a.Uint8Values())
	case *array.Uint16:
		return uintFormatter(a.Uint16Values())
	case *array.Uint32:
		return uintFormatter(a.Uint32Values())
	case *array.Uint64:
		return uintFormatter(a.Uint64Values())
	case *array.Float16:
		return func(dst []byte, i int) []byte { return AppendFloat(dst, float64(a.Value(i).Float32()), 32) }
	case *array.Float32:
		return func(dst []byte, i int) []byte { return AppendFloat(dst, float64(a.Value(i)), 32) }
	case *array.Float64:
		return func(dst []byte, i int) []byte { return AppendFloat(dst, a.Value(i), 64) }
	case *array.Decimal32:
		return decimalFormatter(a, a.Value)
	case *array.Decimal64:
		return decimalFormatter(a, a.Value)
	case *array.Decimal128:
		return decimalFormatter(a, a.Value)
	case *array.Decimal256:
		return decimalFormatter(a, a.Value)
	case *array.String:
		return func(dst []byte, i int) []byte { return append(dst, a.Value(i)...) }
	case *array.LargeString:
		return func(dst []byte, i int) []byte { return append(dst, a.Value(i)...) }
	case *array.StringView:
		return func(dst []byte, i int) []byte { return append(dst, a.Value(i)...) }
	case *array.Binary:
		return func(dst []byte, i int) []byte { return AppendBlob(dst, a.Value(i)) }
	case *array.LargeBinary:
		return func(dst []byte, i int) []byte { return AppendBlob(dst, a.Value(i)) }
	case *array.BinaryView:
		return func(dst []byte, i int) []byte { return AppendBlob(dst, a.Value(i)) }
	case *array.FixedSizeBinary:
		return func(dst []byte, i int) []byte { return AppendBlob(dst, a.Value(i)) }
	case *array.Date32:
		return func(dst []byte, i int) []byte { return AppendDate(dst, int32(a.Value(i))) }
	case *array.Date64:
		return func(dst []byte, i int) []byte {
			days, _ := floorDivMod(int64(a.Value(i)), 86400e3)
			return appendDays(dst, days)
		}
	case *array.Time32:
		unit := a.DataType().(*arrow.Time32Type).Unit
		return func(dst []byte, i int) []byte { return appendTimeOfDay(dst, int64(a.Value(i)), unit) }
	case *array.Time64:
		unit := a.DataType().(*arrow.Time64Type).Unit
		return func(dst []byte, i int) []byte { return appendTimeOfDay(dst, int64(a.Value(i)), unit) }
	case *array.Timestamp:
		format := timestampFormatter(a.DataType().(*arrow.TimestampType))
		return func(dst []byte, i int) []byte { return format(dst, int64(a.Value(i))) }
	case *array.MonthDayNanoInterval:
		return func(dst []byte, i int) []byte { return AppendInterval(dst, a.Value(i)) }
	case *array.MonthInterval:
		return func(dst []byte, i int) []byte {
			return AppendInterval(dst, arrow.MonthDayNanoInterval{Months: int32(a.Value(i))})
		}
	case *array.DayTimeInterval:
		return func(dst []byte, i int) []byte {
			v := a.Value(i)
			return AppendInterval(dst, arrow.MonthDayNanoInterval{Days: v.Days, Nanoseconds: int64(v.Milliseconds) * 1e6})
		}
	case *array.Dictionary:
		values := FormatterOf(a.Dictionary())
		return func(dst []byte, i int) []byte { return values(dst, a.GetValueIndex(i)) }
	case array.ExtensionArray:
		if fsb, ok := a.Storage().(*array.FixedSizeBinary); ok && a.ExtensionType().ExtensionName() == uuidExtension {
			return func(dst []byte, i int) []byte { return AppendUUID(dst, fsb.Value(i)) }
		}
		return FormatterOf(a.Storage())
	case *array.Map:
		return mapFormatter(a)
	case array.ListLike:
		return listFormatter(a)
	case *array.Struct:
		return structFormatter(a)
	}
	// Types lakesql does not produce (durations, unions, …) fall back to
	// Arrow's own rendering rather than failing.
	return func(dst []byte, i int) []byte { return append(dst, arr.ValueStr(i)...) }
}

func intFormatter[T ~int8 | ~int16 | ~int32 | ~int64](vals []T) Formatter {
	return func(dst []byte, i int) []byte { return strconv.AppendInt(dst, int64(vals[i]), 10) }
}

func uintFormatter[T ~uint8 | ~uint16 | ~uint32 | ~uint64](vals []T) Formatter {
	return func(dst []byte, i int) []byte { return strconv.AppendUint(dst, uint64(vals[i]), 10) }
}

// decimalFormatter prints a decimal with exactly its type's scale digits.
func decimalFormatter[N interface{ ToString(int32) string }](arr arrow.Array, value func(int) N) Formatter {
	scale := arr.DataType().(arrow.DecimalType).GetScale()
	return func(dst []byte, i int) []byte { return append(dst, value(i).ToString(scale)...) }
}

// appendTimeOfDay appends a TIME of the given unit since midnight.
func appendTimeOfDay(dst []byte, v int64, unit arrow.TimeUnit) []byte {
	secs, nanos := splitSeconds(v, unit)
	return appendClock(dst, secs, nanos)
}

// splitSeconds splits a count of unit into whole seconds (rounded down)
// and the nanoseconds left over.
func splitSeconds(v int64, unit arrow.TimeUnit) (secs, nanos int64) {
	perSecond := int64(1e9) / int64(unit.Multiplier())
	secs, rest := floorDivMod(v, perSecond)
	return secs, rest * int64(unit.Multiplier())
}

// timestampFormatter prints TIMESTAMP values of t's unit; a TIMESTAMPTZ (a
// type with a zone) prints its wall clock in that zone and the offset. A
// zone that does not load prints as UTC.
func timestampFormatter(t *arrow.TimestampType) func(dst []byte, v int64) []byte {
	plain := func(dst []byte, v int64) []byte {
		secs, nanos := splitSeconds(v, t.Unit)
		return appendDateTime(dst, secs, nanos)
	}
	if t.TimeZone == "" {
		return plain
	}
	loc, err := LoadZone(t.TimeZone)
	if err != nil || IsUTC(loc) {
		return func(dst []byte, v int64) []byte { return append(plain(dst, v), "+00"...) }
	}
	return func(dst []byte, v int64) []byte { return appendTimestampIn(dst, v, t.Unit, loc) }
}

// FormatScalar returns the text of a constant of type t, in the Go form the
// planner keeps constants in (nil, bool, int8 … int64, float32, float64,
// string, []byte, decimal128.Num, arrow.MonthDayNanoInterval; int32 days
// for DATE; int64 microseconds for TIMESTAMP and TIME). It is the text
// Format gives the same value in an array, so a CAST folded at plan time
// reads like the same CAST run on a column.
func FormatScalar(v any, t arrow.DataType) string {
	if v == nil {
		return NullText
	}
	return string(appendScalar(nil, v, t))
}

// appendScalar appends FormatScalar(v, t) to dst; v must not be nil.
func appendScalar(dst []byte, v any, t arrow.DataType) []byte {
	switch t := t.(type) {
	case *arrow.Float32Type:
		return AppendFloat(dst, float64(v.(float32)), 32)
	case *arrow.Float64Type:
		return AppendFloat(dst, v.(float64), 64)
	case *arrow.Decimal128Type:
		return append(dst, v.(decimal128.Num).ToString(t.Scale)...)
	case *arrow.Date32Type:
		return AppendDate(dst, v.(int32))
	case *arrow.Time64Type:
		return appendTimeOfDay(dst, v.(int64), t.Unit)
	case *arrow.TimestampType:
		return timestampFormatter(t)(dst, v.(int64))
	case *arrow.MonthDayNanoIntervalType:
		return AppendInterval(dst, v.(arrow.MonthDayNanoInterval))
	case *arrow.BinaryType:
		return AppendBlob(dst, v.([]byte))
	case arrow.ExtensionType:
		if t.ExtensionName() == uuidExtension {
			return AppendUUID(dst, v.([]byte))
		}
	}
	switch x := v.(type) {
	case bool:
		return strconv.AppendBool(dst, x)
	case int8:
		return strconv.AppendInt(dst, int64(x), 10)
	case int16:
		return strconv.AppendInt(dst, int64(x), 10)
	case int32:
		return strconv.AppendInt(dst, int64(x), 10)
	case int64:
		return strconv.AppendInt(dst, x, 10)
	case string:
		return append(dst, x...)
	}
	return fmt.Append(dst, v)
}
