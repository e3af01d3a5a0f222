package storage

import (
	"encoding/hex"
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/extensions"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/arrow/scalar"
	"github.com/apache/iceberg-go"
)

// NewReadColumn describes how to read table column f as Arrow type t. A data
// file written before the column was added has no values for it: its rows
// read the column's initial-default (Iceberg format v3), or NULL when the
// column has none.
func NewReadColumn(f iceberg.NestedField, t arrow.DataType) (ReadColumn, error) {
	col := ReadColumn{FieldID: f.ID, Name: f.Name, Type: t}
	if f.InitialDefault == nil {
		return col, nil
	}
	lit, err := defaultLiteral(f)
	if err != nil {
		return ReadColumn{}, fmt.Errorf("column %s: initial-default %v is not a %s value: %v", f.Name, f.InitialDefault, f.Type, err)
	}
	if col.Default, err = literalScalar(lit, t); err != nil {
		return ReadColumn{}, fmt.Errorf("column %s: initial-default %v: %v", f.Name, f.InitialDefault, err)
	}
	return col, nil
}

// missingColumn is the column a file lacks: n rows of its default, or NULLs.
func missingColumn(col ReadColumn, n int, mem memory.Allocator) (arrow.Array, error) {
	if col.Default == nil {
		return array.MakeArrayOfNull(mem, col.Type, n), nil
	}
	arr, err := scalar.MakeArrayFromScalar(col.Default, n, mem)
	if err != nil {
		return nil, fmt.Errorf("column %s: initial-default: %w", col.Name, err)
	}
	return arr, nil
}

// defaultLiteral decodes a default as table metadata stores it, in the
// spec's JSON single-value form (numbers, booleans, strings for dates,
// times, timestamps, decimals and UUIDs, hex strings for binary and fixed),
// or as the typed value iceberg-go keeps for a default set in this process.
func defaultLiteral(f iceberg.NestedField) (iceberg.Literal, error) {
	v := f.InitialDefault
	switch j := v.(type) {
	case float64: // encoding/json's number: integral for int, long and the like
		if j == math.Trunc(j) && math.Abs(j) < 1<<53 {
			v = int64(j)
		}
	case string:
		switch f.Type.(type) {
		case iceberg.BinaryType, iceberg.FixedType:
			b, err := hex.DecodeString(j)
			if err != nil {
				return nil, fmt.Errorf("not a hex string")
			}
			v = b
		}
	}
	// The rest converts as a partition value does.
	lit, ok := partitionLiteral(v, f.Type)
	if !ok {
		return nil, fmt.Errorf("%T %v cannot be read as %s", v, v, f.Type)
	}
	return lit, nil
}

// literalScalar turns an Iceberg literal into an Arrow scalar of type t.
func literalScalar(lit iceberg.Literal, t arrow.DataType) (scalar.Scalar, error) {
	var sc scalar.Scalar
	switch v := lit.(type) {
	case iceberg.BoolLiteral:
		sc = scalar.NewBooleanScalar(bool(v))
	case iceberg.Int32Literal:
		sc = scalar.NewInt32Scalar(int32(v))
	case iceberg.Int64Literal:
		sc = scalar.NewInt64Scalar(int64(v))
	case iceberg.Float32Literal:
		sc = scalar.NewFloat32Scalar(float32(v))
	case iceberg.Float64Literal:
		sc = scalar.NewFloat64Scalar(float64(v))
	case iceberg.DecimalLiteral:
		if dt, ok := t.(*arrow.Decimal128Type); ok {
			sc = scalar.NewDecimal128Scalar(decimal128.Num(v.Val), dt)
		}
	case iceberg.DateLiteral:
		sc = scalar.NewDate32Scalar(arrow.Date32(v))
	case iceberg.TimeLiteral:
		sc = scalar.NewTime64Scalar(arrow.Time64(v), arrow.FixedWidthTypes.Time64us)
	case iceberg.TimestampLiteral:
		if dt, ok := t.(*arrow.TimestampType); ok {
			sc = scalar.NewTimestampScalar(arrow.Timestamp(v), dt)
		}
	case iceberg.TimestampNsLiteral:
		if dt, ok := t.(*arrow.TimestampType); ok {
			sc = scalar.NewTimestampScalar(arrow.Timestamp(v), dt)
		}
	case iceberg.StringLiteral:
		sc = scalar.NewStringScalar(string(v))
	case iceberg.BinaryLiteral:
		sc = scalar.NewBinaryScalar(memory.NewBufferBytes(v), arrow.BinaryTypes.Binary)
	case iceberg.FixedLiteral:
		if dt, ok := t.(*arrow.FixedSizeBinaryType); ok {
			sc = scalar.NewFixedSizeBinaryScalar(memory.NewBufferBytes(v), dt)
		}
	case iceberg.UUIDLiteral:
		if dt, ok := t.(*extensions.UUIDType); ok {
			u := [16]byte(v)
			storage := scalar.NewFixedSizeBinaryScalar(memory.NewBufferBytes(u[:]), &arrow.FixedSizeBinaryType{ByteWidth: 16})
			sc = scalar.NewExtensionScalar(storage, dt)
		}
	}
	if sc == nil || !arrow.TypeEqual(sc.DataType(), t) {
		return nil, fmt.Errorf("no %s value for %s", t, lit)
	}
	return sc, nil
}
