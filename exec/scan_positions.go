package exec

import (
	"context"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/lakesql/lakesql/storage"
)

// RowPositionFieldID is the field id of Iceberg's _pos metadata column: a
// table scan asked for a ScanColumn with this id (type BIGINT) fills it with
// each row's position in its data file, counted from 0 over every row the
// file holds — the position a position delete names. Merge-on-read DELETE,
// UPDATE and MERGE read it to write their delete files.
const RowPositionFieldID = 2147483645

// RowPositionColumn is the ScanColumn of the row position.
func RowPositionColumn() ScanColumn {
	return ScanColumn{ReadColumn: storage.ReadColumn{FieldID: RowPositionFieldID, Name: "_pos", Type: arrow.PrimitiveTypes.Int64}}
}

// withPositions returns batch, whose first row is at position first of its
// file, with the positions inserted as column at; it takes over batch.
func withPositions(ctx context.Context, batch arrow.RecordBatch, at int, first int64) arrow.RecordBatch {
	defer batch.Release()
	b := array.NewInt64Builder(allocator(ctx))
	defer b.Release()
	n := int(batch.NumRows())
	b.Reserve(n)
	for i := range n {
		b.UnsafeAppend(first + int64(i))
	}
	pos := b.NewArray()
	defer pos.Release()
	fields := slices.Insert(slices.Clone(batch.Schema().Fields()), at, arrow.Field{Name: "_pos", Type: arrow.PrimitiveTypes.Int64})
	cols := slices.Insert(slices.Clone(batch.Columns()), at, arrow.Array(pos))
	return array.NewRecordBatch(arrow.NewSchema(fields, nil), cols, batch.NumRows())
}

// positions is 1 when the scan returns row positions (not read from the
// file), else 0.
func (s *tableScan) positions() int {
	if s.posCol >= 0 {
		return 1
	}
	return 0
}
