package storage

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/arrow/scalar"
	"github.com/parquet-go/parquet-go"
)

// ReadColumn asks for one table column: matched in the file by Iceberg field id
// (parquet field_id); when the file has no field ids at all, by Name.
type ReadColumn struct {
	FieldID int
	Name    string
	Type    arrow.DataType // the type the caller wants (the table's current type)
	// Default is the value of every row of a file without the column (its
	// Iceberg initial-default); nil means NULL. See NewReadColumn.
	Default scalar.Scalar
	// Dictionary asks for a STRING or BINARY column's dictionary-encoded
	// chunks as Arrow Dictionary arrays of DictionaryType(Type) (see
	// parquet_dictionary_read.go); other chunks still come as Type.
	Dictionary bool
}

// RecordIterator streams record batches; Next returns nil, nil at the end.
type RecordIterator interface {
	Next() (arrow.RecordBatch, error)
	Close()
}

// ParquetFile is an open Parquet data file whose footer has been decoded.
type ParquetFile struct {
	path   string
	reader io.ReaderAt
	file   *parquet.File
	// byID and byName index the top-level columns of the file schema. Files
	// written by Iceberg writers carry field ids; byName is only used for
	// files that carry none (e.g. imported by add_files).
	byID   map[int]*parquet.Column
	byName map[string]*parquet.Column
	// parallel > 1 decodes up to that many columns of a row group at once
	// (SetColumnParallelism).
	parallel int
	pages    pageIndex
	counter  PageCounter // nil: pages are not counted
}

// PageCounter is told, for each column chunk a read touches, how many pages
// it has and how many were decoded (the rest skipped by the page index).
type PageCounter interface {
	CountPages(total, read int)
}

// SetPageCounter makes the file's reads report their pages to c.
func (f *ParquetFile) SetPageCounter(c PageCounter) { f.counter = c }

func (f *ParquetFile) countPages(total, read int) {
	if f.counter != nil {
		f.counter.CountPages(total, read)
	}
}

// SetColumnParallelism lets ReadRowGroup decode up to n columns of a row
// group concurrently: worth it when a scan has fewer row groups than cores.
func (f *ParquetFile) SetColumnParallelism(n int) { f.parallel = n }

