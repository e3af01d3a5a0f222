package storage

import (
	"context"
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/compute"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/iceberg-go"
	icebergio "github.com/apache/iceberg-go/io"
	"github.com/apache/iceberg-go/table"
	"github.com/google/uuid"
)

// DefaultTargetFileSize is Iceberg's default write.target-file-size-bytes.
const DefaultTargetFileSize = 512 << 20

// TableWriter writes rows into new data files of a table under its current
// partition spec; each partition's file rolls over at
// write.target-file-size-bytes. Nothing is visible until the caller commits
// the returned data files.
//
// Under write.distribution-mode hash (the default) or range, rows are
// clustered: buffered by partition (spilling to local temporary files past
// a memory budget) and each partition's files written from all of its rows
// when the writer closes, in the table's sort order when it has one. So a
// write makes about ceil(partition bytes / target size) files per
// partition whatever the input order. Under none, rows go straight to one
// open file per partition, as they come.
type TableWriter struct {
	tbl        *table.Table
	fs         icebergio.WriteFileIO
	spec       iceberg.PartitionSpec
	schema     *iceberg.Schema
	cols       []WriteColumn
	partitions []partitionColumn
	targetSize int64
	opts       ParquetWriterOptions
	writeID    string
	sortKeys   []sortKey      // the table's sort order; nil: unsorted
	buffer     *clusterBuffer // nil: rows are written as they come

	open    map[string]*openFile
	writes  int64 // batches written, to find the least recently written file
	done    []iceberg.DataFile
	created []string // every file started, for cleanup on failure
	nfiles  int
}

// partitionColumn is one partition field with the position of its source column.
type partitionColumn struct {
	field     iceberg.PartitionField
	sourceCol int
	result    iceberg.Type
}

type openFile struct {
	path      string
	partition map[int]any
	out       icebergio.FileWriter
	w         *ParquetWriter
	lastWrite int64 // the writer's write count at this file's latest batch
}

// maxOpenFiles bounds the partition files a writer keeps open. Each holds a
// row group in memory until it is finished, so fanning a year of days out
// at once would hold the whole year; past the bound the file written least
// recently is finished. Input clustered by partition (the usual case: data
// arrives in time order) still gets one file per partition.
const maxOpenFiles = 32

// NewTableWriter prepares to write batches whose columns are the table's
// current schema columns, in order, with their Arrow types.
func NewTableWriter(tbl *table.Table, fs icebergio.WriteFileIO, arrowTypes []arrow.DataType) (*TableWriter, error) {
	return NewTableWriterForSpec(tbl, fs, tbl.Spec(), arrowTypes)
}

// NewTableWriterForSpec is NewTableWriter partitioning by one of the table's
// specs rather than its current one (rewrite_data_files' output-spec-id).
func NewTableWriterForSpec(tbl *table.Table, fs icebergio.WriteFileIO, spec iceberg.PartitionSpec, arrowTypes []arrow.DataType) (*TableWriter, error) {
	if v := tbl.Metadata().Version(); v > 2 {
		// A v3 commit needs row lineage (first_row_id) and deletion vectors
		// in place of position deletes, which lakesql does not write yet:
		// refuse before any file is written.
		return nil, fmt.Errorf("write %s: the table is Iceberg format v%d, which lakesql reads but does not write yet", strings.Join(tbl.Identifier(), "."), v)
	}
	schema := tbl.Schema()
	fields := schema.Fields()
	if len(arrowTypes) != len(fields) {
		return nil, fmt.Errorf("write %s: %d columns given, the table has %d", tbl.Identifier(), len(arrowTypes), len(fields))
	}
	w := &TableWriter{
		tbl: tbl, fs: fs, spec: spec, schema: schema,
		targetSize: int64(tbl.Properties().GetInt("write.target-file-size-bytes", DefaultTargetFileSize)),
		writeID:    uuid.NewString(),
		open:       map[string]*openFile{},
	}
	var err error
	if w.opts, err = ParquetOptionsFromProperties(tbl.Properties()); err != nil {
		return nil, fmt.Errorf("write %s: %w", strings.Join(tbl.Identifier(), "."), err)
	}
	for i, f := range fields {
		w.cols = append(w.cols, WriteColumn{FieldID: f.ID, Name: f.Name, Type: arrowTypes[i], Required: f.Required, Iceberg: f.Type})
	}
	mode := tbl.Properties().Get("write.distribution-mode", "hash")
	switch mode {
	case "hash", "range":
	case "none":
	default:
		return nil, fmt.Errorf("write %s: table property write.distribution-mode=%q is not one of none, hash, range", strings.Join(tbl.Identifier(), "."), mode)
	}
	if order := tbl.SortOrder(); mode != "none" && !order.IsUnsorted() {
		if w.sortKeys, err = sortKeysOf(order, schema); err != nil {
			return nil, fmt.Errorf("write %s: %w", strings.Join(tbl.Identifier(), "."), err)
		}
	}
	for _, pf := range w.spec.Fields() {
		idx := -1
		for i, f := range fields {
			if f.ID == pf.SourceID() {
				idx = i
			}
		}
		if idx < 0 {
			return nil, fmt.Errorf("write %s: partition field %s has no source column", tbl.Identifier(), pf.Name)
		}
		w.partitions = append(w.partitions, partitionColumn{field: pf, sourceCol: idx, result: pf.Transform.ResultType(fields[idx].Type)})
	}
	if mode != "none" && (len(w.partitions) > 0 || w.sortKeys != nil) {
		w.buffer = newClusterBuffer(w.arrowSchema(), DefaultWriteMemory, "", memory.DefaultAllocator)
	}
	return w, nil
}

