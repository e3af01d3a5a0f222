package exec

import (
	"context"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/storage"
)

// A table scan asked for a metadata column (planner.IsMetadataColumn) makes
// its values instead of reading them: _file is the path of the row's data
// file, _pos its position in that file, counted from 0 over every row the
// file holds — the position a position delete names. Merge-on-read DELETE,
// UPDATE and MERGE read _pos to write their delete files; queries may name
// both, as in Spark. A format v3 table's row lineage columns are read, and
// their NULLs (every row, for files that do not store them) completed:
// _row_id is the file's first_row_id plus _pos, and
// _last_updated_sequence_number the file's data sequence number.

// RowPositionColumn is the ScanColumn of the row position.
func RowPositionColumn() ScanColumn {
	return ScanColumn{ReadColumn: storage.ReadColumn{FieldID: planner.RowPositionFieldID, Name: "_pos", Type: arrow.PrimitiveTypes.Int64}}
}

// madeColumn is a metadata column of a scan, at its position in the batches
// drain makes.
type madeColumn struct {
	at      int
	fieldID int
	read    bool // read from the file, then completed (row lineage)
}

// withMadeColumns returns batch, read from file with its first row at
// position first of the file, with the metadata columns inserted at their
// positions and the lineage columns completed; it takes over batch.
func (s *tableScan) withMadeColumns(ctx context.Context, batch arrow.RecordBatch, file ScanFile, first int64) arrow.RecordBatch {
	if len(s.made) == 0 {
		return batch
	}
	defer batch.Release()
	n := int(batch.NumRows())
	mem := allocator(ctx)
	fields, cols := slices.Clone(batch.Schema().Fields()), slices.Clone(batch.Columns())
	for _, m := range s.made {
		if m.read {
			continue
		}
		var arr arrow.Array
		if m.fieldID == planner.RowPositionFieldID {
			arr = int64Sequence(mem, n, first)
		} else {
			b := array.NewStringBuilder(mem)
			b.Reserve(n)
			b.ReserveData(n * len(file.Path))
			for range n {
				b.UnsafeAppend([]byte(file.Path))
			}
			arr = b.NewArray()
			b.Release()
		}
		defer arr.Release()
		fields = slices.Insert(fields, m.at, arrow.Field{Name: s.cols[m.at].Name, Type: arr.DataType(), Nullable: true})
		cols = slices.Insert(cols, m.at, arr)
	}
	for _, m := range s.made {
		if !m.read {
			continue
		}
		base, step := file.DataSeq, int64(0)
		if m.fieldID == planner.RowIDFieldID {
			base, step = nil, 1
			if file.FirstRowID != nil {
				v := *file.FirstRowID + first
				base = &v
			}
		}
		arr := completeLineage(mem, cols[m.at], base, step)
		defer arr.Release()
		cols[m.at] = arr
	}
	return array.NewRecordBatch(arrow.NewSchema(fields, nil), cols, batch.NumRows())
}

// int64Sequence is start, start+1, … for n rows.
func int64Sequence(mem memory.Allocator, n int, start int64) arrow.Array {
	b := array.NewInt64Builder(mem)
	defer b.Release()
	b.Reserve(n)
	for i := range int64(n) {
		b.UnsafeAppend(start + i)
	}
	return b.NewArray()
}

// completeLineage returns stored (a lineage column as read, INT64) with
// its NULLs replaced by base + step·row (NULL when base is nil: nothing
// to inherit from).
func completeLineage(mem memory.Allocator, stored arrow.Array, base *int64, step int64) arrow.Array {
	vals, ok := stored.(*array.Int64)
	if base == nil || (ok && stored.NullN() == 0) {
		stored.Retain()
		return stored
	}
	b := array.NewInt64Builder(mem)
	defer b.Release()
	b.Reserve(stored.Len())
	for i := range stored.Len() {
		if ok && vals.IsValid(i) {
			b.UnsafeAppend(vals.Value(i))
		} else {
			b.UnsafeAppend(*base + int64(i)*step)
		}
	}
	return b.NewArray()
}

// needsPositions reports whether the scan returns row positions, which
// rules out reading only the rows a filter keeps.
func (s *tableScan) needsPositions() bool {
	return slices.ContainsFunc(s.made, func(m madeColumn) bool {
		return m.fieldID == planner.RowPositionFieldID || m.fieldID == planner.RowIDFieldID
	})
}
