package mysqldialect

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
)

// Type is how a lakesql column type looks to MySQL clients: the DATA_TYPE and
// COLUMN_TYPE of information_schema.columns, and what the server sends as
// the column's type on the wire.
type Type struct {
	// Name is MySQL's DATA_TYPE: tinyint, smallint, int, bigint, float,
	// double, decimal, date, time, datetime, varchar, longtext, varbinary,
	// longblob, json, null.
	Name string
	// Column is MySQL's COLUMN_TYPE, such as decimal(10,2) or datetime(6).
	Column string
	// Precision and Scale are set for decimal; Scale holds the fractional
	// seconds digits of time and datetime.
	Precision, Scale int
	// Length is the maximum length in bytes of binary types of one length
	// (BINARY(16) for Iceberg fixed and uuid), 0 otherwise.
	Length int
	// Unsigned is never set today: lakesql's integers are signed.
	Unsigned bool
}

// TypeOf maps an Arrow type of a lakesql result or table column to MySQL's
// type. Strings are longtext (lakesql's strings have no length limit);
// timestamps with microseconds are datetime(6); nested types are json.
func TypeOf(t arrow.DataType) Type {
	switch t := t.(type) {
	case *arrow.BooleanType:
		return Type{Name: "tinyint", Column: "tinyint(1)"}
	case *arrow.Int8Type:
		return Type{Name: "tinyint", Column: "tinyint"}
	case *arrow.Int16Type:
		return Type{Name: "smallint", Column: "smallint"}
	case *arrow.Int32Type:
		return Type{Name: "int", Column: "int"}
	case *arrow.Int64Type:
		return Type{Name: "bigint", Column: "bigint"}
	case *arrow.Uint8Type, *arrow.Uint16Type, *arrow.Uint32Type, *arrow.Uint64Type:
		return Type{Name: "bigint", Column: "bigint unsigned", Unsigned: true}
	case *arrow.Float16Type, *arrow.Float32Type:
		return Type{Name: "float", Column: "float"}
	case *arrow.Float64Type:
		return Type{Name: "double", Column: "double"}
	case arrow.DecimalType:
		p, s := int(t.GetPrecision()), int(t.GetScale())
		return Type{Name: "decimal", Column: fmt.Sprintf("decimal(%d,%d)", p, s), Precision: p, Scale: s}
	case *arrow.Date32Type, *arrow.Date64Type:
		return Type{Name: "date", Column: "date"}
	case *arrow.Time32Type, *arrow.Time64Type:
		return Type{Name: "time", Column: "time(6)", Scale: 6}
	case *arrow.TimestampType:
		// MySQL has microseconds at most; nanosecond timestamps are
		// sent to microseconds.
		return Type{Name: "datetime", Column: "datetime(6)", Scale: 6}
	case *arrow.StringType, *arrow.LargeStringType, *arrow.StringViewType:
		return Type{Name: "longtext", Column: "longtext"}
	case *arrow.BinaryType, *arrow.LargeBinaryType, *arrow.BinaryViewType:
		return Type{Name: "longblob", Column: "longblob"}
	case *arrow.FixedSizeBinaryType:
		return Type{Name: "binary", Column: fmt.Sprintf("binary(%d)", t.ByteWidth), Length: t.ByteWidth}
	case *arrow.DictionaryType:
		return TypeOf(t.ValueType)
	case arrow.ExtensionType:
		if t.ExtensionName() == "arrow.uuid" {
			return Type{Name: "char", Column: "char(36)", Length: 36}
		}
		return TypeOf(t.StorageType())
	case *arrow.NullType:
		return Type{Name: "null", Column: "null"}
	case arrow.NestedType:
		return Type{Name: "json", Column: "json"}
	}
	return Type{Name: "longtext", Column: "longtext"}
}