// SetSortOrder orders each partition's rows by order rather than by the
// table's sort order (rewrite_data_files' sort_order): the files of a
// partition then hold disjoint ranges of the sort keys. The rows are
// clustered even under write.distribution-mode none. Call it before the
// first Write.
func (w *TableWriter) SetSortOrder(order table.SortOrder) error {
	if order.IsUnsorted() {
		w.sortKeys = nil
		return nil
	}
	keys, err := sortKeysOf(order, w.schema)
	if err != nil {
		return fmt.Errorf("write %s: %w", strings.Join(w.tbl.Identifier(), "."), err)
	}
	w.sortKeys = keys
	if w.buffer == nil {
		w.buffer = newClusterBuffer(w.arrowSchema(), DefaultWriteMemory, "", memory.DefaultAllocator)
	}
	return nil
}

// SetTargetFileSize overrides write.target-file-size-bytes (rewrite_data_files'
// target-file-size-bytes option).
func (w *TableWriter) SetTargetFileSize(bytes int64) {
	if bytes > 0 {
		w.targetSize = bytes
	}
}

// SetWriteMemory sets the bytes of rows a clustered write buffers before
// spilling them to temporary files in dir ("": the system's).
func (w *TableWriter) SetWriteMemory(bytes int64, dir string) {
	if w.buffer != nil {
		w.buffer.budget, w.buffer.dir = bytes, dir
	}
}

func (w *TableWriter) arrowSchema() *arrow.Schema {
	fields := make([]arrow.Field, len(w.cols))
	for i, c := range w.cols {
		fields[i] = arrow.Field{Name: c.Name, Type: c.Type, Nullable: !c.Required}
	}
	return arrow.NewSchema(fields, nil)
}

// Write adds a batch of rows.
func (w *TableWriter) Write(ctx context.Context, batch arrow.RecordBatch) error {
	if batch.NumRows() == 0 {
		return nil
	}
	if err := w.checkRequired(batch); err != nil {
		return err
	}
	if len(w.partitions) == 0 && w.buffer == nil {
		return w.writeTo(ctx, "", nil, batch)
	}
	groups, err := w.groupByPartition(batch)
	if err != nil {
		return err
	}
	if w.buffer != nil {
		if err := w.buffer.add(ctx, batch, groups); err != nil {
			return err
		}
		return ctx.Err()
	}
	for _, g := range groups {
		part, err := takeRows(ctx, batch, g.rows)
		if err != nil {
			return err
		}
		err = w.writeTo(ctx, g.key, g.values, part)
		part.Release()
		if err != nil {
			return err
		}
	}
	return nil
}

// checkRequired refuses batches of other types than the table's columns
// and NULLs in NOT NULL columns, before anything is written.
func (w *TableWriter) checkRequired(batch arrow.RecordBatch) error {
	if int(batch.NumCols()) != len(w.cols) {
		return fmt.Errorf("write %s: %d columns given, the table has %d", strings.Join(w.tbl.Identifier(), "."), batch.NumCols(), len(w.cols))
	}
	for i, c := range w.cols {
		if got := batch.Column(i).DataType(); !arrow.TypeEqual(got, c.Type) {
			return fmt.Errorf("write column %s: rows are %s, the column is %s", c.Name, got, c.Type)
		}
		if c.Required && batch.Column(i).NullN() > 0 {
			return fmt.Errorf("column %s is NOT NULL but a row has NULL", c.Name)
		}
	}
	return nil
}

