package storage

import (
	"bytes"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/iceberg-go"
	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"
)

// layoutColumns: a unique id, a low-cardinality category with NULLs and a
// high-cardinality string.
func layoutColumns() []WriteColumn {
	return []WriteColumn{
		{FieldID: 1, Name: "id", Type: arrow.PrimitiveTypes.Int64, Required: true},
		{FieldID: 2, Name: "category", Type: arrow.BinaryTypes.String},
		{FieldID: 3, Name: "note", Type: arrow.BinaryTypes.String},
	}
}

func layoutBatch(mem memory.Allocator, start, n int) arrow.RecordBatch {
	cols := layoutColumns()
	fields := make([]arrow.Field, len(cols))
	for i, c := range cols {
		fields[i] = arrow.Field{Name: c.Name, Type: c.Type, Nullable: !c.Required}
	}
	b := array.NewRecordBuilder(mem, arrow.NewSchema(fields, nil))
	defer b.Release()
	for r := start; r < start+n; r++ {
		b.Field(0).(*array.Int64Builder).Append(int64(r))
		if r%11 == 0 {
			b.Field(1).AppendNull()
		} else {
			b.Field(1).(*array.StringBuilder).Append(fmt.Sprintf("cat-%d", r%7))
		}
		b.Field(2).(*array.StringBuilder).Append(fmt.Sprintf("note %d %s", r*7919, strings.Repeat("z", r%5)))
	}
	return b.NewRecordBatch()
}

