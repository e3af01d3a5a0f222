package storage

import (
	"bytes"
	"encoding/binary"
	"math"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/extensions"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/google/uuid"
)

var (
	timestampType   = &arrow.TimestampType{Unit: arrow.Microsecond}
	timestampTzType = &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"}
)

// allTypesColumns covers every type the writer supports.
func allTypesColumns() []WriteColumn {
	return []WriteColumn{
		{FieldID: 1, Name: "b", Type: arrow.FixedWidthTypes.Boolean},
		{FieldID: 2, Name: "i", Type: arrow.PrimitiveTypes.Int32},
		{FieldID: 3, Name: "l", Type: arrow.PrimitiveTypes.Int64, Required: true},
		{FieldID: 4, Name: "f", Type: arrow.PrimitiveTypes.Float32},
		{FieldID: 5, Name: "d", Type: arrow.PrimitiveTypes.Float64},
		{FieldID: 6, Name: "dt", Type: arrow.FixedWidthTypes.Date32},
		{FieldID: 7, Name: "tm", Type: arrow.FixedWidthTypes.Time64us},
		{FieldID: 8, Name: "ts", Type: timestampType},
		{FieldID: 9, Name: "tstz", Type: timestampTzType},
		{FieldID: 10, Name: "dec9", Type: &arrow.Decimal128Type{Precision: 9, Scale: 2}},
		{FieldID: 11, Name: "dec18", Type: &arrow.Decimal128Type{Precision: 18, Scale: 4}},
		{FieldID: 12, Name: "dec38", Type: &arrow.Decimal128Type{Precision: 38, Scale: 10}},
		{FieldID: 13, Name: "s", Type: arrow.BinaryTypes.String},
		{FieldID: 14, Name: "bin", Type: arrow.BinaryTypes.Binary},
		{FieldID: 15, Name: "u", Type: extensions.NewUUIDType()},
		{FieldID: 16, Name: "fx", Type: &arrow.FixedSizeBinaryType{ByteWidth: 3}},
	}
}

// allTypesBatch builds n rows starting at row start; every 5th row is NULL
// (except in the required column), and values cover negatives, pre-1970
// instants, NaN and empty strings.
func allTypesBatch(mem memory.Allocator, cols []WriteColumn, start, n int) arrow.RecordBatch {
	fields := make([]arrow.Field, len(cols))
	for i, c := range cols {
		fields[i] = arrow.Field{Name: c.Name, Type: c.Type, Nullable: !c.Required}
	}
	b := array.NewRecordBuilder(mem, arrow.NewSchema(fields, nil))
	defer b.Release()
	for r := start; r < start+n; r++ {
		null := r%5 == 4
		for i, c := range cols {
			fb := b.Field(i)
			if null && !c.Required {
				fb.AppendNull()
				continue
			}
			appendValue(fb, r)
		}
	}
	return b.NewRecordBatch()
}

func appendValue(fb array.Builder, r int) {
	v := int64(r) - 50
	switch fb := fb.(type) {
	case *array.BooleanBuilder:
		fb.Append(r%3 == 0)
	case *array.Int32Builder:
		fb.Append(int32(v * 1000))
	case *array.Int64Builder:
		fb.Append(v * 1_000_000_007)
	case *array.Float32Builder:
		if r%7 == 3 {
			fb.Append(float32(math.NaN()))
		} else {
			fb.Append(float32(v) / 4)
		}
	case *array.Float64Builder:
		if r%7 == 3 {
			fb.Append(math.NaN())
		} else {
			fb.Append(float64(v) / 8)
		}
	case *array.Date32Builder:
		fb.Append(arrow.Date32(v * 400)) // before and after 1970
	case *array.Time64Builder:
		fb.Append(arrow.Time64((r % 86400) * 1_000_001))
	case *array.TimestampBuilder:
		fb.Append(arrow.Timestamp(v*86_400_000_000*37 + 123))
	case *array.Decimal128Builder:
		fb.Append(decimal128.FromI64(v * 12345))
	case *array.StringBuilder:
		fb.Append(strings.Repeat("é", r%4) + strings.Repeat("x", r%23))
	case *array.BinaryBuilder:
		fb.Append(bytes.Repeat([]byte{byte(r)}, r%3))
	case *extensions.UUIDBuilder:
		var u uuid.UUID
		binary.BigEndian.PutUint64(u[8:], uint64(r))
		u[0] = byte(r)
		fb.Append(u)
	case *array.FixedSizeBinaryBuilder:
		fb.Append([]byte{byte(r), byte(r >> 8), 0xff})
	default:
		panic(fb)
	}
}

func readColumnsOf(cols []WriteColumn) []ReadColumn {
	rc := make([]ReadColumn, len(cols))
	for i, c := range cols {
		rc[i] = ReadColumn{FieldID: c.FieldID, Name: c.Name, Type: c.Type}
	}
	return rc
}

