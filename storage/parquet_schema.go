package storage

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/extensions"
	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/deprecated"
	"github.com/parquet-go/parquet-go/format"
)

// Columns describes the file's top-level columns as columns to read: the
// Parquet field id (0 when the file has none), the name, and the Arrow type
// the executor uses for the column's physical and logical type. It is the
// schema of a Parquet file queried directly (read_parquet), where no table
// schema exists.
func (f *ParquetFile) Columns() ([]ReadColumn, error) {
	var cols []ReadColumn
	for _, c := range f.file.Root().Columns() {
		t, err := arrowTypeOfNode(c, false)
		if err != nil {
			return nil, fmt.Errorf("read schema of %s: column %s: %w", f.path, c.Name(), err)
		}
		cols = append(cols, ReadColumn{FieldID: c.ID(), Name: c.Name(), Type: t})
	}
	return cols, nil
}

// arrowTypeOfNode maps a file column, leaf or group, to an Arrow type:
// LIST and MAP groups (and bare repeated fields, the legacy list form) to
// lists and maps, other groups to structs whose fields carry the file's
// field ids. consumed says c's repetition already made the list above.
func arrowTypeOfNode(c *parquet.Column, consumed bool) (arrow.DataType, error) {
	if c.Repeated() && !consumed {
		elem, err := arrowTypeOfNode(c, true)
		if err != nil {
			return nil, err
		}
		return arrow.ListOfField(arrow.Field{Name: "element", Type: elem, Nullable: false}), nil
	}
	if c.Leaf() {
		return arrowTypeOfColumn(c.Type())
	}
	var lt format.LogicalTypeValue
	if l := c.Type().LogicalType(); l != nil && !consumed {
		lt = l.Value
	}
	switch lt.(type) {
	case *format.ListType:
		rep, elem, err := repeatedPart(c, false)
		if err != nil {
			return nil, err
		}
		t, err := arrowTypeOfNode(elem, elem == rep)
		if err != nil {
			return nil, err
		}
		return arrow.ListOfField(fileField(elem, "element", t)), nil
	case *format.MapType:
		rep, _, err := repeatedPart(c, false)
		if err != nil {
			return nil, err
		}
		kv := rep.Columns()
		if rep.Leaf() || len(kv) != 2 {
			return nil, fmt.Errorf("parquet column %s is not a map of keys and values", c.Name())
		}
		k, err := arrowTypeOfNode(kv[0], false)
		if err != nil {
			return nil, err
		}
		v, err := arrowTypeOfNode(kv[1], false)
		if err != nil {
			return nil, err
		}
		t := arrow.MapOfFields(fileField(kv[0], "key", k), fileField(kv[1], "value", v))
		return t, nil
	}
	var fields []arrow.Field
	for _, fc := range c.Columns() {
		t, err := arrowTypeOfNode(fc, false)
		if err != nil {
			return nil, err
		}
		fields = append(fields, fileField(fc, fc.Name(), t))
	}
	return arrow.StructOf(fields...), nil
}

// fileField is the Arrow field of file column c, with its field id.
func fileField(c *parquet.Column, name string, t arrow.DataType) arrow.Field {
	f := arrow.Field{Name: name, Type: t, Nullable: !c.Required()}
	if c.ID() != 0 {
		f = WithFieldID(f, c.ID())
	}
	return f
}

// Timestamps and times are read at microsecond precision, the executor's unit
// (Iceberg's too), whatever unit the file stores.
var (
	timestampMicros   = &arrow.TimestampType{Unit: arrow.Microsecond}
	timestampMicrosTZ = &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"}
)

// arrowTypeOfColumn maps a leaf column's Parquet type to the Arrow type
// newColumnDecoder can decode it into.
func arrowTypeOfColumn(t parquet.Type) (arrow.DataType, error) {
	if lt := t.LogicalType(); lt != nil && lt.Value != nil {
		if at, ok := arrowTypeOfLogical(t, lt.Value); ok {
			return at, nil
		}
	}
	if ct := t.ConvertedType(); ct != nil {
		if at, ok := arrowTypeOfConverted(t, *ct); ok {
			return at, nil
		}
	}
	switch t.Kind() {
	case parquet.Boolean:
		return arrow.FixedWidthTypes.Boolean, nil
	case parquet.Int32:
		return arrow.PrimitiveTypes.Int32, nil
	case parquet.Int64:
		return arrow.PrimitiveTypes.Int64, nil
	case parquet.Int96:
		// Legacy Impala/Spark timestamps carry no zone: local wall-clock time.
		return timestampMicros, nil
	case parquet.Float:
		return arrow.PrimitiveTypes.Float32, nil
	case parquet.Double:
		return arrow.PrimitiveTypes.Float64, nil
	case parquet.ByteArray:
		return arrow.BinaryTypes.Binary, nil
	case parquet.FixedLenByteArray:
		return &arrow.FixedSizeBinaryType{ByteWidth: t.Length()}, nil
	}
	return nil, fmt.Errorf("parquet type %s not supported yet", typeName(t))
}

