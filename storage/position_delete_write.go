package storage

import (
	"fmt"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/iceberg-go"
	icebergio "github.com/apache/iceberg-go/io"
	"github.com/google/uuid"
)

// WritePositionDeletes writes a position delete file that deletes the rows
// at positions (any order, no duplicates) of one data file, next to it, and
// describes it for the manifest: same spec and partition as the data file,
// and equal lower and upper bounds on file_path, which tell readers the file
// deletes from that one data file only (Spark's file-scoped deletes).
func WritePositionDeletes(fs icebergio.WriteFileIO, spec iceberg.PartitionSpec, data iceberg.DataFile, positions []int64) (iceberg.DataFile, error) {
	target := data.FilePath()
	// The data file's folder, cut as text: paths may be URIs (s3://…),
	// which path.Join would mangle.
	file := target[:strings.LastIndex(target, "/")+1] + uuid.NewString() + "-deletes.parquet"
	out, err := fs.Create(file)
	if err != nil {
		return nil, fmt.Errorf("create position delete file %s: %w", file, err)
	}
	cols := []WriteColumn{
		{FieldID: posDeleteFilePathID, Name: "file_path", Type: arrow.BinaryTypes.String, Required: true},
		{FieldID: posDeletePosID, Name: "pos", Type: arrow.PrimitiveTypes.Int64, Required: true},
	}
	m, err := writePositions(out, cols, target, positions)
	if cerr := out.Close(); err == nil && cerr != nil {
		err = cerr
	}
	if err != nil {
		_ = fs.Remove(file)
		return nil, fmt.Errorf("write position delete file %s: %w", file, err)
	}
	// Bounds are truncated to 16 bytes by default; file_path's must be whole.
	m.LowerBounds[posDeleteFilePathID] = []byte(target)
	m.UpperBounds[posDeleteFilePathID] = []byte(target)
	b, err := iceberg.NewDataFileBuilder(spec, iceberg.EntryContentPosDeletes, file, iceberg.ParquetFile,
		data.Partition(), map[int]string{}, nil, m.RecordCount, m.FileSize)
	if err != nil {
		_ = fs.Remove(file)
		return nil, fmt.Errorf("describe position delete file %s: %w", file, err)
	}
	b.ColumnSizes(m.ColumnSizes).ValueCounts(m.ValueCounts).NullValueCounts(m.NullCounts).
		LowerBoundValues(m.LowerBounds).UpperBoundValues(m.UpperBounds)
	return b.Build(), nil
}

// writePositions writes the rows (target, pos) sorted by position, as the
// spec asks of position delete files.
func writePositions(out icebergio.FileWriter, cols []WriteColumn, target string, positions []int64) (FileMetrics, error) {
	w, err := NewParquetWriter(out, cols, ParquetWriterOptions{})
	if err != nil {
		return FileMetrics{}, err
	}
	sorted := slices.Sorted(slices.Values(positions))
	paths := array.NewStringBuilder(memory.DefaultAllocator)
	defer paths.Release()
	pos := array.NewInt64Builder(memory.DefaultAllocator)
	defer pos.Release()
	for _, p := range sorted {
		paths.Append(target)
		pos.Append(p)
	}
	pathArr, posArr := paths.NewArray(), pos.NewArray()
	defer pathArr.Release()
	defer posArr.Release()
	fields := []arrow.Field{{Name: "file_path", Type: arrow.BinaryTypes.String}, {Name: "pos", Type: arrow.PrimitiveTypes.Int64}}
	batch := array.NewRecordBatch(arrow.NewSchema(fields, nil), []arrow.Array{pathArr, posArr}, int64(len(sorted)))
	defer batch.Release()
	if err := w.Write(batch); err != nil {
		return FileMetrics{}, err
	}
	return w.Close()
}
