package exec

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/iceberg-go"

	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/storage"
)

// buildMetadataAggregate answers count/min/max over a whole table from the
// manifests. When a data file lacks the metrics an answer needs, or the
// table has delete files, it runs the aggregate over a
// scan instead.
func buildMetadataAggregate(ctx context.Context, m *planner.MetadataAggregate, env *Env) (Operator, error) {
	plan, err := TableScanPlan(ctx, m.Scan, env)
	if err != nil {
		return nil, err
	}
	if len(plan.DeleteFiles) == 0 {
		if batch, ok := metadataAnswer(ctx, m, plan.Files); ok {
			defer batch.Release()
			return NewBatches(batch.Schema(), []arrow.RecordBatch{batch}), nil
		}
	}
	return buildNode(ctx, m.Aggregate, env)
}

// metadataAnswer computes the aggregates from the files' metrics; ok is
// false when some metric is missing.
func metadataAnswer(ctx context.Context, m *planner.MetadataAggregate, files []iceberg.DataFile) (arrow.RecordBatch, bool) {
	schema := ArrowSchema(m.Aggregate.Schema())
	b := array.NewRecordBuilder(allocator(ctx), schema)
	defer b.Release()
	for i, a := range m.Aggregate.Aggs {
		if !appendMetadataValue(b.Field(i), a, m.Scan, files) {
			return nil, false
		}
	}
	return b.NewRecordBatch(), true
}

func appendMetadataValue(out array.Builder, a *planner.AggCall, scan *planner.Scan, files []iceberg.DataFile) bool {
	if a.Arg == nil { // count(*)
		var n int64
		for _, f := range files {
			n += f.Count()
		}
		out.(*array.Int64Builder).Append(n)
		return true
	}
	field, ok := scan.Table.Schema.FindFieldByID(scan.Columns[a.Arg.(*planner.ColumnRef).Index].FieldID)
	if !ok {
		return false
	}
	if a.Fn == planner.AggCount {
		n, ok := storage.NonNullCount(files, field.ID)
		if ok {
			out.(*array.Int64Builder).Append(n)
		}
		return ok
	}
	lo, hi, ok := storage.ColumnRange(files, field)
	if !ok {
		return false
	}
	v := lo
	if a.Fn == planner.AggMax {
		v = hi
	}
	return appendLiteral(out, v) == nil
}

// appendLiteral appends an Iceberg literal (nil: NULL) to a builder of the
// matching Arrow type.
func appendLiteral(out array.Builder, v iceberg.Literal) error {
	if v == nil {
		out.AppendNull()
		return nil
	}
	switch b := out.(type) {
	case *array.Int32Builder:
		if x, ok := v.(iceberg.Int32Literal); ok {
			b.Append(int32(x))
			return nil
		}
	case *array.Int64Builder:
		if x, ok := v.(iceberg.Int64Literal); ok {
			b.Append(int64(x))
			return nil
		}
	case *array.Date32Builder:
		if x, ok := v.(iceberg.DateLiteral); ok {
			b.Append(arrow.Date32(x))
			return nil
		}
	case *array.TimestampBuilder:
		if x, ok := v.(iceberg.TimestampLiteral); ok {
			b.Append(arrow.Timestamp(x))
			return nil
		}
	case *array.Decimal128Builder:
		if x, ok := v.(iceberg.DecimalLiteral); ok && int32(x.Scale) == b.Type().(*arrow.Decimal128Type).Scale {
			b.Append(decimal128.Num(x.Val))
			return nil
		}
	}
	return fmt.Errorf("no %s value for literal %s", out.Type(), v)
}
