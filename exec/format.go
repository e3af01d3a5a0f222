package exec

import (
	"strconv"
	"time"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/lakesql/lakesql/sql"
)

// Text forms of values, shared by CAST and the CLI renderer: the scalar forms
// of package sql (sql/values.go), applied to arrays.

const (
	microsPerSecond = int64(1e6)
	microsPerDay    = 86400 * microsPerSecond
)

// FormatValue renders row i of arr as text; NULL renders as "NULL".
func FormatValue(arr arrow.Array, i int) string {
	if arr.IsNull(i) || arr.DataType().ID() == arrow.NULL {
		return "NULL"
	}
	return string(formatterFor(arr)(nil, i))
}

// formatter appends the text of row i (which must be valid) to dst.
type formatter func(dst []byte, i int) []byte

// formatterFor returns the formatter of arr's type.
func formatterFor(arr arrow.Array) formatter {
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
	case *array.Float32:
		return func(dst []byte, i int) []byte { return sql.AppendFloat(dst, float64(a.Value(i)), 32) }
	case *array.Float64:
		return func(dst []byte, i int) []byte { return sql.AppendFloat(dst, a.Value(i), 64) }
	case *array.Decimal128:
		scale := a.DataType().(*arrow.Decimal128Type).Scale
		return func(dst []byte, i int) []byte { return append(dst, a.Value(i).ToString(scale)...) }
	case *array.Date32:
		return func(dst []byte, i int) []byte { return sql.AppendDate(dst, int32(a.Value(i))) }
	case *array.Time64:
		if a.DataType().(*arrow.Time64Type).Unit == arrow.Microsecond {
			return func(dst []byte, i int) []byte { return sql.AppendTime(dst, int64(a.Value(i))) }
		}
	case *array.Timestamp:
		if t := a.DataType().(*arrow.TimestampType); t.Unit == arrow.Microsecond {
			tz := t.TimeZone != ""
			if tz && t.TimeZone != "UTC" {
				if loc, err := zoneNamed(t.TimeZone); err == nil {
					return func(dst []byte, i int) []byte { return sql.AppendTimestampIn(dst, int64(a.Value(i)), loc) }
				}
			}
			return func(dst []byte, i int) []byte { return sql.AppendTimestamp(dst, int64(a.Value(i)), tz) }
		}
	case *array.String:
		return func(dst []byte, i int) []byte { return append(dst, a.Value(i)...) }
	case *array.Binary:
		return func(dst []byte, i int) []byte { return sql.AppendBlob(dst, a.Value(i)) }
	case array.ExtensionArray:
		if a.ExtensionType().ExtensionName() == "arrow.uuid" {
			v := arrayBytes(a.Storage())
			return func(dst []byte, i int) []byte { return sql.AppendUUID(dst, v.at(i)) }
		}
	}
	return func(dst []byte, i int) []byte { return append(dst, arr.ValueStr(i)...) }
}

func intFormatter[T signed](vals []T) formatter {
	return func(dst []byte, i int) []byte { return strconv.AppendInt(dst, int64(vals[i]), 10) }
}

// civil converts days since 1970-01-01 to a proleptic Gregorian date.
func civil(days int64) time.Time {
	return time.Unix(days*86400, 0).UTC()
}

func floorDivMod(x, y int64) (q, r int64) {
	q, r = x/y, x%y
	if r < 0 {
		q, r = q-1, r+y
	}
	return q, r
}

// mulAdd returns a*b+c and whether it overflows int64.
func mulAdd(a, b, c int64) (int64, bool) {
	p, o := intMul(a, b)
	if o != valueOK {
		return 0, true
	}
	s, o := intAdd(p, c)
	return s, o != valueOK
}

// unsafeString views b as a string without copying, for parsers that do not
// retain their input.
func unsafeString(b []byte) string {
	return unsafe.String(unsafe.SliceData(b), len(b))
}
