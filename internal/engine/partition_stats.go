package engine

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/iceberg-go/table"

	"github.com/lakesql/lakesql/storage"
)

// TargetFileSize is the table's write.target-file-size-bytes, Iceberg's
// default (512 MiB) when unset: the size lakesql's writers and
// rewrite_data_files aim at.
func TargetFileSize(tbl *table.Table) int64 {
	return int64(tbl.Properties().GetInt("write.target-file-size-bytes", storage.DefaultTargetFileSize))
}

// SmallFiles is the rule that flags a partition with the small files
// problem: more than one data file, averaging under a quarter of the target
// file size (128 MiB at Iceberg's default target). Such a partition costs a
// file open per small file on every scan that reads it, and compacting it
// (OPTIMIZE, rewrite_data_files) gives fewer files of the target size. One
// file is never flagged, however small: there is nothing to merge it with.
func SmallFiles(files, bytes, target int64) bool {
	return files > 1 && bytes/files < target/4
}

// AvgFileSize is bytes per file, rounded down; 0 without files.
func AvgFileSize(files, bytes int64) int64 {
	if files == 0 {
		return 0
	}
	return bytes / files
}

// withFileSizeColumns appends to iceberg-go's .partitions rows the average
// data file size (avg_file_size_in_bytes) and the small files flag
// (small_files, SmallFiles) of each partition.
func withFileSizeColumns(schema *arrow.Schema, batches []arrow.RecordBatch, target int64) (*arrow.Schema, []arrow.RecordBatch) {
	files, bytes := schema.FieldIndices("file_count"), schema.FieldIndices("total_data_file_size_in_bytes")
	if len(files) != 1 || len(bytes) != 1 {
		return schema, batches
	}
	fields := append(schema.Fields(),
		arrow.Field{Name: "avg_file_size_in_bytes", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		arrow.Field{Name: "small_files", Type: arrow.FixedWidthTypes.Boolean, Nullable: true})
	out := arrow.NewSchema(fields, nil)
	for i, b := range batches {
		avg, small := FileSizeColumns(b.Column(files[0]), b.Column(bytes[0]), target)
		batches[i] = array.NewRecordBatch(out, append(b.Columns(), avg, small), b.NumRows())
		b.Release()
		avg.Release()
		small.Release()
	}
	return out, batches
}

// FileSizeColumns computes, from a partition's file count and total data
// file size (integer arrays), its average file size and small files flag.
func FileSizeColumns(files, bytes arrow.Array, target int64) (avg, small arrow.Array) {
	avgB := array.NewInt64Builder(memory.DefaultAllocator)
	defer avgB.Release()
	smallB := array.NewBooleanBuilder(memory.DefaultAllocator)
	defer smallB.Release()
	for i := range files.Len() {
		if files.IsNull(i) || bytes.IsNull(i) {
			avgB.AppendNull()
			smallB.AppendNull()
			continue
		}
		n, size := intValue(files, i), intValue(bytes, i)
		avgB.Append(AvgFileSize(n, size))
		smallB.Append(SmallFiles(n, size, target))
	}
	return avgB.NewArray(), smallB.NewArray()
}

// intValue reads an INT or BIGINT count.
func intValue(a arrow.Array, i int) int64 {
	switch a := a.(type) {
	case *array.Int32:
		return int64(a.Value(i))
	case *array.Int64:
		return a.Value(i)
	}
	return 0
}
