package exec

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/arrow/scalar"
	icebergio "github.com/apache/iceberg-go/io"

	"github.com/lakesql/lakesql/exec/expr"
	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/storage"
)

// buildFileScan reads the files of a table function (read_parquet,
// read_csv), minus those whose hive partition values fail the scan's filter.
func buildFileScan(ctx context.Context, p *planner.FileScan, env *Env) (Operator, error) {
	files, err := PruneHiveFiles(ctx, p)
	if err != nil {
		return nil, err
	}
	if p.Format == planner.FormatCSV || p.Format == planner.FormatJSON {
		return newCSVScan(env.FS, p, files), nil
	}
	return newParquetFileScan(env.FS, p, files), nil
}

// FileSchema reads the columns of a file of a table function: a Parquet
// file's from its footer, a CSV or JSON file's inferred from its leading
// records.
func FileSchema(fs icebergio.IO, format planner.FileFormat, file planner.FileRef, opts planner.CSVOptions) ([]planner.FileField, error) {
	f, err := fs.Open(file.Path)
	if err != nil {
		return nil, fmt.Errorf("open %s: %v", file.Path, err)
	}
	defer f.Close()
	var cols []storage.ReadColumn
	if format == planner.FormatCSV || format == planner.FormatJSON {
		var fields []arrow.Field
		if format == planner.FormatCSV {
			fields, err = storage.InferCSVSchema(f, file.Path, csvOptions(opts))
		} else {
			fields, err = storage.InferJSONSchema(f, file.Path)
		}
		if err != nil {
			return nil, err
		}
		for _, fl := range fields {
			cols = append(cols, storage.ReadColumn{Name: fl.Name, Type: fl.Type})
		}
	} else {
		pf, err := storage.OpenParquet(f, file.Size, file.Path)
		if err != nil {
			return nil, err
		}
		if cols, err = pf.Columns(); err != nil {
			return nil, err
		}
	}
	out := make([]planner.FileField, len(cols))
	for i, c := range cols {
		out[i] = planner.FileField{FieldID: c.FieldID, Name: c.Name, Type: c.Type}
	}
	return out, nil
}

// readColumn is the storage form of a file column.
func readColumn(f planner.FileField) storage.ReadColumn {
	return storage.ReadColumn{FieldID: f.FieldID, Name: f.Name, Type: f.Type}
}

// csvOptions is the storage form of read_csv's options.
func csvOptions(o planner.CSVOptions) storage.CSVOptions {
	return storage.CSVOptions{Header: o.Header, Delim: o.Delim}
}

// newParquetFileScan reuses the table scan: files are read in parallel, and
// columns are matched by field id or, in files without ids, by name.
func newParquetFileScan(fs icebergio.IO, p *planner.FileScan, files []planner.FileRef) Operator {
	var cols []ScanColumn
	for _, c := range p.Columns {
		if c.Hive < 0 {
			cols = append(cols, ScanColumn{ReadColumn: readColumn(c.FileField)})
		}
	}
	hook := &parquetFiles{scan: p, schema: ArrowSchema(p.Schema()), byPath: map[string]planner.FileRef{}}
	scanFiles := make([]ScanFile, len(files))
	for i, f := range files {
		scanFiles[i] = ScanFile{Path: f.Path, Size: f.Size}
		hook.byPath[f.Path] = f
	}
	s := NewTableScan(fs, scanFiles, cols, nil, nil).(*tableScan)
	s.hook = hook
	s.schema = hook.schema
	return s
}

// parquetFiles is the fileHook of read_parquet.
type parquetFiles struct {
	scan   *planner.FileScan
	schema *arrow.Schema // the scan's output
	byPath map[string]planner.FileRef
}

// checkFile refuses a file whose columns differ from the first file's:
// without a table schema, reading it would silently mix up columns.
func (h *parquetFiles) checkFile(f ScanFile, pf *storage.ParquetFile) error {
	cols, err := pf.Columns()
	if err != nil {
		return fmt.Errorf("%s: %w", h.scan.Func, err)
	}
	want := h.scan.FileSchema
	first := h.scan.Files[0].Path
	if len(cols) != len(want) {
		return fmt.Errorf("%s: %s has %d columns, %s has %d", h.scan.Func, f.Path, len(cols), first, len(want))
	}
	for i, c := range cols {
		w := want[i]
		if c.Name != w.Name || c.FieldID != w.FieldID || !arrow.TypeEqual(c.Type, w.Type) {
			return fmt.Errorf("%s: %s column %d is %s %s, %s has %s %s", h.scan.Func, f.Path, i+1,
				c.Name, planner.TypeString(c.Type), first, w.Name, planner.TypeString(w.Type))
		}
	}
	return nil
}