type partitionGroup struct {
	key    string
	values map[int]any
	rows   []int64
}

// groupByPartition computes each row's partition tuple and groups row indexes
// by it, in order of first appearance. Transforms with integer keys are
// computed for the whole batch at once; the tuple's Iceberg values are
// computed once per group, from its first row.
func (w *TableWriter) groupByPartition(batch arrow.RecordBatch) ([]*partitionGroup, error) {
	if len(w.partitions) == 0 {
		return []*partitionGroup{{rows: allRows(int(batch.NumRows()))}}, nil
	}
	fast := make([][]int64, len(w.partitions))
	for i, p := range w.partitions {
		fast[i], _ = fastKeys(p.field.Transform, batch.Column(p.sourceCol))
	}
	byKey := map[string]*partitionGroup{}
	var order []*partitionGroup
	var key []byte
	for row := range int(batch.NumRows()) {
		key = key[:0]
		for i, p := range w.partitions {
			col := batch.Column(p.sourceCol)
			if fast[i] != nil {
				key = appendKey(key, col.IsValid(row), fast[i][row])
				continue
			}
			v, err := partitionValue(p, col, row)
			if err != nil {
				return nil, err
			}
			key = appendText(key, v)
		}
		g, ok := byKey[string(key)]
		if !ok {
			g = &partitionGroup{key: string(key), values: map[int]any{}}
			for _, p := range w.partitions {
				v, err := partitionValue(p, batch.Column(p.sourceCol), row)
				if err != nil {
					return nil, err
				}
				g.values[p.field.FieldID] = v
			}
			byKey[g.key] = g
			order = append(order, g)
		}
		g.rows = append(g.rows, int64(row))
	}
	return order, nil
}

func allRows(n int) []int64 {
	rows := make([]int64, n)
	for i := range rows {
		rows[i] = int64(i)
	}
	return rows
}

// partitionValue applies a partition transform to one value.
func partitionValue(p partitionColumn, col arrow.Array, row int) (any, error) {
	lit, err := LiteralAt(col, row)
	if err != nil {
		return nil, err
	}
	var in iceberg.Optional[iceberg.Literal]
	if lit != nil {
		in = iceberg.Optional[iceberg.Literal]{Valid: true, Val: lit}
	}
	out := p.field.Transform.Apply(in)
	if !out.Valid {
		return nil, nil
	}
	return out.Val.Any(), nil
}

func takeRows(ctx context.Context, batch arrow.RecordBatch, rows []int64) (arrow.RecordBatch, error) {
	if int64(len(rows)) == batch.NumRows() {
		batch.Retain()
		return batch, nil
	}
	idx := array.NewInt64Builder(compute.GetAllocator(ctx))
	defer idx.Release()
	idx.AppendValues(rows, nil)
	indices := idx.NewArray()
	defer indices.Release()
	out, err := compute.TakeArray(ctx, array.NewStructData(array.RecordToStructArray(batch).Data()), indices)
	if err != nil {
		return nil, fmt.Errorf("split rows by partition: %w", err)
	}
	defer out.Release()
	return array.RecordFromStructArray(out.(*array.Struct), batch.Schema()), nil
}

// writeTo appends rows to the partition's open file, rolling to a new file
// once it reaches the target size.
func (w *TableWriter) writeTo(ctx context.Context, key string, partition map[int]any, batch arrow.RecordBatch) error {
	f := w.open[key]
	if f == nil {
		var err error
		if f, err = w.newFile(partition); err != nil {
			return err
		}
		w.open[key] = f
	}
	if err := f.w.Write(batch); err != nil {
		return fmt.Errorf("write %s: %w", f.path, err)
	}
	w.writes++
	f.lastWrite = w.writes
	if f.w.BytesWritten() >= w.targetSize {
		delete(w.open, key)
		return w.finish(f)
	}
	if len(w.open) > maxOpenFiles {
		if err := w.finishLeastRecent(); err != nil {
			return err
		}
	}
	return ctx.Err()
}