func arrowTypeOfLogical(t parquet.Type, lt format.LogicalTypeValue) (arrow.DataType, bool) {
	switch v := lt.(type) {
	case *format.StringType, *format.EnumType, *format.JsonType:
		return arrow.BinaryTypes.String, t.Kind() == parquet.ByteArray
	case *format.DateType:
		return arrow.FixedWidthTypes.Date32, t.Kind() == parquet.Int32
	case *format.TimeType:
		return arrow.FixedWidthTypes.Time64us, true
	case *format.TimestampType:
		if v.IsAdjustedToUTC {
			return timestampMicrosTZ, true
		}
		return timestampMicros, true
	case *format.DecimalType:
		if v.Precision > 38 {
			return nil, false
		}
		return &arrow.Decimal128Type{Precision: v.Precision, Scale: v.Scale}, true
	case *format.UUIDType:
		return extensions.NewUUIDType(), t.Kind() == parquet.FixedLenByteArray && t.Length() == 16
	case *format.IntType:
		return arrowTypeOfInt(int(v.BitWidth), v.IsSigned), true
	}
	return nil, false
}

// uint64Decimal holds every UINT64 value: lakesql, like Iceberg, has no
// unsigned types, and DECIMAL(20,0) is what Spark reads UINT64 as.
var uint64Decimal = &arrow.Decimal128Type{Precision: 20, Scale: 0}

// arrowTypeOfInt maps an integer annotation to the narrowest signed type
// that holds all its values: narrow integers widen to INT, UINT32 to
// BIGINT, UINT64 to DECIMAL(20,0).
func arrowTypeOfInt(bitWidth int, signed bool) arrow.DataType {
	switch {
	case bitWidth < 32 || bitWidth == 32 && signed:
		return arrow.PrimitiveTypes.Int32
	case bitWidth == 32 || signed:
		return arrow.PrimitiveTypes.Int64
	}
	return uint64Decimal
}

// isParquetInterval reports whether t is Parquet's INTERVAL, which only
// the legacy converted type annotates: a FIXED_LEN_BYTE_ARRAY(12).
func isParquetInterval(t parquet.Type) bool {
	ct := t.ConvertedType()
	return ct != nil && *ct == deprecated.Interval && t.Kind() == parquet.FixedLenByteArray && t.Length() == 12
}

// unsignedInt reports whether t is annotated as an unsigned integer, whose
// values and statistics read zero-extended, not sign-extended.
func unsignedInt(t parquet.Type) bool {
	if lt := t.LogicalType(); lt != nil {
		if v, ok := lt.Value.(*format.IntType); ok {
			return !v.IsSigned
		}
	}
	if ct := t.ConvertedType(); ct != nil {
		switch *ct {
		case deprecated.Uint8, deprecated.Uint16, deprecated.Uint32, deprecated.Uint64:
			return true
		}
	}
	return false
}

// arrowTypeOfConverted handles files written with the legacy converted types
// only (no logical type annotation).
func arrowTypeOfConverted(t parquet.Type, ct deprecated.ConvertedType) (arrow.DataType, bool) {
	switch ct {
	case deprecated.UTF8, deprecated.Enum, deprecated.Json:
		return arrow.BinaryTypes.String, t.Kind() == parquet.ByteArray
	case deprecated.Date:
		return arrow.FixedWidthTypes.Date32, t.Kind() == parquet.Int32
	case deprecated.TimeMillis, deprecated.TimeMicros:
		return arrow.FixedWidthTypes.Time64us, true
	case deprecated.TimestampMillis, deprecated.TimestampMicros:
		// The legacy annotations mean instants (adjusted to UTC).
		return timestampMicrosTZ, true
	case deprecated.Int8, deprecated.Int16, deprecated.Uint8, deprecated.Uint16:
		return arrowTypeOfInt(16, true), t.Kind() == parquet.Int32
	case deprecated.Uint32:
		return arrowTypeOfInt(32, false), t.Kind() == parquet.Int32
	case deprecated.Uint64:
		return arrowTypeOfInt(64, false), t.Kind() == parquet.Int64
	case deprecated.Interval:
		return arrow.FixedWidthTypes.MonthDayNanoInterval, isParquetInterval(t)
	}
	return nil, false
}
