package planner

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/extensions"
	"github.com/apache/iceberg-go"

	"github.com/lakesql/lakesql/sql"
)

// IcebergType maps a SQL type name to the Iceberg type a table column stores.
func IcebergType(t sql.TypeName) (iceberg.Type, error) {
	switch t.Name {
	case "BOOLEAN":
		return iceberg.PrimitiveTypes.Bool, nil
	case "TINYINT", "SMALLINT", "INT":
		return iceberg.PrimitiveTypes.Int32, nil
	case "BIGINT":
		return iceberg.PrimitiveTypes.Int64, nil
	case "FLOAT":
		return iceberg.PrimitiveTypes.Float32, nil
	case "DOUBLE":
		return iceberg.PrimitiveTypes.Float64, nil
	case "DECIMAL":
		p, s, err := decimalParams(t)
		if err != nil {
			return nil, err
		}
		return iceberg.DecimalTypeOf(int(p), int(s)), nil
	case "DATE":
		return iceberg.PrimitiveTypes.Date, nil
	case "TIME":
		return iceberg.PrimitiveTypes.Time, nil
	case "TIMESTAMP":
		return iceberg.PrimitiveTypes.Timestamp, nil
	case "TIMESTAMPTZ":
		return iceberg.PrimitiveTypes.TimestampTz, nil
	case "STRING":
		return iceberg.PrimitiveTypes.String, nil
	case "BINARY":
		return iceberg.PrimitiveTypes.Binary, nil
	case "UUID":
		return iceberg.PrimitiveTypes.UUID, nil
	case "ARRAY", "MAP", "STRUCT":
		return icebergNestedType(t)
	case "INTERVAL":
		return nil, errorf(t.Pos, "type INTERVAL cannot be stored in a table: Iceberg has no interval type")
	}
	return nil, errorf(t.Pos, "unknown type %s", t.Name)
}

// decimalParams reads DECIMAL(p, s). A bare DECIMAL is DECIMAL(10, 0), as in
// Spark, the engine most Iceberg users come from.
func decimalParams(t sql.TypeName) (int32, int32, error) {
	p, s := int32(10), int32(0)
	if len(t.Params) > 0 {
		p = int32(t.Params[0])
	}
	if len(t.Params) > 1 {
		s = int32(t.Params[1])
	}
	if p < 1 || p > 38 || s < 0 || s > p {
		return 0, 0, errorf(t.Pos, "invalid DECIMAL(%d,%d): precision must be 1..38 and scale 0..precision", p, s)
	}
	return p, s, nil
}

// ArrowType maps a SQL type name to the Arrow type values of it have in the executor.
func ArrowType(t sql.TypeName) (arrow.DataType, error) {
	switch t.Name {
	case "TINYINT":
		return arrow.PrimitiveTypes.Int8, nil
	case "SMALLINT":
		return arrow.PrimitiveTypes.Int16, nil
	case "INTERVAL":
		return TypeInterval, nil
	}
	it, err := IcebergType(t)
	if err != nil {
		return nil, err
	}
	return ArrowTypeOf(it)
}

// ArrowTypeOf maps an Iceberg type to its Arrow type.
func ArrowTypeOf(t iceberg.Type) (arrow.DataType, error) {
	switch t := t.(type) {
	case iceberg.BooleanType:
		return TypeBoolean, nil
	case iceberg.Int32Type:
		return TypeInt, nil
	case iceberg.Int64Type:
		return TypeBigint, nil
	case iceberg.Float32Type:
		return TypeFloat, nil
	case iceberg.Float64Type:
		return TypeDouble, nil
	case iceberg.DecimalType:
		return &arrow.Decimal128Type{Precision: int32(t.Precision()), Scale: int32(t.Scale())}, nil
	case iceberg.DateType:
		return TypeDate, nil
	case iceberg.TimeType:
		return TypeTime, nil
	case iceberg.TimestampType:
		return TypeTimestamp, nil
	case iceberg.TimestampTzType:
		return TypeTimestampTZ, nil
	case iceberg.TimestampNsType:
		return TypeTimestampNs, nil
	case iceberg.TimestampTzNsType:
		return TypeTimestampTZNs, nil
	case iceberg.StringType:
		return TypeVarchar, nil
	case iceberg.BinaryType:
		return TypeBinary, nil
	case iceberg.FixedType:
		return &arrow.FixedSizeBinaryType{ByteWidth: t.Len()}, nil
	case iceberg.UUIDType:
		return extensions.NewUUIDType(), nil
	}
	if at, ok, err := arrowNestedOf(t); ok {
		return at, err
	}
	return nil, fmt.Errorf("type %s is not supported yet", t)
}

// IcebergTypeOf maps an Arrow type (a query result column) to the Iceberg type
// a table created from it stores.
func IcebergTypeOf(t arrow.DataType) (iceberg.Type, error) {
	switch t := t.(type) {
	case *arrow.BooleanType:
		return iceberg.PrimitiveTypes.Bool, nil
	case *arrow.Int8Type, *arrow.Int16Type, *arrow.Int32Type:
		return iceberg.PrimitiveTypes.Int32, nil
	case *arrow.Int64Type:
		return iceberg.PrimitiveTypes.Int64, nil
	case *arrow.Float32Type:
		return iceberg.PrimitiveTypes.Float32, nil
	case *arrow.Float64Type:
		return iceberg.PrimitiveTypes.Float64, nil
	case *arrow.Decimal128Type:
		return iceberg.DecimalTypeOf(int(t.Precision), int(t.Scale)), nil
	case *arrow.Date32Type:
		return iceberg.PrimitiveTypes.Date, nil
	case *arrow.Time64Type:
		return iceberg.PrimitiveTypes.Time, nil
	case *arrow.TimestampType:
		switch {
		case t.Unit == arrow.Nanosecond:
			// timestamp_ns is Iceberg format v3; lakesql writes v2 tables.
			return nil, fmt.Errorf("%s values cannot be stored: lakesql writes Iceberg format v2 tables, which have no nanosecond timestamps", TypeString(t))
		case t.TimeZone != "":
			return iceberg.PrimitiveTypes.TimestampTz, nil
		}
		return iceberg.PrimitiveTypes.Timestamp, nil
	case *arrow.StringType, *arrow.LargeStringType, *arrow.NullType:
		return iceberg.PrimitiveTypes.String, nil
	case *arrow.BinaryType, *arrow.LargeBinaryType:
		return iceberg.PrimitiveTypes.Binary, nil
	case *arrow.FixedSizeBinaryType:
		return iceberg.FixedTypeOf(t.ByteWidth), nil
	case *extensions.UUIDType:
		return iceberg.PrimitiveTypes.UUID, nil
	}
	if it, ok, err := icebergNestedOf(t); ok {
		return it, err
	}
	return nil, fmt.Errorf("type %s cannot be stored in a table", TypeString(t))
}
