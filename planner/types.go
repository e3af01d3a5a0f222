package planner

import (
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/lakesql/lakesql/value"
)

// SQL types are Arrow types. These are the ones lakesql uses.
var (
	TypeBoolean     arrow.DataType = arrow.FixedWidthTypes.Boolean
	TypeInt         arrow.DataType = arrow.PrimitiveTypes.Int32
	TypeBigint      arrow.DataType = arrow.PrimitiveTypes.Int64
	TypeFloat       arrow.DataType = arrow.PrimitiveTypes.Float32
	TypeDouble      arrow.DataType = arrow.PrimitiveTypes.Float64
	TypeDate        arrow.DataType = arrow.FixedWidthTypes.Date32
	TypeTime        arrow.DataType = arrow.FixedWidthTypes.Time64us
	TypeTimestamp   arrow.DataType = &arrow.TimestampType{Unit: arrow.Microsecond}
	TypeTimestampTZ arrow.DataType = &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"}
	// Iceberg v3's timestamp_ns and timestamptz_ns.
	TypeTimestampNs   arrow.DataType = &arrow.TimestampType{Unit: arrow.Nanosecond}
	TypeTimestampTZNs arrow.DataType = &arrow.TimestampType{Unit: arrow.Nanosecond, TimeZone: "UTC"}
	TypeVarchar       arrow.DataType = arrow.BinaryTypes.String
	TypeBinary        arrow.DataType = arrow.BinaryTypes.Binary
	TypeNull          arrow.DataType = arrow.Null
)

// TypeString names an Arrow type the way SQL users know it.
func TypeString(t arrow.DataType) string {
	switch t := t.(type) {
	case *arrow.BooleanType:
		return "BOOLEAN"
	case *arrow.Int8Type:
		return "TINYINT"
	case *arrow.Int16Type:
		return "SMALLINT"
	case *arrow.Int32Type:
		return "INT"
	case *arrow.Int64Type:
		return "BIGINT"
	case *arrow.Float32Type:
		return "FLOAT"
	case *arrow.Float64Type:
		return "DOUBLE"
	case *arrow.Decimal128Type:
		return fmt.Sprintf("DECIMAL(%d,%d)", t.Precision, t.Scale)
	case *arrow.Date32Type:
		return "DATE"
	case *arrow.Time64Type:
		return "TIME"
	case *arrow.TimestampType:
		name := "TIMESTAMP"
		if t.TimeZone != "" {
			name = "TIMESTAMPTZ"
		}
		if t.Unit == arrow.Nanosecond {
			name += "_NS"
		}
		return name
	case *arrow.StringType, *arrow.LargeStringType:
		return "STRING"
	case *arrow.BinaryType, *arrow.LargeBinaryType:
		return "BINARY"
	case *arrow.FixedSizeBinaryType:
		return fmt.Sprintf("FIXED(%d)", t.ByteWidth)
	case *UnreadableType:
		return strings.ToUpper(t.Iceberg.String())
	case *arrow.ListType, *arrow.MapType, *arrow.StructType:
		return nestedTypeString(t)
	case *arrow.MonthDayNanoIntervalType:
		return "INTERVAL"
	case *arrow.NullType:
		return "NULL"
	case arrow.ExtensionType:
		if t.ExtensionName() == "arrow.uuid" {
			return "UUID"
		}
		return t.ExtensionName()
	case *arrow.DictionaryType:
		return TypeString(t.ValueType)
	}
	return t.String()
}

// FormatLiteral prints a Literal's value as SQL text.
func FormatLiteral(v any, t arrow.DataType) string {
	if v == nil {
		return "NULL"
	}
	switch t := t.(type) {
	case *arrow.StringType:
		return "'" + strings.ReplaceAll(v.(string), "'", "''") + "'"
	case *arrow.Date32Type:
		return "DATE '" + value.FormatDate(v.(int32)) + "'"
	case *arrow.TimestampType:
		// The UTC wall clock, in the type's unit.
		text := value.FormatScalar(v, &arrow.TimestampType{Unit: t.Unit})
		if t.TimeZone != "" {
			return "TIMESTAMPTZ '" + text + "+00:00'"
		}
		return "TIMESTAMP '" + text + "'"
	}
	return value.FormatScalar(v, t)
}
