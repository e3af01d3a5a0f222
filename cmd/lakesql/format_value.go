package main

import (
	"encoding/hex"
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/lakesql/lakesql/sql"
)

// This file is the CLI's text contract for values: csv, table and markdown
// print exactly these strings, and json reuses them for everything that is
// not a JSON number, boolean, array or object. Scripts parse this output, so
// the forms are deliberately fixed rather than delegated to Arrow's ValueStr.

const (
	nullText    = "NULL"
	dateLayout  = "2006-01-02"
	clockLayout = "2006-01-02 15:04:05"
	timeLayout  = "15:04:05"
	uuidExtName = "arrow.uuid"
)

// isNull reports whether arr[i] is NULL. Arrays of Arrow's null type (the
// type of a bare NULL literal) have no validity bitmap, so IsNull alone
// reports their values as valid.
func isNull(arr arrow.Array, i int) bool {
	return arr.IsNull(i) || arr.DataType().ID() == arrow.NULL
}

// formatValue returns the text form of arr[i]; a null prints as NULL.
func formatValue(arr arrow.Array, i int) string {
	if isNull(arr, i) {
		return nullText
	}
	switch a := arr.(type) {
	case *array.Boolean:
		return strconv.FormatBool(a.Value(i))
	case *array.Int8:
		return strconv.FormatInt(int64(a.Value(i)), 10)
	case *array.Int16:
		return strconv.FormatInt(int64(a.Value(i)), 10)
	case *array.Int32:
		return strconv.FormatInt(int64(a.Value(i)), 10)
	case *array.Int64:
		return strconv.FormatInt(a.Value(i), 10)
	case *array.Uint8:
		return strconv.FormatUint(uint64(a.Value(i)), 10)
	case *array.Uint16:
		return strconv.FormatUint(uint64(a.Value(i)), 10)
	case *array.Uint32:
		return strconv.FormatUint(uint64(a.Value(i)), 10)
	case *array.Uint64:
		return strconv.FormatUint(a.Value(i), 10)
	case *array.Float16:
		return formatFloat(float64(a.Value(i).Float32()), 32)
	case *array.Float32:
		return formatFloat(float64(a.Value(i)), 32)
	case *array.Float64:
		return formatFloat(a.Value(i), 64)
	case *array.Decimal32, *array.Decimal64, *array.Decimal128, *array.Decimal256:
		return formatDecimal(arr, i)
	case *array.String:
		return a.Value(i)
	case *array.LargeString:
		return a.Value(i)
	case *array.StringView:
		return a.Value(i)
	case *array.Binary:
		return formatBinary(a.Value(i))
	case *array.LargeBinary:
		return formatBinary(a.Value(i))
	case *array.BinaryView:
		return formatBinary(a.Value(i))
	case *array.FixedSizeBinary:
		return formatBinary(a.Value(i))
	case *array.Date32:
		return time.Unix(int64(a.Value(i))*86400, 0).UTC().Format(dateLayout)
	case *array.Date64:
		return time.UnixMilli(int64(a.Value(i))).UTC().Format(dateLayout)
	case *array.Timestamp:
		return formatTimestamp(a, i)
	case *array.Time32:
		unit := a.DataType().(*arrow.Time32Type).Unit
		return formatClock(a.Value(i).ToTime(unit).UTC(), timeLayout)
	case *array.Time64:
		unit := a.DataType().(*arrow.Time64Type).Unit
		return formatClock(a.Value(i).ToTime(unit).UTC(), timeLayout)
	case *array.Dictionary:
		return formatValue(a.Dictionary(), a.GetValueIndex(i))
	case array.ExtensionArray:
		return formatExtension(a, i)
	case *array.Map:
		return formatMap(a, i)
	case array.ListLike:
		return formatList(a, i)
	case *array.Struct:
		return formatStruct(a, i)
	default:
		// Types the engine does not produce today (intervals, unions, …)
		// fall back to Arrow's own rendering rather than failing.
		return arr.ValueStr(i)
	}
}

// formatFloat prints the shortest text that reads back as the same value.
// Plain notation is used where it stays short (1e-4 ≤ |v| < 1e15), exponent
// notation elsewhere, and NaN/Infinity are spelled the way SQL engines do.
func formatFloat(v float64, bits int) string {
	switch {
	case math.IsNaN(v):
		return "NaN"
	case math.IsInf(v, 1):
		return "Infinity"
	case math.IsInf(v, -1):
		return "-Infinity"
	}
	if abs := math.Abs(v); v == 0 || (abs >= 1e-4 && abs < 1e15) {
		return strconv.FormatFloat(v, 'f', -1, bits)
	}
	return strconv.FormatFloat(v, 'g', -1, bits)
}

// formatDecimal prints a decimal with exactly its type's scale digits.
func formatDecimal(arr arrow.Array, i int) string {
	scale := arr.DataType().(arrow.DecimalType).GetScale()
	switch a := arr.(type) {
	case *array.Decimal32:
		return a.Value(i).ToString(scale)
	case *array.Decimal64:
		return a.Value(i).ToString(scale)
	case *array.Decimal128:
		return a.Value(i).ToString(scale)
	case *array.Decimal256:
		return a.Value(i).ToString(scale)
	}
	panic(fmt.Sprintf("formatDecimal: unexpected array %T", arr))
}

