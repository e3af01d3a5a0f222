package ddl

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/iceberg-go/table"

	"github.com/lakesql/lakesql/exec"
	"github.com/lakesql/lakesql/internal/engine"
	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/sql"
)

// The Delta-style inspection statements. Their columns follow Delta Lake's
// names where Iceberg has the same notion, so users coming from Spark and
// Databricks find what they expect.

// ShowPartitions is SHOW PARTITIONS t: one row per partition of the current
// snapshot, sorted by value, its values as columns named after the
// partition fields (readable: engine.PartitionRows), then spec_id,
// record_count, file_count, the average data file size and the small files
// flag (engine.SmallFiles).
func ShowPartitions(ctx context.Context, s *engine.Session, st *sql.ShowPartitions) (*engine.Result, error) {
	tbl, qualified, err := s.LoadTable(ctx, st.Name)
	if err != nil {
		return nil, err
	}
	in, batches, err := engine.PartitionsTable(ctx, tbl)
	if err != nil {
		return nil, fmt.Errorf("SHOW PARTITIONS %s: %w", qualified, err)
	}
	defer func() {
		for _, b := range batches {
			b.Release()
		}
	}()
	// The partitions table holds the values in one struct column, absent
	// for an unpartitioned table.
	part := in.FieldIndices("partition")
	if len(part) == 0 {
		return nil, fmt.Errorf("table %s is not partitioned", qualified)
	}
	counts := []string{"spec_id", "record_count", "file_count", "avg_file_size_in_bytes", "small_files"}
	fields := slices.Clone(in.Field(part[0]).Type.(*arrow.StructType).Fields())
	for _, name := range counts {
		fields = append(fields, in.Field(in.FieldIndices(name)[0]))
	}
	for i := range fields {
		fields[i].Nullable = true
		fields[i].Metadata = arrow.Metadata{}
	}
	schema := arrow.NewSchema(fields, nil)
	out := make([]arrow.RecordBatch, 0, len(batches))
	defer func() {
		for _, b := range out {
			b.Release()
		}
	}()
	for _, batch := range batches {
		values := batch.Column(part[0]).(*array.Struct)
		var cols []arrow.Array
		for j := range values.NumField() {
			cols = append(cols, values.Field(j))
		}
		for _, name := range counts {
			cols = append(cols, batch.Column(in.FieldIndices(name)[0]))
		}
		out = append(out, array.NewRecordBatch(schema, cols, batch.NumRows()))
	}
	return engine.BatchResult(schema, out...), nil
}

// describeHistory is DESCRIBE HISTORY t: every snapshot that was ever the
// table's current one, newest first. version is the snapshot's sequence
// number; snapshot_id is what VERSION AS OF takes.
func describeHistory(ctx context.Context, s *engine.Session, st *sql.Describe) (*engine.Result, error) {
	tbl, _, err := s.LoadTable(ctx, st.Name)
	if err != nil {
		return nil, err
	}
	b := array.NewRecordBuilder(memory.DefaultAllocator, resultSchema(
		planner.Column{Name: "version", T: planner.TypeBigint},
		planner.Column{Name: "timestamp", T: planner.TypeTimestampTZ},
		planner.Column{Name: "snapshot_id", T: planner.TypeBigint},
		planner.Column{Name: "parent_id", T: planner.TypeBigint},
		planner.Column{Name: "operation", T: planner.TypeVarchar},
		planner.Column{Name: "operationMetrics", T: planner.TypeVarchar},
	))
	defer b.Release()
	log := slices.Collect(tbl.Metadata().SnapshotLogs())
	for _, entry := range slices.Backward(log) {
		// An expired snapshot stays in the log without its details.
		snap := tbl.SnapshotByID(entry.SnapshotID)
		appendOptional(b.Field(0).(*array.Int64Builder), snap != nil, func() int64 { return snap.SequenceNumber })
		b.Field(1).(*array.TimestampBuilder).Append(arrow.Timestamp(entry.TimestampMs * 1000))
		b.Field(2).(*array.Int64Builder).Append(entry.SnapshotID)
		appendOptional(b.Field(3).(*array.Int64Builder), snap != nil && snap.ParentSnapshotID != nil, func() int64 { return *snap.ParentSnapshotID })
		hasSummary := snap != nil && snap.Summary != nil
		appendOptional(b.Field(4).(*array.StringBuilder), hasSummary, func() string { return string(snap.Summary.Operation) })
		appendOptional(b.Field(5).(*array.StringBuilder), hasSummary, func() string { return mapText(snap.Summary.Properties) })
	}
	return batchResult(b), nil
}

