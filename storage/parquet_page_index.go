package storage

import (
	"slices"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"
)

// RowRange is the rows [Start, End) of a row group.
type RowRange struct{ Start, End int }

// PageStats describe the rows of one page of a column: bounds typed like
// ColumnStats' (valid when HasBounds), Nulls (-1 when unknown) and Rows.
type PageStats struct {
	Min, Max  any
	HasBounds bool
	Nulls     int64
	Rows      int64
}

// pageIndex is a file's column and offset indexes, read once on first use
// (only scans with a filter need them), by row group then column.
type pageIndex struct {
	once    sync.Once
	columns []format.ColumnIndex
	offsets []format.OffsetIndex
}

func (f *ParquetFile) readPageIndex() *pageIndex {
	f.pages.once.Do(func() {
		defer f.prefetchPageIndex()()
		ci, oi, err := f.file.ReadPageIndex()
		if err != nil {
			// The page index only lets rows be skipped; without it every
			// page is read.
			return
		}
		f.pages.columns, f.pages.offsets = ci, oi
	})
	return &f.pages
}

// chunkIndex returns the column and offset index of column c in row group
// rg, or ok=false when the file has none for it.
func (f *ParquetFile) chunkIndex(rg int, c *parquet.Column) (*format.ColumnIndex, *format.OffsetIndex, bool) {
	idx := f.readPageIndex()
	i := rg*len(f.file.Metadata().RowGroups[rg].Columns) + int(c.Index())
	if i >= len(idx.columns) || i >= len(idx.offsets) {
		return nil, nil, false
	}
	ci, oi := &idx.columns[i], &idx.offsets[i]
	n := len(oi.PageLocations)
	if n == 0 || len(ci.NullPages) != n || len(ci.MinValues) != n || len(ci.MaxValues) != n {
		return nil, nil, false
	}
	return ci, oi, true
}

// pageBoundsUsable reports whether page bounds of c, read as want, follow
// the order the pruning evaluator compares in. Writers order byte arrays
// unsigned, right for strings and binary but not for decimals; fixed-length
// values are left out for the same reason.
func pageBoundsUsable(c *parquet.Column, want arrow.DataType) bool {
	switch c.Type().Kind() {
	case parquet.Boolean, parquet.Int32, parquet.Int64, parquet.Float, parquet.Double:
		return true
	case parquet.ByteArray:
		switch want.(type) {
		case *arrow.StringType, *arrow.BinaryType:
			return true
		}
	}
	return false
}

// pageColumn is one filter column's pages while RowRanges walks the rows.
type pageColumn struct {
	col     *parquet.Column // nil: the file lacks the column
	missing bool            // the file lacks the column and every row is NULL
	want    arrow.DataType
	ci      *format.ColumnIndex
	oi      *format.OffsetIndex
	indexed bool
	page    int // the page holding the current row
}

// RowRanges returns the rows of row group rg that the page indexes of cols
// do not rule out, in order. keep is called for each run of rows over which
// every column of cols stays on one page, with the statistics of those
// pages (columns without a page index report nothing known), and says
// whether a row of the run might be wanted. ok is false when no column has
// a page index: then nothing can be skipped.
func (f *ParquetFile) RowRanges(rg int, cols []ReadColumn, keep func(stats func(col int) PageStats) bool) (ranges []RowRange, ok bool) {
	if rg < 0 || rg >= f.NumRowGroups() {
		return nil, false
	}
	numRows := int(f.RowGroupNumRows(rg))
	bounds := []int{0, numRows}
	pcs := make([]pageColumn, len(cols))
	for i, col := range cols {
		c, err := f.column(col)
		if err != nil {
			return nil, false
		}
		pcs[i] = pageColumn{col: c, want: col.Type, missing: c == nil && col.Default == nil}
		if pcs[i].missing {
			ok = true // a missing column without a default is known to be all NULL
			continue
		}
		if c == nil {
			continue // every row holds the default: nothing known from an index
		}
		ci, oi, has := f.chunkIndex(rg, c)
		if !has {
			continue
		}
		pcs[i].ci, pcs[i].oi, pcs[i].indexed = ci, oi, true
		ok = true
		for _, loc := range oi.PageLocations {
			bounds = append(bounds, int(loc.FirstRowIndex))
		}
	}
	if !ok {
		return nil, false
	}
	slices.Sort(bounds)
	bounds = slices.Compact(bounds)
	for k := 0; k+1 < len(bounds); k++ {
		start, end := bounds[k], bounds[k+1]
		if start < 0 || end > numRows || start >= end {
			continue
		}
		stats := func(i int) PageStats {
			return pcs[i].statsAt(start, numRows)
		}
		if !keep(stats) {
			continue
		}
		if n := len(ranges); n > 0 && ranges[n-1].End == start {
			ranges[n-1].End = end
		} else {
			ranges = append(ranges, RowRange{start, end})
		}
	}
	return ranges, true
}

// statsAt returns the statistics of the page holding row (pages are visited
// in row order, so the search only moves forward).
func (p *pageColumn) statsAt(row, numRows int) PageStats {
	if p.missing {
		return PageStats{Nulls: int64(numRows), Rows: int64(numRows)}
	}
	if !p.indexed {
		return PageStats{Nulls: -1, Rows: -1}
	}
	locs := p.oi.PageLocations
	for p.page+1 < len(locs) && int(locs[p.page+1].FirstRowIndex) <= row {
		p.page++
	}
	j := p.page
	end := int64(numRows)
	if j+1 < len(locs) {
		end = locs[j+1].FirstRowIndex
	}
	st := PageStats{Nulls: -1, Rows: end - locs[j].FirstRowIndex}
	if len(p.ci.NullCounts) == len(locs) {
		st.Nulls = p.ci.NullCounts[j]
	}
	if p.ci.NullPages[j] {
		st.Nulls = st.Rows
		return st
	}
	if !pageBoundsUsable(p.col, p.want) {
		return st
	}
	lo, okLo := statValue(p.col, p.want, p.ci.MinValues[j])
	hi, okHi := statValue(p.col, p.want, p.ci.MaxValues[j])
	if okLo && okHi {
		st.Min, st.Max, st.HasBounds = lo, hi, true
	}
	return st
}

// NumPages returns the number of data pages of col in row group rg, from
// the page index (0 when unknown or when the file lacks the column).
func (f *ParquetFile) NumPages(rg int, col ReadColumn) int {
	c, err := f.column(col)
	if err != nil || c == nil || rg < 0 || rg >= f.NumRowGroups() {
		return 0
	}
	_, oi, ok := f.chunkIndex(rg, c)
	if !ok {
		return 0
	}
	return len(oi.PageLocations)
}
