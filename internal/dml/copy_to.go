package dml

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/compute"

	"github.com/lakesql/lakesql/internal/engine"
	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/sql"
	"github.com/lakesql/lakesql/storage"
)

// copyOptions are the options of COPY … TO, as DuckDB spells them.
type copyOptions struct {
	format      string // parquet, csv or json
	csv         storage.CSVOptions
	overwrite   bool
	compression string // parquet codec; "" is the writer's default
	// partitionBy names the columns of a hive-partitioned folder write.
	partitionBy           []string
	partitionPos          sql.Pos
	writePartitionColumns bool
}

// copyOptionNames are the options COPY takes; delim and sep are DuckDB's
// other spellings of delimiter.
var copyOptionNames = []string{"format", "header", "delimiter", "delim", "sep", "overwrite", "overwrite_or_ignore", "compression", "partition_by", "write_partition_columns"}

// formatByExtension is the format COPY writes when FORMAT is not given.
var formatByExtension = map[string]string{
	".parquet": "parquet", ".csv": "csv", ".tsv": "csv", ".json": "json", ".jsonl": "json", ".ndjson": "json",
}

// Copy runs COPY (query) TO 'path' [(options)] and COPY table TO 'path':
// the query's rows go to one new file, written atomically (see
// storage.WriteNewFile); an existing file is replaced only with OVERWRITE.
func Copy(ctx context.Context, s *engine.Session, st *sql.Copy) (*engine.Result, error) {
	opts, err := parseCopyOptions(st)
	if err != nil {
		return nil, err
	}
	if err := planner.CheckFileAccess(ctx, st.Path, true); err != nil {
		return nil, fmt.Errorf("COPY: %w", err)
	}
	res, err := s.Query(ctx, st.Query)
	if err != nil {
		return nil, err
	}
	defer res.Close()
	names := make([]string, len(res.Schema.Fields()))
	for i, f := range res.Schema.Fields() {
		names[i] = f.Name
	}
	if opts.format != "csv" {
		if dup := duplicateName(names); dup != "" {
			return nil, fmt.Errorf("COPY: %s: the query has two columns named %s; a %s file needs distinct names (use AS)", st.Path, dup, opts.format)
		}
	}
	var rows int64
	if len(opts.partitionBy) > 0 {
		out, err := newPartitionedCopy(ctx, st.Path, res.Schema, names, opts)
		if err != nil {
			return nil, fmt.Errorf("COPY: %w", err)
		}
		if rows, err = writeAll(ctx, res, out, ""); err != nil {
			out.Discard()
			return nil, fmt.Errorf("COPY: %w", err)
		}
		if err := out.Close(); err != nil {
			return nil, fmt.Errorf("COPY: %w", err)
		}
		return engine.RowCount(rows, "written to "+st.Path), nil
	}
	err = storage.WriteNewFile(st.Path, opts.overwrite, func(w io.Writer) error {
		out, err := newFileWriter(ctx, w, res.Schema, names, opts)
		if err != nil {
			return fmt.Errorf("%s: %w", st.Path, err)
		}
		if rows, err = writeAll(ctx, res, out, st.Path); err != nil {
			return err
		}
		if err := out.Close(); err != nil {
			return fmt.Errorf("%s: %w", st.Path, err)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("COPY: %w", err)
	}
	return engine.RowCount(rows, "written to "+st.Path), nil
}

// writeAll writes every batch of res to out and returns the row count; the
// errors of writing name path unless it is "" (out names its own files).
func writeAll(ctx context.Context, res *engine.Result, out fileWriter, path string) (int64, error) {
	var rows int64
	for {
		batch, err := res.Next(ctx)
		if err != nil || batch == nil {
			return rows, err
		}
		rows += batch.NumRows()
		err = out.Write(batch)
		batch.Release()
		if err != nil && path != "" {
			return rows, fmt.Errorf("%s: %w", path, err)
		}
		if err != nil {
			return rows, err
		}
	}
}

func duplicateName(names []string) string {
	seen := map[string]bool{}
	for _, n := range names {
		if seen[n] {
			return n
		}
		seen[n] = true
	}
	return ""
}

// fileWriter is a writer of one of COPY's formats.
type fileWriter interface {
	Write(arrow.RecordBatch) error
	Close() error
}

func newFileWriter(ctx context.Context, w io.Writer, schema *arrow.Schema, names []string, opts copyOptions) (fileWriter, error) {
	switch opts.format {
	case "csv":
		return storage.NewCSVWriter(w, names, opts.csv)
	case "json":
		return storage.NewJSONWriter(w, names), nil
	}
	cols := make([]storage.WriteColumn, len(names))
	fields := make([]arrow.Field, len(names))
	for i, f := range schema.Fields() {
		f.Type = parquetWidth(f.Type)
		cols[i], fields[i] = storage.WriteColumn{Name: f.Name, Type: f.Type}, f
	}
	pw, err := storage.NewParquetWriter(w, cols, storage.ParquetWriterOptions{Compression: opts.compression})
	if err != nil {
		return nil, err
	}
	return &parquetFile{ctx: ctx, w: pw, schema: arrow.NewSchema(fields, nil)}, nil
}

// parquetWidth is the type a column is written as: the Parquet writer
// writes Iceberg's types, so narrower integers are widened (as Parquet's
// INT32 and INT64 physical types store them anyway) and an all-NULL column
// of no type is written as INT, as DuckDB does.
func parquetWidth(t arrow.DataType) arrow.DataType {
	switch t.ID() {
	case arrow.NULL, arrow.INT8, arrow.INT16, arrow.UINT8, arrow.UINT16:
		return arrow.PrimitiveTypes.Int32
	case arrow.UINT32:
		return arrow.PrimitiveTypes.Int64
	case arrow.FLOAT16:
		return arrow.PrimitiveTypes.Float32
	}
	return t
}

// parquetFile writes batches through a ParquetWriter, widening the columns
// parquetWidth says to; Close drops the Iceberg metrics.
type parquetFile struct {
	ctx    context.Context
	w      *storage.ParquetWriter
	schema *arrow.Schema
}

func (p *parquetFile) Write(batch arrow.RecordBatch) error {
	cols := make([]arrow.Array, batch.NumCols())
	for i := range cols {
		col, want := batch.Column(i), p.schema.Field(i).Type
		if arrow.TypeEqual(col.DataType(), want) {
			col.Retain()
			cols[i] = col
			continue
		}
		var err error
		if cols[i], err = compute.CastArray(p.ctx, col, compute.SafeCastOptions(want)); err != nil {
			for _, c := range cols[:i] {
				c.Release()
			}
			return fmt.Errorf("column %s: cannot write %s as %s", p.schema.Field(i).Name, planner.TypeString(col.DataType()), planner.TypeString(want))
		}
	}
	out := array.NewRecordBatch(p.schema, cols, batch.NumRows())
	for _, c := range cols {
		c.Release()
	}
	defer out.Release()
	return p.w.Write(out)
}

func (p *parquetFile) Close() error {
	_, err := p.w.Close()
	return err
}

// parseCopyOptions reads COPY's options; FORMAT defaults to the format the
// path's extension names.
func parseCopyOptions(st *sql.Copy) (copyOptions, error) {
	ext := strings.ToLower(filepath.Ext(st.Path))
	opts := copyOptions{format: formatByExtension[ext], csv: storage.CSVOptions{Header: true, Delim: ','}}
	if ext == ".tsv" {
		opts.csv.Delim = '\t'
	}
	given := map[string]sql.CopyOption{}
	for _, o := range st.Options {
		if !slices.Contains(copyOptionNames, o.Name) {
			if near := sql.Closest(o.Name, copyOptionNames); near != "" {
				return opts, posErrorf(o.Pos, "COPY has no option %s (did you mean %s?)", o.Name, near)
			}
			return opts, posErrorf(o.Pos, "COPY has no option %s (its options: %s)", o.Name, strings.Join(copyOptionNames, ", "))
		}
		given[o.Name] = o
	}
	var err error
	if o, ok := given["format"]; ok {
		if opts.format, err = wordOption(o); err != nil {
			return opts, err
		}
		opts.format = strings.ToLower(opts.format)
		if opts.format != "parquet" && opts.format != "csv" && opts.format != "json" {
			return opts, posErrorf(o.Pos, "COPY cannot write FORMAT %s (formats: parquet, csv, json)", opts.format)
		}
	}
	if opts.format == "" {
		return opts, posErrorf(st.Pos, "COPY cannot tell the format of %s from its extension: add (FORMAT parquet|csv|json)", st.Path)
	}
	for _, name := range []string{"overwrite", "overwrite_or_ignore"} {
		if o, ok := given[name]; ok {
			if opts.overwrite, err = boolOption(o); err != nil {
				return opts, err
			}
		}
	}
	for name, o := range given {
		switch name {
		case "header":
			opts.csv.Header, err = boolOption(o)
		case "delimiter", "delim", "sep":
			opts.csv.Delim, err = delimOption(o)
		case "compression":
			opts.compression, err = wordOption(o)
			opts.compression = strings.ToLower(opts.compression)
		case "partition_by":
			opts.partitionPos = o.Pos
			opts.partitionBy, err = namesOption(o)
		case "write_partition_columns":
			opts.writePartitionColumns, err = boolOption(o)
		}
		if err != nil {
			return opts, err
		}
		if forFormat := optionFormat(name); forFormat != "" && forFormat != opts.format {
			return opts, posErrorf(o.Pos, "COPY option %s is for FORMAT %s, not %s", strings.ToUpper(name), forFormat, opts.format)
		}
	}
	return opts, nil
}

// optionFormat is the format an option applies to, "" for all.
func optionFormat(name string) string {
	switch name {
	case "header", "delimiter", "delim", "sep":
		return "csv"
	case "compression":
		return "parquet"
	}
	return ""
}

// namesOption reads PARTITION_BY (a, b) or PARTITION_BY a.
func namesOption(o sql.CopyOption) ([]string, error) {
	s, err := wordOption(o)
	if err != nil || s == "" {
		return nil, posErrorf(o.Pos, "COPY option PARTITION_BY needs column names, as in PARTITION_BY (year, month)")
	}
	return strings.Split(s, ","), nil
}

func wordOption(o sql.CopyOption) (string, error) {
	lit, ok := o.Value.(*sql.Literal)
	if !ok || lit.Kind != sql.LitString {
		return "", posErrorf(o.Pos, "COPY option %s needs a name or a string", strings.ToUpper(o.Name))
	}
	return lit.Value, nil
}

// boolOption is true for the bare name, or true/false.
func boolOption(o sql.CopyOption) (bool, error) {
	if o.Value == nil {
		return true, nil
	}
	if lit, ok := o.Value.(*sql.Literal); ok && lit.Kind == sql.LitBool {
		return lit.Value == "true", nil
	}
	return false, posErrorf(o.Pos, "COPY option %s takes true or false", strings.ToUpper(o.Name))
}

func delimOption(o sql.CopyOption) (rune, error) {
	s, err := wordOption(o)
	r, size := utf8.DecodeRuneInString(s)
	if err != nil || size == 0 || size != len(s) || r == '"' || r == '\n' || r == '\r' {
		return 0, posErrorf(o.Pos, "COPY option %s must be one character other than a quote or a line break", strings.ToUpper(o.Name))
	}
	return r, nil
}

func posErrorf(pos sql.Pos, format string, args ...any) error {
	return &planner.Error{Pos: pos, Msg: fmt.Sprintf(format, args...)}
}