// describeDetail is DESCRIBE DETAIL t: one row about the table as a whole.
// The file, record and size totals come from the current snapshot's summary,
// so they cost no manifest reads.
func describeDetail(ctx context.Context, s *engine.Session, st *sql.Describe) (*engine.Result, error) {
	tbl, qualified, err := s.LoadTable(ctx, st.Name)
	if err != nil {
		return nil, err
	}
	md := tbl.Metadata()
	b := array.NewRecordBuilder(memory.DefaultAllocator, resultSchema(
		planner.Column{Name: "format", T: planner.TypeVarchar},
		planner.Column{Name: "id", T: planner.TypeVarchar},
		planner.Column{Name: "name", T: planner.TypeVarchar},
		planner.Column{Name: "location", T: planner.TypeVarchar},
		planner.Column{Name: "lastModified", T: planner.TypeTimestampTZ},
		planner.Column{Name: "partitionColumns", T: planner.TypeVarchar},
		planner.Column{Name: "numFiles", T: planner.TypeBigint},
		planner.Column{Name: "numRecords", T: planner.TypeBigint},
		planner.Column{Name: "sizeInBytes", T: planner.TypeBigint},
		planner.Column{Name: "properties", T: planner.TypeVarchar},
		planner.Column{Name: "formatVersion", T: planner.TypeInt},
		planner.Column{Name: "currentSnapshotId", T: planner.TypeBigint},
		planner.Column{Name: "numPartitions", T: planner.TypeBigint},
		planner.Column{Name: "avgFileSizeInBytes", T: planner.TypeBigint},
		planner.Column{Name: "smallFilePartitions", T: planner.TypeBigint},
	))
	defer b.Release()
	var partitionColumns []string
	spec := tbl.Spec()
	for _, f := range spec.Fields() {
		partitionColumns = append(partitionColumns, f.Name)
	}
	b.Field(0).(*array.StringBuilder).Append("iceberg")
	b.Field(1).(*array.StringBuilder).Append(md.TableUUID().String())
	b.Field(2).(*array.StringBuilder).Append(s.CatalogName() + "." + qualified)
	b.Field(3).(*array.StringBuilder).Append(md.Location())
	b.Field(4).(*array.TimestampBuilder).Append(arrow.Timestamp(md.LastUpdatedMillis() * 1000))
	b.Field(5).(*array.StringBuilder).Append("[" + strings.Join(partitionColumns, ", ") + "]")
	snap := tbl.CurrentSnapshot()
	for i, key := range []string{"total-data-files", "total-records", "total-files-size"} {
		n, ok := snapshotTotal(snap, key)
		appendOptional(b.Field(6+i).(*array.Int64Builder), ok, func() int64 { return n })
	}
	b.Field(9).(*array.StringBuilder).Append(mapText(md.Properties()))
	b.Field(10).(*array.Int32Builder).Append(int32(md.Version()))
	appendOptional(b.Field(11).(*array.Int64Builder), snap != nil, func() int64 { return snap.SnapshotID })
	parts, err := partitionFileSizes(ctx, tbl)
	if err != nil {
		return nil, fmt.Errorf("DESCRIBE DETAIL %s: %w", qualified, err)
	}
	b.Field(12).(*array.Int64Builder).Append(parts.partitions)
	b.Field(13).(*array.Int64Builder).Append(engine.AvgFileSize(parts.files, parts.bytes))
	b.Field(14).(*array.Int64Builder).Append(parts.small)
	return batchResult(b), nil
}

// fileSizes totals the data files of a table's partitions.
type fileSizes struct {
	partitions, files, bytes int64
	small                    int64 // partitions engine.SmallFiles flags
}

// partitionFileSizes reads the table's partitions (an unpartitioned table
// with data has one) from its manifests.
func partitionFileSizes(ctx context.Context, tbl *table.Table) (fileSizes, error) {
	schema, batches, err := engine.PartitionsTable(ctx, tbl)
	if err != nil {
		return fileSizes{}, err
	}
	var t fileSizes
	files, bytes, small := schema.FieldIndices("file_count")[0], schema.FieldIndices("total_data_file_size_in_bytes")[0], schema.FieldIndices("small_files")[0]
	for _, batch := range batches {
		flags := batch.Column(small).(*array.Boolean)
		for i := range int(batch.NumRows()) {
			n := int64(batch.Column(files).(*array.Int32).Value(i))
			if n == 0 {
				continue // a partition left with delete files only
			}
			t.partitions++
			t.files += n
			t.bytes += batch.Column(bytes).(*array.Int64).Value(i)
			if flags.Value(i) {
				t.small++
			}
		}
		batch.Release()
	}
	return t, nil
}

// snapshotTotal reads a total of a snapshot summary; a table without
// snapshots has none of anything, and a summary may lack the key.
func snapshotTotal(snap *table.Snapshot, key string) (int64, bool) {
	if snap == nil {
		return 0, true
	}
	if snap.Summary == nil {
		return 0, false
	}
	n, err := strconv.ParseInt(snap.Summary.Properties[key], 10, 64)
	return n, err == nil
}

// mapText prints string properties as {k=v, …}, sorted by key.
func mapText(m map[string]string) string {
	items := make([]string, 0, len(m))
	for _, k := range slices.Sorted(maps.Keys(m)) {
		items = append(items, k+"="+m[k])
	}
	return "{" + strings.Join(items, ", ") + "}"
}

// appendOptional appends value() when ok, else NULL.
func appendOptional[T any, B interface {
	Append(T)
	AppendNull()
}](b B, ok bool, value func() T) {
	if ok {
		b.Append(value())
	} else {
		b.AppendNull()
	}
}

func resultSchema(cols ...planner.Column) *arrow.Schema { return exec.ArrowSchema(cols) }

// batchResult returns the rows a builder holds as a statement's result.
func batchResult(b *array.RecordBuilder) *engine.Result {
	batch := b.NewRecordBatch()
	defer batch.Release()
	return engine.BatchResult(batch.Schema(), batch)
}