func (h *parquetFiles) extend(ctx context.Context, f ScanFile, it storage.RecordIterator) storage.RecordIterator {
	return &hiveIterator{ctx: ctx, scan: h.scan, schema: h.schema, file: h.byPath[f.Path], in: it}
}

// hiveIterator adds a file's hive partition columns to its batches.
type hiveIterator struct {
	ctx    context.Context
	scan   *planner.FileScan
	schema *arrow.Schema
	file   planner.FileRef
	in     storage.RecordIterator
}

func (it *hiveIterator) Next() (arrow.RecordBatch, error) {
	batch, err := it.in.Next()
	if err != nil || batch == nil {
		return nil, err
	}
	defer batch.Release()
	return withHiveColumns(it.scan, it.schema, it.file, batch, allocator(it.ctx))
}

func (it *hiveIterator) Close() { it.in.Close() }

// withHiveColumns turns a batch of the scan's file columns (in order) into a
// batch of all its columns (schema), the hive ones constant for the file.
func withHiveColumns(p *planner.FileScan, schema *arrow.Schema, f planner.FileRef, batch arrow.RecordBatch, mem memory.Allocator) (arrow.RecordBatch, error) {
	n := int(batch.NumRows())
	cols := make([]arrow.Array, len(p.Columns))
	defer expr.ReleaseArrays(cols)
	next := 0
	for i, c := range p.Columns {
		if c.Hive < 0 {
			cols[i] = batch.Column(next)
			cols[i].Retain()
			next++
			continue
		}
		var err error
		if cols[i], err = constantArray(f.Hive[c.Hive], n, mem); err != nil {
			return nil, fmt.Errorf("%s: partition column %s of %s: %w", p.Func, c.Name, f.Path, err)
		}
	}
	return array.NewRecordBatch(schema, cols, int64(n)), nil
}

// constantArray repeats a literal n times.
func constantArray(l *planner.Literal, n int, mem memory.Allocator) (arrow.Array, error) {
	if l.Value == nil {
		return expr.NullArray(mem, l.T, n), nil
	}
	sc, err := expr.LiteralScalar(l)
	if err != nil {
		return nil, err
	}
	return scalar.MakeArrayFromScalar(sc, n, mem)
}

// PruneHiveFiles returns the files of a scan whose hive partition values may
// pass its filter: the filter is evaluated once, over a batch holding one row
// of partition values per file. A filter that cannot be evaluated on them
// prunes nothing; the rows are still filtered after reading.
func PruneHiveFiles(ctx context.Context, p *planner.FileScan) ([]planner.FileRef, error) {
	if p.Filter == nil || len(p.Files) == 0 {
		return p.Files, nil
	}
	mem := allocator(ctx)
	batch, err := hiveBatch(ctx, p)
	if err != nil {
		return p.Files, nil
	}
	defer batch.Release()
	res, err := expr.Eval(ctx, p.Filter, batch, mem)
	if err != nil {
		return p.Files, nil
	}
	defer res.Release()
	keep, ok := res.(*array.Boolean)
	if !ok {
		return nil, fmt.Errorf("%s: partition filter %s is not a predicate", p.Func, p.Filter)
	}
	var out []planner.FileRef
	for i, f := range p.Files {
		if keep.IsValid(i) && keep.Value(i) {
			out = append(out, f)
		}
	}
	return out, nil
}

// hiveBatch holds a row per file: its hive partition values, NULL in the
// file columns (the filter does not read them).
func hiveBatch(ctx context.Context, p *planner.FileScan) (arrow.RecordBatch, error) {
	mem := allocator(ctx)
	schema := ArrowSchema(p.Schema())
	cols := make([]arrow.Array, len(p.Columns))
	defer expr.ReleaseArrays(cols)
	for i, c := range p.Columns {
		if c.Hive < 0 {
			cols[i] = expr.NullArray(mem, c.Type, len(p.Files))
			continue
		}
		rows := make([][]planner.Expr, len(p.Files))
		for r, f := range p.Files {
			rows[r] = []planner.Expr{f.Hive[c.Hive]}
		}
		values := NewValues(arrow.NewSchema([]arrow.Field{schema.Field(i)}, nil), rows)
		col, err := values.Next(ctx)
		if err != nil {
			return nil, err
		}
		cols[i] = col.Column(0)
		cols[i].Retain()
		col.Release()
	}
	return array.NewRecordBatch(schema, cols, int64(len(p.Files))), nil
}