// finishLeastRecent finishes the open file that was written to longest ago.
func (w *TableWriter) finishLeastRecent() error {
	var oldestKey string
	var oldest *openFile
	for key, f := range w.open {
		if oldest == nil || f.lastWrite < oldest.lastWrite {
			oldestKey, oldest = key, f
		}
	}
	delete(w.open, oldestKey)
	return w.finish(oldest)
}

func (w *TableWriter) newFile(partition map[int]any) (*openFile, error) {
	w.nfiles++
	dir := strings.TrimRight(w.tbl.Location(), "/") + "/data/"
	if len(w.partitions) > 0 {
		dir += w.partitionPath(partition) + "/"
	}
	path := fmt.Sprintf("%s%05d-%s.parquet", dir, w.nfiles, w.writeID)
	out, err := w.fs.Create(path)
	if err != nil {
		return nil, fmt.Errorf("create data file %s: %w", path, err)
	}
	w.created = append(w.created, path)
	pw, err := NewParquetWriter(out, w.cols, w.opts)
	if err != nil {
		out.Close()
		return nil, fmt.Errorf("create data file %s: %w", path, err)
	}
	return &openFile{path: path, partition: partition, out: out, w: pw}, nil
}

// partitionPath is the Hive-style folder of a partition: day=2026-01-15/…
func (w *TableWriter) partitionPath(partition map[int]any) string {
	parts := make([]string, len(w.partitions))
	for i, p := range w.partitions {
		v := partition[p.field.FieldID]
		text := "null"
		if v != nil {
			text = p.field.Transform.ToHumanStrType(w.schema.Field(p.sourceCol).Type, v)
		}
		parts[i] = p.field.Name + "=" + escapePathSegment(text)
	}
	return strings.Join(parts, "/")
}

func escapePathSegment(s string) string {
	return strings.NewReplacer("/", "%2F", "%", "%25", ":", "%3A", " ", "%20").Replace(s)
}

// finish closes a file and records it as a data file.
func (w *TableWriter) finish(f *openFile) error {
	m, err := f.w.Close()
	if cerr := f.out.Close(); err == nil && cerr != nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("finish data file %s: %w", f.path, err)
	}
	logical := map[int]string{}
	b, err := iceberg.NewDataFileBuilder(w.spec, iceberg.EntryContentData, f.path, iceberg.ParquetFile,
		f.partition, logical, nil, m.RecordCount, m.FileSize)
	if err != nil {
		return fmt.Errorf("describe data file %s: %w", f.path, err)
	}
	b.ColumnSizes(m.ColumnSizes).ValueCounts(m.ValueCounts).NullValueCounts(m.NullCounts).
		NaNValueCounts(m.NaNCounts).LowerBoundValues(m.LowerBounds).UpperBoundValues(m.UpperBounds)
	w.done = append(w.done, b.Build())
	return nil
}

// WriteAll writes every batch next returns (nil at the end), releasing each,
// then finishes the files. It returns the rows written and the data files;
// on error the caller Aborts.
func (w *TableWriter) WriteAll(ctx context.Context, next func() (arrow.RecordBatch, error)) (int64, []iceberg.DataFile, error) {
	var rows int64
	for {
		batch, err := next()
		if err != nil {
			return 0, nil, err
		}
		if batch == nil {
			files, err := w.close(ctx)
			return rows, files, err
		}
		rows += batch.NumRows()
		err = w.Write(ctx, batch)
		batch.Release()
		if err != nil {
			return 0, nil, err
		}
	}
}

// Close finishes every open file and returns all data files written.
func (w *TableWriter) Close() ([]iceberg.DataFile, error) {
	return w.close(context.Background())
}

func (w *TableWriter) close(ctx context.Context) ([]iceberg.DataFile, error) {
	if w.buffer != nil {
		err := w.buffer.each(func(key string, values map[int]any, next func() (arrow.RecordBatch, error)) error {
			return w.writePartition(ctx, key, values, next)
		})
		w.buffer.close()
		w.buffer = nil
		if err != nil {
			return nil, err
		}
	}
	for key, f := range w.open {
		delete(w.open, key)
		if err := w.finish(f); err != nil {
			return nil, err
		}
	}
	return w.done, nil
}

// Paths lists every data file the writer started, finished or not.
func (w *TableWriter) Paths() []string { return w.created }

// Abort closes and deletes every file written, after a failure, so a failed
// statement leaves no orphan files behind.
func (w *TableWriter) Abort() {
	if w.buffer != nil {
		w.buffer.close()
		w.buffer = nil
	}
	for _, f := range w.open {
		f.out.Close()
	}
	w.open = nil
	for _, path := range w.created {
		_ = w.fs.Remove(path)
	}
}

