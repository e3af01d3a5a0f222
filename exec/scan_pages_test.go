package exec

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/iceberg-go"
	icebergio "github.com/apache/iceberg-go/io"

	"github.com/lakesql/lakesql/storage"
)

// TestScanSkipsPages scans a file of 100,000 rows in pages of 20,000 with
// filters the row group's statistics cannot rule out but its page index
// can: the answers are the filter's, and most pages are not decoded.
func TestScanSkipsPages(t *testing.T) {
	path := filepath.Join(t.TempDir(), "pages.parquet")
	out, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	cols := []storage.WriteColumn{
		{FieldID: 1, Name: "id", Type: arrow.PrimitiveTypes.Int64, Required: true},
		{FieldID: 2, Name: "tag", Type: arrow.BinaryTypes.String},
	}
	w, err := storage.NewParquetWriter(out, cols, storage.ParquetWriterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ids := array.NewInt64Builder(memory.DefaultAllocator)
	tags := array.NewStringBuilder(memory.DefaultAllocator)
	for i := range 100_000 {
		ids.Append(int64(i))
		if i%3 == 0 {
			tags.AppendNull()
		} else {
			tags.Append(fmt.Sprintf("tag-%03d", i/1000))
		}
	}
	schema := arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int64}, {Name: "tag", Type: arrow.BinaryTypes.String, Nullable: true}}, nil)
	batch := array.NewRecordBatch(schema, []arrow.Array{ids.NewArray(), tags.NewArray()}, 100_000)
	if err := w.Write(batch); err != nil {
		t.Fatal(err)
	}
	m, err := w.Close()
	if err != nil {
		t.Fatal(err)
	}
	out.Close()

	ice := iceberg.NewSchema(0,
		iceberg.NestedField{ID: 1, Name: "id", Type: iceberg.PrimitiveTypes.Int64, Required: true},
		iceberg.NestedField{ID: 2, Name: "tag", Type: iceberg.PrimitiveTypes.String})
	scanCols := []ScanColumn{
		{ReadColumn: storage.ReadColumn{FieldID: 1, Name: "id", Type: arrow.PrimitiveTypes.Int64}, IcebergType: iceberg.PrimitiveTypes.Int64},
		{ReadColumn: storage.ReadColumn{FieldID: 2, Name: "tag", Type: arrow.BinaryTypes.String}, IcebergType: iceberg.PrimitiveTypes.String},
	}
	for _, c := range []struct {
		name     string
		filter   iceberg.BooleanExpression
		want     func(id int) bool
		maxPages int64
	}{
		{"point", iceberg.EqualTo(iceberg.Reference("id"), int64(45_005)), func(id int) bool { return id == 45_005 }, 2},
		{"or across pages", iceberg.NewOr(iceberg.LessThan(iceberg.Reference("id"), int64(10)), iceberg.GreaterThanEqual(iceberg.Reference("id"), int64(99_990))),
			func(id int) bool { return id < 10 || id >= 99_990 }, 4},
		{"string", iceberg.EqualTo(iceberg.Reference("tag"), "tag-063"), func(id int) bool { return id/1000 == 63 && id%3 != 0 }, 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			bound, err := iceberg.BindExpr(ice, c.filter, true)
			if err != nil {
				t.Fatal(err)
			}
			stats := &ScanStats{}
			scan := NewTableScan(icebergio.LocalFS{}, []ScanFile{{Path: path, Size: m.FileSize}}, scanCols, bound, stats)
			var got []int
			ctx := context.Background()
			if err := scan.Open(ctx); err != nil {
				t.Fatal(err)
			}
			for {
				b, err := scan.Next(ctx)
				if err != nil {
					t.Fatal(err)
				}
				if b == nil {
					break
				}
				// The scan may hand back rows of kept pages that fail the
				// filter (the plan filters above); keep the matches.
				idCol := b.Column(0).(*array.Int64)
				for i := range idCol.Len() {
					if id := int(idCol.Value(i)); c.want(id) {
						got = append(got, id)
					}
				}
				b.Release()
			}
			scan.Close()
			var want []int
			for id := range 100_000 {
				if c.want(id) {
					want = append(want, id)
				}
			}
			if !slices.Equal(got, want) {
				t.Fatalf("%d matching rows, want %d", len(got), len(want))
			}
			if read, total := stats.PagesRead.Load(), stats.PagesTotal.Load(); read > c.maxPages || total != 10 {
				t.Errorf("%d of %d pages read, want at most %d of 10", read, total, c.maxPages)
			}
		})
	}
}
