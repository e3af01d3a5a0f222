package storage

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// columnRows is a STRING column's rows (nil for NULL), read from a plain
// String array or through a Dictionary array's codes.
func columnRows(t *testing.T, arr arrow.Array) []*string {
	t.Helper()
	out := make([]*string, arr.Len())
	for i := range out {
		if arr.IsNull(i) {
			continue
		}
		var v string
		switch a := arr.(type) {
		case *array.String:
			v = a.Value(i)
		case *array.Dictionary:
			v = a.Dictionary().(*array.String).Value(a.GetValueIndex(i))
		default:
			t.Fatalf("column is %T", arr)
		}
		out[i] = &v
	}
	return out
}

// readStrings reads column col of every row group of f (with the given
// predicates and, when set, the rows a row group's ranges give) and
// returns its rows, the Go types of its arrays and each batch's schema type.
func readStrings(t *testing.T, f *ParquetFile, cols []ReadColumn, col int, preds []ColumnPredicate, ranges func(rg int) []RowRange, mem memory.Allocator) (rows []*string, kinds []string) {
	t.Helper()
	for rg := range f.NumRowGroups() {
		var r []RowRange
		if ranges != nil {
			r = ranges(rg)
		}
		it, _, err := f.ReadRowGroupFiltered(context.Background(), rg, cols, r, preds, 1000, mem)
		if err != nil {
			t.Fatal(err)
		}
		for {
			b, err := it.Next()
			if err != nil {
				t.Fatal(err)
			}
			if b == nil {
				break
			}
			arr := b.Column(col)
			if !arrow.TypeEqual(b.Schema().Field(col).Type, arr.DataType()) {
				t.Fatalf("batch schema says %s for a %s column", b.Schema().Field(col).Type, arr.DataType())
			}
			rows = append(rows, columnRows(t, arr)...)
			kinds = append(kinds, fmt.Sprintf("%T", arr))
			b.Release()
		}
		it.Close()
	}
	return rows, kinds
}

func sameStrings(got, want []*string) error {
	if len(got) != len(want) {
		return fmt.Errorf("%d rows, want %d", len(got), len(want))
	}
	for i := range got {
		if (got[i] == nil) != (want[i] == nil) || (got[i] != nil && *got[i] != *want[i]) {
			g, w := "NULL", "NULL"
			if got[i] != nil {
				g = *got[i]
			}
			if want[i] != nil {
				w = *want[i]
			}
			return fmt.Errorf("row %d is %q, want %q", i, g, w)
		}
	}
	return nil
}

// A dictionary-encoded chunk asked for as a dictionary reads as codes into
// the chunk's dictionary, NULLs kept, whole or at late-materialized rows;
// a PLAIN chunk of the same request reads as strings.
func TestReadDictionaryChunks(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	cols := layoutColumns()
	batches := []arrow.RecordBatch{layoutBatch(mem, 0, 30_000), layoutBatch(mem, 30_000, 30_000)}
	defer func() {
		for _, b := range batches {
			b.Release()
		}
	}()
	b, _ := writeParquet(t, cols, ParquetWriterOptions{PageRows: 4000, RowGroupBytes: 32 << 10}, batches...)
	f := openBytes(t, b, "dict.parquet")
	if f.NumRowGroups() < 2 {
		t.Fatalf("%d row groups, want several", f.NumRowGroups())
	}
	read := readColumnsOf(cols)
	read[1].Dictionary, read[2].Dictionary = true, true
	var wantCat, wantNote []*string
	for _, batch := range batches {
		wantCat = append(wantCat, columnRows(t, batch.Column(1))...)
		wantNote = append(wantNote, columnRows(t, batch.Column(2))...)
	}
	got, kinds := readStrings(t, f, read, 1, nil, nil, mem)
	if err := sameStrings(got, wantCat); err != nil {
		t.Fatalf("category: %v", err)
	}
	if slices.ContainsFunc(kinds, func(k string) bool { return k != "*array.Dictionary" }) {
		t.Fatalf("category read as %v, want dictionaries", kinds)
	}
	// note is unique per row: written PLAIN, read as strings.
	got, kinds = readStrings(t, f, read, 2, nil, nil, mem)
	if err := sameStrings(got, wantNote); err != nil {
		t.Fatalf("note: %v", err)
	}
	if slices.ContainsFunc(kinds, func(k string) bool { return k != "*array.String" }) {
		t.Fatalf("note read as %v, want strings", kinds)
	}

	// Late materialization: id < 100 or a page range decodes category at
	// a few rows only.
	pred := []ColumnPredicate{{Col: 0, Op: OpLt, Values: []int64{100}}}
	got, kinds = readStrings(t, f, read, 1, pred, nil, mem)
	if err := sameStrings(got, wantCat[:100]); err != nil {
		t.Fatalf("category at id < 100: %v", err)
	}
	if len(kinds) == 0 || kinds[0] != "*array.Dictionary" {
		t.Fatalf("category at id < 100 read as %v", kinds)
	}
	rangeRows := func(rg int) []RowRange {
		if rg == 0 {
			return []RowRange{{Start: 5, End: 9}, {Start: 4100, End: 4103}}
		}
		return []RowRange{}
	}
	got, _ = readStrings(t, f, read, 1, nil, rangeRows, mem)
	want := slices.Concat(wantCat[5:9], wantCat[4100:4103])
	if err := sameStrings(got, want); err != nil {
		t.Fatalf("category in page ranges: %v", err)
	}

	// category IN ('cat-3', 'cat-5') is tested on the codes: asked for as
	// strings, the kept rows come as strings, else as codes.
	want = nil
	for i, v := range wantCat[:1000] {
		if v != nil && (*v == "cat-3" || *v == "cat-5") {
			want = append(want, wantCat[i])
		}
	}
	preds := []ColumnPredicate{{Col: 1, Op: OpEq, Strings: []string{"cat-3", "cat-5"}}, {Col: 0, Op: OpLt, Values: []int64{1000}}}
	for _, asked := range []bool{false, true} {
		read[1].Dictionary = asked
		got, kinds = readStrings(t, f, read, 1, preds, nil, mem)
		if err := sameStrings(got, want); err != nil {
			t.Fatalf("category IN (…), asked as dictionary %v: %v", asked, err)
		}
		wantKind := map[bool]string{false: "*array.String", true: "*array.Dictionary"}[asked]
		if kinds[0] != wantKind {
			t.Fatalf("category IN (…), asked as dictionary %v: read as %v", asked, kinds[0])
		}
	}
}