// eachColumn calls fn(i) for each i in idx, concurrently up to f.parallel,
// and returns the first error.
func (f *ParquetFile) eachColumn(idx []int, fn func(i int) error) error {
	if f.parallel <= 1 || len(idx) <= 1 {
		for _, i := range idx {
			if err := fn(i); err != nil {
				return err
			}
		}
		return nil
	}
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		next int
		ferr error
	)
	for range min(f.parallel, len(idx)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				mu.Lock()
				if next >= len(idx) || ferr != nil {
					mu.Unlock()
					return
				}
				i := idx[next]
				next++
				mu.Unlock()
				if err := fn(i); err != nil {
					mu.Lock()
					if ferr == nil {
						ferr = err
					}
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	return ferr
}

// OpenParquet reads the footer of the Parquet file of the given size. path is
// only used in error messages.
func OpenParquet(r io.ReaderAt, size int64, path string) (*ParquetFile, error) {
	// The page index and bloom filters are not used by this reader: skipping
	// them avoids extra reads when opening files on object storage.
	opts := []parquet.FileOption{parquet.SkipPageIndex(true), parquet.SkipBloomFilters(true)}
	if p, ok := r.(RangePrefetcher); ok && size > 0 {
		// On object storage the footer (and the end of the file) comes in
		// one request, kept until the file is closed; the leading magic
		// bytes would cost another, and the footer's are still checked.
		n := min(size, footerPrefetch)
		if _, err := p.Prefetch([]ByteRange{{Off: size - n, Len: n}}); err != nil {
			return nil, fmt.Errorf("read parquet footer of %s: %w", path, err)
		}
		opts = append(opts, parquet.SkipMagicBytes(true))
	}
	f, err := parquet.OpenFile(r, size, opts...)
	if err != nil {
		return nil, &corruptFileError{what: "read parquet footer of", path: path, err: err}
	}
	pf := &ParquetFile{
		path:   path,
		reader: r,
		file:   f,
		byID:   make(map[int]*parquet.Column),
		byName: make(map[string]*parquet.Column),
	}
	for _, c := range f.Root().Columns() {
		if id := c.ID(); id != 0 {
			pf.byID[id] = c
		}
		pf.byName[c.Name()] = c
	}
	return pf, nil
}

// NumRows returns the number of rows of the file.
func (f *ParquetFile) NumRows() int64 { return f.file.NumRows() }

// NumRowGroups returns the number of row groups of the file.
func (f *ParquetFile) NumRowGroups() int { return len(f.file.RowGroups()) }

// RowGroupNumRows returns the number of rows of row group rg.
func (f *ParquetFile) RowGroupNumRows(rg int) int64 {
	return f.file.Metadata().RowGroups[rg].NumRows
}

// RowGroupBytes returns the compressed size of row group rg, for split planning.
func (f *ParquetFile) RowGroupBytes(rg int) int64 {
	meta := &f.file.Metadata().RowGroups[rg]
	if meta.TotalCompressedSize > 0 {
		return meta.TotalCompressedSize
	}
	// Older writers leave total_compressed_size unset.
	var n int64
	for _, c := range meta.Columns {
		n += c.MetaData.TotalCompressedSize
	}
	return n
}

// column finds the file column of a requested column; nil when the file does
// not have it (the column was added to the table after the file was written).
func (f *ParquetFile) column(col ReadColumn) (*parquet.Column, error) {
	var c *parquet.Column
	if len(f.byID) > 0 {
		c = f.byID[col.FieldID]
	} else {
		c = f.byName[col.Name]
	}
	return c, nil
}

// nestedColumn reports whether c (or the wanted type) needs record assembly
// from repetition and definition levels rather than a flat decoder.
func nestedColumn(c *parquet.Column, want arrow.DataType) bool {
	return !c.Leaf() || c.MaxRepetitionLevel() > 0 || IsNested(want)
}

// ReadRowGroup decodes the requested columns of row group rg and returns them
// as record batches of at most batchSize rows. Row groups are bounded by the
// writers' row group size, so the whole row group is decoded up front and
// the iterator hands out zero-copy slices of it.
func (f *ParquetFile) ReadRowGroup(ctx context.Context, rg int, cols []ReadColumn, batchSize int, mem memory.Allocator) (RecordIterator, error) {
	if rg < 0 || rg >= f.NumRowGroups() {
		return nil, fmt.Errorf("read row group %d of %s: file has %d row groups", rg, f.path, f.NumRowGroups())
	}
	if batchSize <= 0 {
		return nil, fmt.Errorf("read row group %d of %s: batch size %d must be positive", rg, f.path, batchSize)
	}
	release, err := f.prefetchChunks(rg, cols)
	defer release()
	if err != nil {
		return nil, err
	}
	numRows := int(f.RowGroupNumRows(rg))
	arrays := make([]arrow.Array, len(cols))
	idx := make([]int, len(cols))
	for i := range cols {
		idx[i] = i
	}
	err = f.eachColumn(idx, func(i int) error {
		arr, err := f.readColumnChunk(ctx, rg, cols[i], numRows, mem)
		arrays[i] = arr
		return err
	})
	if err != nil {
		for _, a := range arrays {
			if a != nil {
				a.Release()
			}
		}
		return nil, err
	}
	return &sliceIterator{
		schema:    arraysSchema(cols, arrays),
		arrays:    arrays,
		numRows:   int64(numRows),
		batchSize: int64(batchSize),
	}, nil
}

// readColumnChunk decodes one column chunk into an Arrow array of col.Type.
func (f *ParquetFile) readColumnChunk(ctx context.Context, rg int, col ReadColumn, numRows int, mem memory.Allocator) (arrow.Array, error) {
	c, err := f.column(col)
	if err != nil {
		return nil, err
	}
	if c == nil {
		return missingColumn(col, numRows, mem)
	}
	if nestedColumn(c, col.Type) {
		arr, err := f.readNested(ctx, rg, c, col.Type, numRows, mem)
		if err != nil {
			return nil, fmt.Errorf("read column %s of %s: %w", col.Name, f.path, err)
		}
		return arr, nil
	}
	dec, err := f.newChunkDecoder(rg, c, col, numRows, mem)
	if err != nil {
		return nil, fmt.Errorf("read column %s of %s: %w", col.Name, f.path, err)
	}
	arr, pages, err := decodeChunk(ctx, f.file.RowGroups()[rg].ColumnChunks()[c.Index()], c, dec, numRows, mem)
	f.countPages(pages, pages)
	if err != nil {
		dec.release()
		return nil, fmt.Errorf("read column %s of %s: %w", col.Name, f.path, err)
	}
	return arr, nil
}

// decodeChunk feeds every page of a column chunk to dec and builds the
// array; it also returns the number of pages decoded.
func decodeChunk(ctx context.Context, chunk parquet.ColumnChunk, c *parquet.Column, dec columnDecoder, numRows int, mem memory.Allocator) (arrow.Array, int, error) {
	pages := chunk.Pages()
	defer pages.Close()

	valid := newValidity(c, numRows, mem)
	row, n := 0, 0
	for {
		if err := ctx.Err(); err != nil {
			valid.release()
			return nil, n, err
		}
		p, err := pages.ReadPage()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			valid.release()
			return nil, n, err
		}
		n++
		err = decodePage(p, dec, valid, row, numRows)
		row += int(p.NumRows())
		parquet.Release(p)
		if err != nil {
			valid.release()
			return nil, n, err
		}
	}
	if row != numRows {
		valid.release()
		return nil, n, fmt.Errorf("column chunk has %d rows, row group has %d", row, numRows)
	}
	bitmap, nulls := valid.finish()
	return dec.finish(bitmap, nulls), n, nil
}

