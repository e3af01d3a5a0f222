package exec

import (
	"context"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/storage"
)

// A table scan asked for a metadata column (planner.IsMetadataColumn) makes
// its values instead of reading them: _file is the path of the row's data
// file, _pos its position in that file, counted from 0 over every row the
// file holds — the position a position delete names. Merge-on-read DELETE,
// UPDATE and MERGE read _pos to write their delete files; queries may name
// both, as in Spark.

// RowPositionColumn is the ScanColumn of the row position.
func RowPositionColumn() ScanColumn {
	return ScanColumn{ReadColumn: storage.ReadColumn{FieldID: planner.RowPositionFieldID, Name: "_pos", Type: arrow.PrimitiveTypes.Int64}}
}

// madeColumn is a metadata column of a scan, at its position in the batches
// drain makes.
type madeColumn struct {
	at      int
	fieldID int
}

// withMadeColumns returns batch, read from file with its first row at
// position first of the file, with the metadata columns inserted at their
// positions; it takes over batch.
func (s *tableScan) withMadeColumns(ctx context.Context, batch arrow.RecordBatch, file string, first int64) arrow.RecordBatch {
	if len(s.made) == 0 {
		return batch
	}
	defer batch.Release()
	n := int(batch.NumRows())
	fields, cols := slices.Clone(batch.Schema().Fields()), slices.Clone(batch.Columns())
	for _, m := range s.made {
		var arr arrow.Array
		if m.fieldID == planner.RowPositionFieldID {
			b := array.NewInt64Builder(allocator(ctx))
			b.Reserve(n)
			for i := range n {
				b.UnsafeAppend(first + int64(i))
			}
			arr = b.NewArray()
			b.Release()
		} else {
			b := array.NewStringBuilder(allocator(ctx))
			b.Reserve(n)
			b.ReserveData(n * len(file))
			for range n {
				b.UnsafeAppend([]byte(file))
			}
			arr = b.NewArray()
			b.Release()
		}
		defer arr.Release()
		fields = slices.Insert(fields, m.at, arrow.Field{Name: s.cols[m.at].Name, Type: arr.DataType(), Nullable: true})
		cols = slices.Insert(cols, m.at, arr)
	}
	return array.NewRecordBatch(arrow.NewSchema(fields, nil), cols, batch.NumRows())
}

// needsPositions reports whether the scan returns row positions, which
// rules out reading only the rows a filter keeps.
func (s *tableScan) needsPositions() bool {
	return slices.ContainsFunc(s.made, func(m madeColumn) bool { return m.fieldID == planner.RowPositionFieldID })
}
