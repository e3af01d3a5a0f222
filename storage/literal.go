package storage

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/extensions"
	"github.com/apache/iceberg-go"
	"github.com/google/uuid"
)

// LiteralAt returns row i of an Arrow array as an Iceberg literal, or nil for NULL.
func LiteralAt(arr arrow.Array, i int) (iceberg.Literal, error) {
	if arr.IsNull(i) {
		return nil, nil
	}
	switch a := arr.(type) {
	case *array.Boolean:
		return iceberg.BoolLiteral(a.Value(i)), nil
	case *array.Int32:
		return iceberg.Int32Literal(a.Value(i)), nil
	case *array.Int64:
		return iceberg.Int64Literal(a.Value(i)), nil
	case *array.Float32:
		return iceberg.Float32Literal(a.Value(i)), nil
	case *array.Float64:
		return iceberg.Float64Literal(a.Value(i)), nil
	case *array.Decimal128:
		return iceberg.DecimalLiteral(iceberg.Decimal{Val: a.Value(i), Scale: int(a.DataType().(*arrow.Decimal128Type).Scale)}), nil
	case *array.Date32:
		return iceberg.DateLiteral(iceberg.Date(a.Value(i))), nil
	case *array.Time64:
		return iceberg.TimeLiteral(iceberg.Time(a.Value(i))), nil
	case *array.Timestamp:
		return iceberg.TimestampLiteral(iceberg.Timestamp(a.Value(i))), nil
	case *array.String:
		return iceberg.StringLiteral(a.Value(i)), nil
	case *array.Binary:
		return iceberg.BinaryLiteral(a.Value(i)), nil
	case *extensions.UUIDArray:
		return iceberg.UUIDLiteral(uuid.UUID(a.Value(i))), nil
	case *array.FixedSizeBinary:
		return iceberg.FixedLiteral(a.Value(i)), nil
	}
	return nil, fmt.Errorf("no Iceberg literal for %s values", arr.DataType())
}