// Append writes all batches from next into new files and commits them as one
// append snapshot. On any error nothing is committed and the files are removed.
func Append(ctx context.Context, tbl *table.Table, fs icebergio.WriteFileIO, arrowTypes []arrow.DataType, next func() (arrow.RecordBatch, error)) (int64, error) {
	w, err := NewTableWriter(tbl, fs, arrowTypes)
	if err != nil {
		return 0, err
	}
	rows, files, err := w.WriteAll(ctx, next)
	if err != nil {
		w.Abort()
		return 0, err
	}
	if err := CommitAppend(ctx, tbl, files); err != nil {
		w.Abort()
		return 0, err
	}
	return rows, nil
}

// CommitAppend commits data files as one append snapshot. An append never
// conflicts with what another writer committed meanwhile, so when the commit
// loses a race it is retried on top of the table as the winner left it.
// Staging the append reads the current snapshot's manifests, which a
// concurrent expire_snapshots may have just deleted: that is a lost race too.
func CommitAppend(ctx context.Context, tbl *table.Table, files []iceberg.DataFile) error {
	if len(files) == 0 {
		return nil
	}
	return RetryCommit(ctx, tbl, func(cur *table.Table) error {
		tx := NewTransaction(cur)
		err := tx.AddDataFiles(ctx, files, nil)
		if err == nil {
			_, err = CommitTransaction(ctx, cur, tx)
		}
		if err != nil {
			return fmt.Errorf("commit to %s: %w", strings.Join(cur.Identifier(), "."), err)
		}
		return nil
	}, nil)
}

// writePartition writes the buffered rows of one partition to its files,
// sorted by the table's sort order when it has one, and finishes them.
func (w *TableWriter) writePartition(ctx context.Context, key string, values map[int]any, next func() (arrow.RecordBatch, error)) error {
	if w.sortKeys != nil {
		sorted, err := w.sortedPartition(ctx, next)
		if err != nil || sorted == nil {
			return err
		}
		// Sorted rows go out in chunks, so that a file rolls over between
		// two chunks and the partition's files hold disjoint key ranges.
		defer sorted.Release()
		var off int64
		next = func() (arrow.RecordBatch, error) {
			if off >= sorted.NumRows() {
				return nil, nil
			}
			end := min(sorted.NumRows(), off+sortedChunkRows)
			b := sorted.NewSlice(off, end)
			off = end
			return b, nil
		}
	}
	for {
		batch, err := next()
		if err != nil || batch == nil {
			if err == nil {
				err = w.finishPartition(key)
			}
			return err
		}
		err = w.writeTo(ctx, key, values, batch)
		batch.Release()
		if err != nil {
			return err
		}
	}
}

// sortedChunkRows is how many sorted rows are written between checks of
// the file's size.
const sortedChunkRows = 4096

// sortedPartition gathers a partition's rows and sorts them: sorting needs
// them all at once, so a sorted write holds one partition in memory.
func (w *TableWriter) sortedPartition(ctx context.Context, next func() (arrow.RecordBatch, error)) (arrow.RecordBatch, error) {
	var parts []arrow.RecordBatch
	defer func() {
		for _, p := range parts {
			p.Release()
		}
	}()
	for {
		b, err := next()
		if err != nil {
			return nil, err
		}
		if b == nil {
			break
		}
		parts = append(parts, b)
	}
	if len(parts) == 0 {
		return nil, nil
	}
	all := parts[0]
	if len(parts) > 1 {
		tbl := array.NewTableFromRecords(parts[0].Schema(), parts)
		defer tbl.Release()
		cols := make([]arrow.Array, tbl.NumCols())
		for i := range cols {
			c, err := array.Concatenate(tbl.Column(i).Data().Chunks(), memory.DefaultAllocator)
			if err != nil {
				return nil, fmt.Errorf("gather rows of a partition: %w", err)
			}
			defer c.Release()
			cols[i] = c
		}
		all = array.NewRecordBatch(parts[0].Schema(), cols, tbl.NumRows())
		defer all.Release()
	}
	return sortRows(ctx, all, w.sortKeys)
}

// finishPartition finishes the partition's open file, if any.
func (w *TableWriter) finishPartition(key string) error {
	f := w.open[key]
	if f == nil {
		return nil
	}
	delete(w.open, key)
	return w.finish(f)
}