// A chunk whose dictionary outgrows DictBytes continues in PLAIN pages: asked
// for as a dictionary, it reads back whole as strings, NULLs kept, also at
// late-materialized rows on both sides of the switch.
func TestReadDictionaryFallbackChunk(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
	}, nil)
	cols := []WriteColumn{{FieldID: 1, Name: "id", Type: arrow.PrimitiveTypes.Int64, Required: true}, {FieldID: 2, Name: "s", Type: arrow.BinaryTypes.String}}
	build := func(start, n int) arrow.RecordBatch {
		b := array.NewRecordBuilder(mem, schema)
		defer b.Release()
		for r := start; r < start+n; r++ {
			b.Field(0).(*array.Int64Builder).Append(int64(r))
			switch {
			case r%13 == 0:
				b.Field(1).AppendNull()
			case r < 30_000:
				b.Field(1).(*array.StringBuilder).Append(fmt.Sprintf("v%d", r%50)) // the sample sees few values
			default:
				b.Field(1).(*array.StringBuilder).Append(fmt.Sprintf("distinct value %d", r))
			}
		}
		return b.NewRecordBatch()
	}
	batches := []arrow.RecordBatch{build(0, 30_000), build(30_000, 70_000)}
	defer func() {
		for _, b := range batches {
			b.Release()
		}
	}()
	b, _ := writeParquet(t, cols, ParquetWriterOptions{DictBytes: 64 << 10}, batches...)
	f := openBytes(t, b, "fallback.parquet")
	read := readColumnsOf(cols)
	read[1].Dictionary = true
	var want []*string
	for _, batch := range batches {
		want = append(want, columnRows(t, batch.Column(1))...)
	}
	got, kinds := readStrings(t, f, read, 1, nil, nil, mem)
	if err := sameStrings(got, want); err != nil {
		t.Fatalf("fallback chunk: %v", err)
	}
	if kinds[0] != "*array.String" {
		t.Fatalf("fallback chunk read as %v, want strings", kinds[0])
	}
	// Every 10th row: sparse enough for late materialization, spanning
	// the dictionary pages and the PLAIN ones.
	var tenth []int64
	var wantTenth []*string
	for r := 0; r < 100_000; r += 10 {
		tenth = append(tenth, int64(r))
		wantTenth = append(wantTenth, want[r])
	}
	got, _ = readStrings(t, f, read, 1, []ColumnPredicate{NewInPredicate(0, tenth)}, nil, mem)
	if err := sameStrings(got, wantTenth); err != nil {
		t.Fatalf("fallback chunk at every 10th row: %v", err)
	}
}