func rawFile(t *testing.T, b []byte) *parquet.File {
	t.Helper()
	f, err := parquet.OpenFile(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func TestParquetWriterLayout(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	cols := layoutColumns()
	var batches []arrow.RecordBatch
	for start := 0; start < 100_000; start += 30_000 {
		batches = append(batches, layoutBatch(mem, start, min(30_000, 100_000-start)))
	}
	b, _ := writeParquet(t, cols, ParquetWriterOptions{}, batches...)
	f := rawFile(t, b)
	if n := len(f.RowGroups()); n != 1 {
		t.Fatalf("%d row groups, want 1", n)
	}
	wantDict := []bool{false, true, false}
	for i, cc := range f.Metadata().RowGroups[0].Columns {
		dict := slices.Contains(cc.MetaData.Encoding, format.RLEDictionary)
		if dict != wantDict[i] {
			t.Errorf("column %s: encodings %v, dictionary wanted %v", cols[i].Name, cc.MetaData.Encoding, wantDict[i])
		}
		if cc.ColumnIndexOffset == 0 || cc.OffsetIndexOffset == 0 {
			t.Errorf("column %s: no page index", cols[i].Name)
		}
	}
	// Pages are cut every 20,000 rows in every column at once.
	chunks := f.RowGroups()[0].ColumnChunks()
	for i, chunk := range chunks {
		oi, err := chunk.OffsetIndex()
		if err != nil {
			t.Fatal(err)
		}
		var firsts []int64
		for p := range oi.NumPages() {
			firsts = append(firsts, oi.FirstRowIndex(p))
		}
		if want := []int64{0, 20_000, 40_000, 60_000, 80_000}; !slices.Equal(firsts, want) {
			t.Errorf("column %s: pages start at rows %v, want %v", cols[i].Name, firsts, want)
		}
		ci, err := chunk.ColumnIndex()
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 && (ci.MinValue(1).Int64() != 20_000 || ci.MaxValue(1).Int64() != 39_999) {
			t.Errorf("id page 1 bounds %v..%v, want 20000..39999", ci.MinValue(1), ci.MaxValue(1))
		}
	}
	got := readAll(t, openBytes(t, b, "layout.parquet"), readColumnsOf(cols), 4096, mem)
	defer releaseAll(got)
	for i := range cols {
		want, err := array.Concatenate(columnOf(batches, i), mem)
		if err != nil {
			t.Fatal(err)
		}
		if !array.Equal(got[i], want) {
			t.Errorf("column %s does not read back", cols[i].Name)
		}
		want.Release()
	}
	for _, b := range batches {
		b.Release()
	}
}

func columnOf(batches []arrow.RecordBatch, i int) []arrow.Array {
	var out []arrow.Array
	for _, b := range batches {
		out = append(out, b.Column(i))
	}
	return out
}

// A dictionary that outgrows DictBytes makes the rest of the chunk PLAIN;
// both kinds of pages read back.
func TestParquetDictionaryFallback(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	cols := []WriteColumn{{FieldID: 1, Name: "s", Type: arrow.BinaryTypes.String}}
	build := func(start, n int) arrow.RecordBatch {
		sb := array.NewStringBuilder(mem)
		defer sb.Release()
		for r := start; r < start+n; r++ {
			if r < 30_000 {
				sb.Append(fmt.Sprintf("v%d", r%50)) // the sample sees few values
			} else {
				sb.Append(fmt.Sprintf("distinct value %d", r))
			}
		}
		arr := sb.NewArray()
		defer arr.Release()
		return array.NewRecordBatch(arrow.NewSchema([]arrow.Field{{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true}}, nil), []arrow.Array{arr}, int64(n))
	}
	batches := []arrow.RecordBatch{build(0, 30_000), build(30_000, 70_000)}
	defer func() {
		for _, b := range batches {
			b.Release()
		}
	}()
	b, _ := writeParquet(t, cols, ParquetWriterOptions{DictBytes: 64 << 10}, batches...)
	enc := rawFile(t, b).Metadata().RowGroups[0].Columns[0].MetaData.Encoding
	if !slices.Contains(enc, format.RLEDictionary) || !slices.Contains(enc, format.Plain) {
		t.Fatalf("encodings %v, want dictionary pages then PLAIN ones", enc)
	}
	got := readAll(t, openBytes(t, b, "fallback.parquet"), readColumnsOf(cols), 8192, mem)
	defer releaseAll(got)
	want, _ := array.Concatenate(columnOf(batches, 0), mem)
	defer want.Release()
	if !array.Equal(got[0], want) {
		t.Fatal("dictionary then PLAIN pages do not read back")
	}
}

func TestParquetOptionsFromProperties(t *testing.T) {
	opts, err := ParquetOptionsFromProperties(iceberg.Properties{
		"write.parquet.row-group-size-bytes": "4096",
		"write.parquet.page-size-bytes":      "1024",
		"write.parquet.dict-size-bytes":      "512",
		"write.parquet.page-row-limit":       "100",
		"write.parquet.compression-codec":    "snappy",
	})
	if err != nil {
		t.Fatal(err)
	}
	want := ParquetWriterOptions{Compression: "snappy", RowGroupBytes: 4096, PageBytes: 1024, DictBytes: 512, PageRows: 100}
	if opts != want {
		t.Fatalf("options %+v, want %+v", opts, want)
	}
	for props, msg := range map[string]string{
		"write.parquet.page-size-bytes":   "write.parquet.page-size-bytes=\"x\" is not a positive integer",
		"write.parquet.compression-codec": "unsupported parquet compression codec \"x\"",
	} {
		_, err := ParquetOptionsFromProperties(iceberg.Properties{props: "x"})
		if err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("%s = x: error %v, want %q", props, err, msg)
		}
	}

	// The options shape the file: small row groups and snappy pages.
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	batch := layoutBatch(mem, 0, 5000)
	defer batch.Release()
	b, _ := writeParquet(t, layoutColumns(), opts, batch)
	meta := rawFile(t, b).Metadata()
	if len(meta.RowGroups) < 2 {
		t.Errorf("%d row groups with row-group-size-bytes 4096", len(meta.RowGroups))
	}
	if codec := meta.RowGroups[0].Columns[0].MetaData.Codec; codec != format.Snappy {
		t.Errorf("codec %v, want SNAPPY", codec)
	}
	oi, err := rawFile(t, b).RowGroups()[0].ColumnChunks()[0].OffsetIndex()
	if err != nil {
		t.Fatal(err)
	}
	if oi.NumPages() < 2 || oi.FirstRowIndex(1) > 100 {
		t.Errorf("%d pages, second at row %d, with page-row-limit 100", oi.NumPages(), oi.FirstRowIndex(1))
	}
}

// Repeated floats with NaN stay PLAIN: parquet-go's statistics of
// dictionary-encoded floats holding NaN miss the minimum, and pruning on
// them would drop rows.
func TestParquetFloatBoundsWithNaN(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	cols := []WriteColumn{{FieldID: 1, Name: "x", Type: arrow.PrimitiveTypes.Float64}}
	b := array.NewFloat64Builder(mem)
	for i := range 3000 {
		b.Append([]float64{0.5, -1.25, 3, math.NaN(), 100, 2.5}[i%6])
	}
	arr := b.NewArray()
	b.Release()
	batch := array.NewRecordBatch(arrow.NewSchema([]arrow.Field{{Name: "x", Type: arr.DataType(), Nullable: true}}, nil), []arrow.Array{arr}, int64(arr.Len()))
	arr.Release()
	defer batch.Release()
	buf, _ := writeParquet(t, cols, ParquetWriterOptions{}, batch)
	lo, hi, _, ok := openBytes(t, buf, "nan.parquet").ColumnStats(0, readColumnsOf(cols)[0])
	if !ok || lo != -1.25 || hi != 100.0 {
		t.Fatalf("bounds %v..%v (ok %v), want -1.25..100", lo, hi, ok)
	}
}