func decodePage(p parquet.Page, dec columnDecoder, valid *validity, row, numRows int) error {
	n := int(p.NumRows())
	if row+n > numRows {
		return fmt.Errorf("pages hold more than the row group's %d rows", numRows)
	}
	defs := p.DefinitionLevels()
	if len(defs) != 0 && len(defs) != n {
		return fmt.Errorf("page has %d definition levels for %d rows", len(defs), n)
	}
	numValid := valid.add(row, n, defs)
	return dec.decodePage(p, pageRows{start: row, count: n, valid: numValid, defs: defs, maxDef: valid.maxDef})
}

// decodePageSelected decodes the rows sel (ascending positions in the page)
// of a page to rows out, out+1, … of the column.
func decodePageSelected(p parquet.Page, dec columnDecoder, valid *validity, out, numRows int, sel []int32) error {
	n := int(p.NumRows())
	if out+len(sel) > numRows {
		return fmt.Errorf("pages hold more than the %d rows wanted", numRows)
	}
	defs := p.DefinitionLevels()
	if len(defs) != 0 && len(defs) != n {
		return fmt.Errorf("page has %d definition levels for %d rows", len(defs), n)
	}
	if len(sel) > 0 && int(sel[len(sel)-1]) >= n {
		return fmt.Errorf("row %d selected in a page of %d rows", sel[len(sel)-1], n)
	}
	numValid := n
	if valid.maxDef > 0 && len(defs) != 0 {
		numValid = 0
		for _, d := range defs {
			if d == valid.maxDef {
				numValid++
			}
		}
	}
	valid.addSelected(out, defs, sel)
	return dec.decodePage(p, pageRows{start: out, count: n, valid: numValid, defs: defs, maxDef: valid.maxDef, sel: sel})
}

// arraysSchema is the schema of batches of cols decoded into arrays: a
// column read as a Dictionary array has the dictionary's type.
func arraysSchema(cols []ReadColumn, arrays []arrow.Array) *arrow.Schema {
	fields := make([]arrow.Field, len(cols))
	for i, col := range cols {
		fields[i] = arrow.Field{Name: col.Name, Type: arrays[i].DataType(), Nullable: true}
	}
	return arrow.NewSchema(fields, nil)
}

// sliceIterator hands out consecutive slices of fully decoded columns.
type sliceIterator struct {
	schema    *arrow.Schema
	arrays    []arrow.Array
	numRows   int64
	batchSize int64
	offset    int64
}

func (it *sliceIterator) Next() (arrow.RecordBatch, error) {
	if it.offset >= it.numRows || it.arrays == nil {
		return nil, nil
	}
	end := min(it.offset+it.batchSize, it.numRows)
	cols := make([]arrow.Array, len(it.arrays))
	for i, a := range it.arrays {
		cols[i] = array.NewSlice(a, it.offset, end)
	}
	batch := array.NewRecordBatch(it.schema, cols, end-it.offset)
	// The batch holds its own references to the slices.
	for _, c := range cols {
		c.Release()
	}
	it.offset = end
	return batch, nil
}

func (it *sliceIterator) Close() {
	for _, a := range it.arrays {
		a.Release()
	}
	it.arrays = nil
}
