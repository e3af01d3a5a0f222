package storage

import "github.com/parquet-go/parquet-go"

// ColumnBytes is the compressed size of the column chunks a read of cols in
// row group rg decodes: for a nested column only the leaves its wanted type
// names, nothing for a column the file lacks.
func (f *ParquetFile) ColumnBytes(rg int, cols []ReadColumn) int64 {
	meta := &f.file.Metadata().RowGroups[rg]
	var n int64
	for _, col := range cols {
		c, err := f.column(col)
		if err != nil || c == nil {
			continue
		}
		var leaves []*parquet.Column
		if nestedColumn(c, col.Type) {
			r := &nestedReader{f: f}
			if _, err := r.match(c, col.Type, false); err != nil {
				continue // the read fails and reads nothing
			}
			for _, l := range r.leaves {
				leaves = append(leaves, l.col)
			}
		} else {
			leaves = []*parquet.Column{c}
		}
		for _, l := range leaves {
			n += meta.Columns[l.Index()].MetaData.TotalCompressedSize
		}
	}
	return n
}