func TestParquetRoundTripAllTypes(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	cols := allTypesColumns()
	for _, codec := range []string{"zstd", "snappy", "gzip", "uncompressed"} {
		t.Run(codec, func(t *testing.T) {
			batches := []arrow.RecordBatch{allTypesBatch(mem, cols, 0, 37), allTypesBatch(mem, cols, 37, 100)}
			defer batches[0].Release()
			defer batches[1].Release()
			data, m := writeParquet(t, cols, ParquetWriterOptions{Compression: codec, RowGroupRows: 40}, batches...)
			if m.RecordCount != 137 {
				t.Fatalf("RecordCount = %d", m.RecordCount)
			}
			f := openBytes(t, data, "mem://roundtrip.parquet")
			if f.NumRows() != 137 || f.NumRowGroups() != 4 || f.RowGroupNumRows(3) != 17 || f.RowGroupBytes(0) <= 0 {
				t.Fatalf("rows %d, row groups %d", f.NumRows(), f.NumRowGroups())
			}
			got := readAll(t, f, readColumnsOf(cols), 16, mem)
			defer releaseAll(got)
			want := allTypesBatch(mem, cols, 0, 137)
			defer want.Release()
			for i, c := range cols {
				// NaN != NaN under array.Equal; ApproxEqual with NaNs equal does the job.
				if !array.ApproxEqual(got[i], want.Column(i), array.WithNaNsEqual(true)) {
					t.Errorf("column %s:\n got %v\nwant %v", c.Name, got[i], want.Column(i))
				}
			}
		})
	}
}

func TestParquetWriterSchema(t *testing.T) {
	cols := allTypesColumns()
	data, _ := writeParquet(t, cols, ParquetWriterOptions{})
	f := openBytes(t, data, "mem://schema.parquet")
	wantTypes := []string{"BOOLEAN", "INT32 (INT(32,true))", "INT64 (INT(64,true))", "FLOAT", "DOUBLE", "INT32 (DATE)",
		"INT64 (TIME(isAdjustedToUTC=false,unit=MICROS))", "INT64 (TIMESTAMP(isAdjustedToUTC=false,unit=MICROS))",
		"INT64 (TIMESTAMP(isAdjustedToUTC=true,unit=MICROS))", "INT32 (DECIMAL(9,2))", "INT64 (DECIMAL(18,4))",
		"FIXED_LEN_BYTE_ARRAY (DECIMAL(38,10))", "BYTE_ARRAY (STRING)", "BYTE_ARRAY", "FIXED_LEN_BYTE_ARRAY (UUID)", "FIXED_LEN_BYTE_ARRAY"}
	fileCols := f.file.Root().Columns()
	for i, c := range fileCols {
		if c.Name() != cols[i].Name || c.ID() != cols[i].FieldID || c.Required() != cols[i].Required || typeName(c.Type()) != wantTypes[i] {
			t.Errorf("column %d: %s id=%d required=%v %s", i, c.Name(), c.ID(), c.Required(), typeName(c.Type()))
		}
	}
	if l := fileCols[11].Type().Length(); l != 16 {
		t.Errorf("decimal(38) stored in %d bytes, want 16", l)
	}
	if decimalBytes(10) != 5 || decimalBytes(19) != 9 {
		t.Errorf("decimalBytes(10)=%d decimalBytes(19)=%d", decimalBytes(10), decimalBytes(19))
	}
}

