package storage

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// twoColumnFile writes a file with field ids 1 (a) and 2 (b).
func twoColumnFile(t testing.TB) []byte {
	mem := memory.NewGoAllocator()
	cols := []WriteColumn{
		{FieldID: 1, Name: "a", Type: arrow.PrimitiveTypes.Int32, Required: true},
		{FieldID: 2, Name: "b", Type: arrow.BinaryTypes.String},
	}
	a, _, _ := array.FromJSON(mem, cols[0].Type, strings.NewReader(`[1, 2, 3]`))
	b, _, _ := array.FromJSON(mem, cols[1].Type, strings.NewReader(`["x", null, "z"]`))
	defer a.Release()
	defer b.Release()
	schema := arrow.NewSchema([]arrow.Field{{Name: "a", Type: cols[0].Type}, {Name: "b", Type: cols[1].Type, Nullable: true}}, nil)
	batch := array.NewRecordBatch(schema, []arrow.Array{a, b}, 3)
	defer batch.Release()
	data, _ := writeParquet(t, cols, ParquetWriterOptions{}, batch)
	return data
}

func TestReadByFieldID(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	f := openBytes(t, twoColumnFile(t), "mem://ids.parquet")
	got := readAll(t, f, []ReadColumn{
		{FieldID: 3, Name: "added", Type: arrow.PrimitiveTypes.Int64}, // not in the file
		{FieldID: 2, Name: "renamed", Type: arrow.BinaryTypes.String}, // matched by id, not name
		{FieldID: 1, Name: "b", Type: arrow.PrimitiveTypes.Int64},     // name of another column, int promoted
	}, 2, mem)
	defer releaseAll(got)
	want := []string{`[(null) (null) (null)]`, `["x" (null) "z"]`, `[1 2 3]`}
	for i, w := range want {
		if got[i].String() != w {
			t.Errorf("column %d = %s, want %s", i, got[i], w)
		}
	}
}

func TestReadByNameWithoutFieldIDs(t *testing.T) {
	// Files without field ids (e.g. imported with add_files) match by name.
	f := openFixture(t, fixtureFiles(t, "no_partitioning")[0])
	f.byID = nil
	mem := memory.NewGoAllocator()
	got := readAll(t, f, []ReadColumn{{FieldID: 42, Name: "c1", Type: arrow.PrimitiveTypes.Int32}}, 10, mem)
	defer releaseAll(got)
	if got[0].Len() != 6 || got[0].NullN() != 0 {
		t.Errorf("got %s", got[0])
	}
}

func TestReadTypeMismatch(t *testing.T) {
	f := openBytes(t, twoColumnFile(t), "mem://mismatch.parquet")
	_, err := f.ReadRowGroup(context.Background(), 0, []ReadColumn{{FieldID: 2, Name: "b", Type: arrow.PrimitiveTypes.Int32}}, 10, memory.NewGoAllocator())
	if err == nil || !strings.Contains(err.Error(), "mem://mismatch.parquet") {
		t.Errorf("err = %v", err)
	}
}

func TestTruncatedFile(t *testing.T) {
	data := twoColumnFile(t)
	const path = "s3://bucket/table/data/truncated.parquet"
	for _, n := range []int{0, 4, len(data) / 2, len(data) - 1} {
		_, err := OpenParquet(bytes.NewReader(data[:n]), int64(n), path)
		if err == nil || !strings.Contains(err.Error(), path) {
			t.Errorf("truncated to %d bytes: err = %v", n, err)
		}
	}
}

func BenchmarkReadRowGroup(b *testing.B) {
	const rows = 1_000_000
	mem := memory.NewGoAllocator()
	cols := []WriteColumn{
		{FieldID: 1, Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{FieldID: 2, Name: "x", Type: arrow.PrimitiveTypes.Float64},
		{FieldID: 3, Name: "s", Type: arrow.BinaryTypes.String},
		{FieldID: 4, Name: "ts", Type: timestampType},
	}
	ib := array.NewInt64Builder(mem)
	fb := array.NewFloat64Builder(mem)
	sb := array.NewStringBuilder(mem)
	tb := array.NewTimestampBuilder(mem, timestampType)
	names := []string{"alpha", "beta", "gamma", "delta", "epsilon-long-string-value"}
	for i := range rows {
		ib.Append(int64(i))
		if i%10 == 0 {
			fb.AppendNull()
		} else {
			fb.Append(float64(i) * 0.5)
		}
		sb.Append(names[i%len(names)])
		tb.Append(arrow.Timestamp(1_700_000_000_000_000 + int64(i)*1000))
	}
	arrs := []arrow.Array{ib.NewArray(), fb.NewArray(), sb.NewArray(), tb.NewArray()}
	fields := make([]arrow.Field, len(cols))
	for i, c := range cols {
		fields[i] = arrow.Field{Name: c.Name, Type: c.Type, Nullable: true}
	}
	batch := array.NewRecordBatch(arrow.NewSchema(fields, nil), arrs, rows)
	data, _ := writeParquet(b, cols, ParquetWriterOptions{Compression: "snappy"}, batch)
	f := openBytes(b, data, "mem://bench.parquet")
	readCols := readColumnsOf(cols)
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for range b.N {
		it, err := f.ReadRowGroup(context.Background(), 0, readCols, 64*1024, mem)
		if err != nil {
			b.Fatal(err)
		}
		for {
			rec, err := it.Next()
			if err != nil {
				b.Fatal(err)
			}
			if rec == nil {
				break
			}
			rec.Release()
		}
		it.Close()
	}
}
