package storage

import (
	"fmt"

	"github.com/parquet-go/parquet-go/format"
)

// footerPrefetch is how many bytes at the end of a file on object storage
// are fetched with its footer: the footers of Iceberg data files (tens of
// columns, a few row groups) fit, a small file comes whole in that one
// request, and a pruned read of a big file pays little for the rest. A
// bigger footer costs one more request.
const footerPrefetch = 16 << 10

// prefetchChunks fetches, on object storage, the column chunks of row group
// rg that cols read, in one request per run of adjacent chunks instead of
// one per page; release drops them. Elsewhere it does nothing.
func (f *ParquetFile) prefetchChunks(rg int, cols []ReadColumn) (release func(), err error) {
	p, ok := f.reader.(RangePrefetcher)
	if !ok {
		return func() {}, nil
	}
	meta := f.file.Metadata().RowGroups[rg].Columns
	var ranges []ByteRange
	for _, col := range cols {
		c, err := f.column(col)
		if err != nil {
			return func() {}, err
		}
		if c != nil {
			ranges = append(ranges, chunkRange(&meta[c.Index()].MetaData))
		}
	}
	release, err = p.Prefetch(ranges)
	if err != nil {
		return release, fmt.Errorf("read row group %d of %s: %w", rg, f.path, err)
	}
	return release, nil
}

// chunkRange is where a column chunk's pages lie: from its dictionary page
// when it has one.
func chunkRange(m *format.ColumnMetaData) ByteRange {
	start := m.DataPageOffset
	if m.DictionaryPageOffset > 0 && m.DictionaryPageOffset < start {
		start = m.DictionaryPageOffset
	}
	return ByteRange{Off: start, Len: m.TotalCompressedSize}
}

// prefetchPageIndex fetches, on object storage, the span of the file that
// holds its column and offset indexes, which parquet-go reads one small
// piece per column chunk.
func (f *ParquetFile) prefetchPageIndex() func() {
	p, ok := f.reader.(RangePrefetcher)
	if !ok {
		return func() {}
	}
	var span []ByteRange
	for _, rg := range f.file.Metadata().RowGroups {
		for _, c := range rg.Columns {
			if c.ColumnIndexLength > 0 {
				span = append(span, ByteRange{Off: c.ColumnIndexOffset, Len: int64(c.ColumnIndexLength)})
			}
			if c.OffsetIndexLength > 0 {
				span = append(span, ByteRange{Off: c.OffsetIndexOffset, Len: int64(c.OffsetIndexLength)})
			}
		}
	}
	release, err := p.Prefetch(span)
	if err != nil {
		// Reading the index piece by piece still works.
		return func() {}
	}
	return release
}