func TestParquetMetrics(t *testing.T) {
	mem := memory.NewGoAllocator()
	cols := []WriteColumn{
		{FieldID: 1, Name: "s", Type: arrow.BinaryTypes.String},
		{FieldID: 2, Name: "d", Type: arrow.PrimitiveTypes.Float64},
		{FieldID: 3, Name: "i", Type: arrow.PrimitiveTypes.Int32, Required: true},
		{FieldID: 4, Name: "bin", Type: arrow.BinaryTypes.Binary},
		{FieldID: 5, Name: "dec", Type: &arrow.Decimal128Type{Precision: 9, Scale: 2}},
		{FieldID: 6, Name: "allnull", Type: arrow.PrimitiveTypes.Float32},
		{FieldID: 7, Name: "maxrune", Type: arrow.BinaryTypes.String},
	}
	fields := make([]arrow.Field, len(cols))
	for i, c := range cols {
		fields[i] = arrow.Field{Name: c.Name, Type: c.Type, Nullable: !c.Required}
	}
	b := array.NewRecordBuilder(mem, arrow.NewSchema(fields, nil))
	defer b.Release()
	b.Field(0).(*array.StringBuilder).AppendValues([]string{"abcdefghijklmnopqrstuvwxyz", "", "abcdefghijklmnopzzzzzzzzz", ""}, []bool{true, true, true, false})
	b.Field(1).(*array.Float64Builder).AppendValues([]float64{1.5, math.NaN(), -2, 0}, []bool{true, true, true, false})
	b.Field(2).(*array.Int32Builder).AppendValues([]int32{7, -3, 9, 0}, nil)
	b.Field(3).(*array.BinaryBuilder).AppendValues([][]byte{bytes.Repeat([]byte{0xff}, 20), {0x01, 0xff}, nil, nil}, []bool{true, true, false, false})
	b.Field(4).(*array.Decimal128Builder).AppendValues([]decimal128.Num{decimal128.FromI64(-12345), decimal128.FromI64(100), {}, {}}, []bool{true, true, false, false})
	b.Field(5).AppendNulls(4)
	b.Field(6).(*array.StringBuilder).AppendValues([]string{strings.Repeat("\U0010FFFF", 17), "a", "b", "c"}, nil)
	batch := b.NewRecordBatch()
	defer batch.Release()
	_, m := writeParquet(t, cols, ParquetWriterOptions{}, batch)

	le32 := func(v int32) []byte { return binary.LittleEndian.AppendUint32(nil, uint32(v)) }
	le64f := func(v float64) []byte { return binary.LittleEndian.AppendUint64(nil, math.Float64bits(v)) }
	checks := []struct {
		name string
		got  any
		want any
	}{
		{"value counts", m.ValueCounts, map[int]int64{1: 4, 2: 4, 3: 4, 4: 4, 5: 4, 6: 4, 7: 4}},
		{"null counts", m.NullCounts, map[int]int64{1: 1, 2: 1, 3: 0, 4: 2, 5: 2, 6: 4, 7: 0}},
		{"nan counts", m.NaNCounts, map[int]int64{2: 1, 6: 0}},
		{"lower s", bound(m.LowerBounds, 1), []byte("")},
		{"upper s", bound(m.UpperBounds, 1), []byte("abcdefghijklmnoq")},
		{"lower d", bound(m.LowerBounds, 2), le64f(-2)},
		{"upper d", bound(m.UpperBounds, 2), le64f(1.5)},
		{"lower i", bound(m.LowerBounds, 3), le32(-3)},
		{"upper i", bound(m.UpperBounds, 3), le32(9)},
		{"lower bin", bound(m.LowerBounds, 4), []byte{0x01, 0xff}},
		{"upper bin", bound(m.UpperBounds, 4), []byte(nil)}, // 16 x 0xff cannot be incremented
		{"lower dec", bound(m.LowerBounds, 5), []byte{0xcf, 0xc7}},
		{"upper dec", bound(m.UpperBounds, 5), []byte{0x64}},
		{"lower allnull", bound(m.LowerBounds, 6), []byte(nil)},
		{"lower maxrune", bound(m.LowerBounds, 7), []byte("a")},
		{"upper maxrune", bound(m.UpperBounds, 7), []byte(nil)},
	}
	for _, c := range checks {
		if !equalValues(c.got, c.want) {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
	if len(m.ColumnSizes) != len(cols) || m.ColumnSizes[1] <= 0 {
		t.Errorf("column sizes %v", m.ColumnSizes)
	}
}

// bound returns a bound, nil when absent and non-nil (maybe empty) when present.
func bound(bounds map[int][]byte, id int) []byte {
	b, ok := bounds[id]
	if ok && b == nil {
		return []byte{}
	}
	return b
}

func equalValues(got, want any) bool {
	switch w := want.(type) {
	case []byte:
		g, _ := got.([]byte)
		return bytes.Equal(g, w) && (g == nil) == (w == nil)
	case map[int]int64:
		g := got.(map[int]int64)
		if len(g) != len(w) {
			return false
		}
		for k, v := range w {
			if gv, ok := g[k]; !ok || gv != v {
				return false
			}
		}
		return true
	}
	return false
}

func TestTruncateBounds(t *testing.T) {
	lo, hi := truncateString([]byte("ab"), []byte("abcdefghijklmnop\U0010FFFFq"))
	if string(lo) != "ab" || string(hi) != "abcdefghijklmnoq" {
		t.Errorf("got %q %q", lo, hi)
	}
	_, hi = truncateString(nil, []byte("abcdefghijklmno\uD7FFz"))
	if string(hi) != "abcdefghijklmno\uE000" {
		t.Errorf("surrogate skip: got %q", hi)
	}
	lo, hi = truncateBinary(bytes.Repeat([]byte{1}, 20), append(bytes.Repeat([]byte{2}, 15), 0xff, 0xff))
	if !bytes.Equal(lo, bytes.Repeat([]byte{1}, 16)) || !bytes.Equal(hi, append(bytes.Repeat([]byte{2}, 14), 3)) {
		t.Errorf("got %x %x", lo, hi)
	}
}
