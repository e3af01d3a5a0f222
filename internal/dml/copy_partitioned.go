package dml

import (
	"bufio"
	"context"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakesql/lakesql/exec/expr"
	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/storage"
	"github.com/lakesql/lakesql/value"
)

// hiveNull is the folder value of a NULL partition value, as Hive and Spark
// write it; lakesql's and DuckDB's hive readers read it back as NULL.
const hiveNull = "__HIVE_DEFAULT_PARTITION__"

// partitionedCopy writes a query's rows as a hive-partitioned folder, as
// DuckDB's COPY … TO 'dir' (PARTITION_BY (cols)) does: a level of col=value
// folders per partition column, each leaf holding data_0.<format>. The
// partition columns are left out of the files unless
// WRITE_PARTITION_COLUMNS is set, since the folder names hold them.
type partitionedCopy struct {
	ctx      context.Context
	target   *storage.FolderTarget
	opts     copyOptions
	keys     []int    // the partition columns' positions in the query's schema
	keyNames []string // their names, as the folders spell them
	kept     []int    // the columns written into the files
	schema   *arrow.Schema
	names    []string
	writers  map[string]*partitionFile
}

// partitionFile is one open data file of the folder.
type partitionFile struct {
	f   *os.File
	buf *bufio.Writer
	w   fileWriter
}

// ownedByCopy accepts what a partitioned COPY writes: col=value folders and
// data_N files in them.
var ownedByCopy = regexp.MustCompile(`^([^/=]+=[^/]*/)*([^/=]+=[^/]*|data_[0-9]+\.[a-z]+)$`)

func newPartitionedCopy(ctx context.Context, path string, schema *arrow.Schema, names []string, opts copyOptions) (*partitionedCopy, error) {
	keys := make([]int, len(opts.partitionBy))
	for i, name := range opts.partitionBy {
		keys[i] = slices.IndexFunc(names, func(n string) bool { return strings.EqualFold(n, name) })
		if keys[i] < 0 {
			return nil, posErrorf(opts.partitionPos, "PARTITION_BY column %s is not a column of the query (its columns: %s)", name, strings.Join(names, ", "))
		}
		if t := schema.Field(keys[i]).Type; arrow.IsNested(t.ID()) {
			return nil, posErrorf(opts.partitionPos, "PARTITION_BY column %s is of type %s; a folder name holds only a single value", name, planner.TypeString(t))
		}
	}
	c := &partitionedCopy{ctx: ctx, opts: opts, keys: keys, writers: map[string]*partitionFile{}}
	for _, k := range keys {
		c.keyNames = append(c.keyNames, names[k])
	}
	var fields []arrow.Field
	for i, f := range schema.Fields() {
		if opts.writePartitionColumns || !slices.Contains(keys, i) {
			c.kept = append(c.kept, i)
			fields = append(fields, f)
			c.names = append(c.names, names[i])
		}
	}
	if len(c.kept) == 0 {
		return nil, posErrorf(opts.partitionPos, "every column is a PARTITION_BY column, so the files would hold none (add WRITE_PARTITION_COLUMNS)")
	}
	c.schema = arrow.NewSchema(fields, nil)
	target, err := storage.NewFolderTarget(path, opts.overwrite, func(rel string, dir bool) bool {
		return ownedByCopy.MatchString(filepath.ToSlash(rel))
	})
	if err != nil {
		return nil, err
	}
	c.target = target
	return c, nil
}

// Write splits batch by partition and appends each part to its file.
func (c *partitionedCopy) Write(batch arrow.RecordBatch) error {
	formatters := make([]value.Formatter, len(c.keys))
	for k, col := range c.keys {
		formatters[k] = value.FormatterOf(batch.Column(col))
	}
	part := map[string]int{} // folder → its index in folders and rows
	var folders []string
	var rows [][]int32
	var b, text []byte
	for r := range int(batch.NumRows()) {
		b = b[:0]
		for k, col := range c.keys {
			b = append(append(b, c.keyNames[k]...), '=')
			if arr := batch.Column(col); value.IsNull(arr, r) {
				b = append(b, hiveNull...)
			} else {
				text = formatters[k](text[:0], r)
				b = append(b, url.PathEscape(string(text))...)
			}
			b = append(b, '/')
		}
		i, ok := part[string(b)]
		if !ok {
			folder := string(b)
			i = len(folders)
			part[folder] = i
			folders, rows = append(folders, folder), append(rows, nil)
		}
		rows[i] = append(rows[i], int32(r))
	}
	for i, folder := range folders {
		if err := c.writePart(batch, folder, rows[i]); err != nil {
			return err
		}
	}
	return nil
}

func (c *partitionedCopy) writePart(batch arrow.RecordBatch, folder string, rows []int32) error {
	cols := make([]arrow.Array, len(c.kept))
	defer func() {
		for _, col := range cols {
			if col != nil {
				col.Release()
			}
		}
	}()
	for i, k := range c.kept {
		var err error
		if cols[i], err = expr.Take(c.ctx, memory.DefaultAllocator, batch.Column(k), rows); err != nil {
			return err
		}
	}
	part := array.NewRecordBatch(c.schema, cols, int64(len(rows)))
	defer part.Release()
	w, err := c.file(folder)
	if err != nil {
		return err
	}
	if err := w.w.Write(part); err != nil {
		return fmt.Errorf("%s: %w", filepath.Join(c.target.Path, folder), err)
	}
	return nil
}

// file is the open data file of folder, created on its first rows.
func (c *partitionedCopy) file(folder string) (*partitionFile, error) {
	if w, ok := c.writers[folder]; ok {
		return w, nil
	}
	dir := filepath.Join(c.target.Staging, folder)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("cannot write %s: %w", filepath.Join(c.target.Path, folder), err)
	}
	f, err := os.Create(filepath.Join(dir, "data_0."+c.opts.format))
	if err != nil {
		return nil, fmt.Errorf("cannot write %s: %w", filepath.Join(c.target.Path, folder), err)
	}
	buf := bufio.NewWriterSize(f, 256<<10)
	w, err := newFileWriter(c.ctx, buf, c.schema, c.names, c.opts)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", filepath.Join(c.target.Path, folder), err)
	}
	pf := &partitionFile{f: f, buf: buf, w: w}
	c.writers[folder] = pf
	return pf, nil
}

// Close finishes every file and puts the folder in place.
func (c *partitionedCopy) Close() error {
	for folder, pf := range c.writers {
		err := pf.w.Close()
		if err == nil {
			err = pf.buf.Flush()
		}
		if err == nil {
			err = pf.f.Sync()
		}
		if cerr := pf.f.Close(); err == nil {
			err = cerr
		}
		delete(c.writers, folder)
		if err != nil {
			c.Discard()
			return fmt.Errorf("write %s: %w", filepath.Join(c.target.Path, folder), err)
		}
	}
	if err := c.target.Place(); err != nil {
		c.Discard()
		return err
	}
	return nil
}

// Discard abandons the write: the staging folder goes, the target stays as
// it was.
func (c *partitionedCopy) Discard() {
	for _, pf := range c.writers {
		pf.f.Close()
	}
	c.writers = nil
	c.target.Discard()
}