// formatBinary prints bytes as \x followed by lower-case hex, as PostgreSQL
// and DuckDB do, so binary output is unambiguous and copy-pasteable.
func formatBinary(b []byte) string {
	return `\x` + hex.EncodeToString(b)
}

// formatTimestamp prints TIMESTAMP as "YYYY-MM-DD HH:MM:SS[.ffffff]" and
// TIMESTAMPTZ as the same text in the session zone (the column type's zone)
// plus its offset, "+00:00" in UTC.
func formatTimestamp(a *array.Timestamp, i int) string {
	typ := a.DataType().(*arrow.TimestampType)
	t := a.Value(i).ToTime(typ.Unit).UTC()
	if typ.TimeZone == "" {
		return formatClock(t, clockLayout)
	}
	local := t.In(zone(typ.TimeZone))
	return formatClock(local, clockLayout) + local.Format("-07:00")
}

// zones caches the locations of the zones results are shown in.
var zones sync.Map

// zone returns the location of a column type's zone; one it cannot load
// shows as UTC.
func zone(name string) *time.Location {
	if loc, ok := zones.Load(name); ok {
		return loc.(*time.Location)
	}
	loc, err := sql.LoadZone(name)
	if err != nil {
		loc = time.UTC
	}
	zones.Store(name, loc)
	return loc
}

// formatClock formats t in its own location with layout, then appends the
// fraction: none for whole seconds, 6 digits normally, and 9 only when there
// are nanoseconds, so nanosecond timestamps are never silently truncated.
func formatClock(t time.Time, layout string) string {
	s := t.Format(layout)
	switch ns := t.Nanosecond(); {
	case ns == 0:
		return s
	case ns%1000 == 0:
		return fmt.Sprintf("%s.%06d", s, ns/1000)
	default:
		return fmt.Sprintf("%s.%09d", s, ns)
	}
}

// formatExtension prints UUIDs canonically and any other extension type as
// its storage.
func formatExtension(a array.ExtensionArray, i int) string {
	storage := a.Storage()
	if a.ExtensionType().ExtensionName() == uuidExtName {
		if fsb, ok := storage.(*array.FixedSizeBinary); ok && len(fsb.Value(i)) == 16 {
			return formatUUID(fsb.Value(i))
		}
	}
	return formatValue(storage, i)
}

// formatUUID prints 16 bytes in the canonical 8-4-4-4-12 form.
func formatUUID(b []byte) string {
	h := hex.EncodeToString(b)
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:32]
}

// formatList prints [a, b, NULL].
func formatList(a array.ListLike, i int) string {
	values := a.ListValues()
	start, end := a.ValueOffsets(i)
	parts := make([]string, 0, end-start)
	for j := start; j < end; j++ {
		parts = append(parts, formatNested(values, int(j)))
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// formatMap prints {key=value, …}.
func formatMap(a *array.Map, i int) string {
	keys, items := a.Keys(), a.Items()
	start, end := a.ValueOffsets(i)
	parts := make([]string, 0, end-start)
	for j := start; j < end; j++ {
		parts = append(parts, formatNested(keys, int(j))+"="+formatNested(items, int(j)))
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// formatStruct prints {'field': value, …}.
func formatStruct(a *array.Struct, i int) string {
	typ := a.DataType().(*arrow.StructType)
	parts := make([]string, a.NumField())
	for f := range parts {
		parts[f] = quoteNested(typ.Field(f).Name) + ": " + formatNested(a.Field(f), i)
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// formatNested formats a value inside a list, map or struct. Strings are
// quoted there, otherwise ['a, b'] and ['a', 'b'] would print the same.
func formatNested(arr arrow.Array, i int) string {
	s := formatValue(arr, i)
	if !isNull(arr, i) && isStringType(arr.DataType()) {
		return quoteNested(s)
	}
	return s
}

func quoteNested(s string) string {
	return "'" + strings.ReplaceAll(s, "'", "''") + "'"
}

func isStringType(dt arrow.DataType) bool {
	switch dt.ID() {
	case arrow.STRING, arrow.LARGE_STRING, arrow.STRING_VIEW:
		return true
	case arrow.DICTIONARY:
		return isStringType(dt.(*arrow.DictionaryType).ValueType)
	}
	return false
}

// isNumericType reports whether values of dt are numbers, which the table
// and markdown formats right-align.
func isNumericType(dt arrow.DataType) bool {
	switch dt.ID() {
	case arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64,
		arrow.UINT8, arrow.UINT16, arrow.UINT32, arrow.UINT64,
		arrow.FLOAT16, arrow.FLOAT32, arrow.FLOAT64,
		arrow.DECIMAL32, arrow.DECIMAL64, arrow.DECIMAL128, arrow.DECIMAL256:
		return true
	case arrow.DICTIONARY:
		return isNumericType(dt.(*arrow.DictionaryType).ValueType)
	}
	return false
}
