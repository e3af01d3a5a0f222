package storage

import (
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/iceberg-go"
	"github.com/parquet-go/parquet-go"
)

func idField(name string, id int, t arrow.DataType, nullable bool) arrow.Field {
	return WithFieldID(arrow.Field{Name: name, Type: t, Nullable: nullable}, id)
}

// nestedColumns has a struct holding a list of structs and a map of lists, a
// list of lists and a map, with NULLs possible at every level.
func nestedColumns() []WriteColumn {
	inner := arrow.StructOf(idField("x", 10, arrow.BinaryTypes.String, true), idField("y", 11, arrow.ListOfField(idField("element", 12, arrow.PrimitiveTypes.Int32, true)), true))
	mapOfLists := arrow.MapOfFields(idField("key", 14, arrow.BinaryTypes.String, false),
		idField("value", 15, arrow.ListOfField(idField("element", 16, arrow.PrimitiveTypes.Float64, true)), true))
	s := arrow.StructOf(
		idField("a", 7, arrow.PrimitiveTypes.Int64, true),
		idField("l", 8, arrow.ListOfField(idField("element", 9, inner, true)), true),
		idField("m", 13, mapOfLists, true),
	)
	ll := arrow.ListOfField(idField("element", 17, arrow.ListOfField(idField("element", 18, arrow.PrimitiveTypes.Int32, false)), true))
	m := arrow.MapOfFields(idField("key", 19, arrow.PrimitiveTypes.Int32, false), idField("value", 20, arrow.BinaryTypes.String, true))
	return []WriteColumn{
		{FieldID: 1, Name: "id", Type: arrow.PrimitiveTypes.Int32, Required: true},
		{FieldID: 2, Name: "s", Type: s, Iceberg: icebergOf(s)},
		{FieldID: 3, Name: "ll", Type: ll, Iceberg: icebergOf(ll)},
		{FieldID: 4, Name: "m", Type: m, Iceberg: icebergOf(m)},
	}
}

// icebergOf is the Iceberg type of an Arrow type whose fields carry ids.
func icebergOf(t arrow.DataType) iceberg.Type {
	switch t := t.(type) {
	case *arrow.StructType:
		var fields []iceberg.NestedField
		for _, f := range t.Fields() {
			fields = append(fields, iceberg.NestedField{ID: FieldIDOf(f), Name: f.Name, Type: icebergOf(f.Type), Required: !f.Nullable})
		}
		return &iceberg.StructType{FieldList: fields}
	case *arrow.ListType:
		return &iceberg.ListType{ElementID: FieldIDOf(t.ElemField()), Element: icebergOf(t.Elem()), ElementRequired: !t.ElemField().Nullable}
	case *arrow.MapType:
		return &iceberg.MapType{KeyID: FieldIDOf(t.KeyField()), KeyType: icebergOf(t.KeyType()), ValueID: FieldIDOf(t.ItemField()),
			ValueType: icebergOf(t.ItemType()), ValueRequired: !t.ItemField().Nullable}
	case *arrow.Int32Type:
		return iceberg.PrimitiveTypes.Int32
	case *arrow.Int64Type:
		return iceberg.PrimitiveTypes.Int64
	case *arrow.Float64Type:
		return iceberg.PrimitiveTypes.Float64
	}
	return iceberg.PrimitiveTypes.String
}

// nestedRows are JSON rows of nestedColumns: NULL and empty at each level.
var nestedRows = []string{
	`{"id": 1, "s": {"a": 1, "l": [{"x": "p", "y": [1, null, 3]}, null, {"x": null, "y": []}, {"x": "q", "y": null}], "m": [{"key": "k1", "value": [1.5, null]}, {"key": "k2", "value": null}, {"key": "k3", "value": []}]}, "ll": [[1, 2], [], null, [3]], "m": [{"key": 1, "value": "one"}, {"key": 2, "value": null}]}`,
	`{"id": 2, "s": null, "ll": null, "m": null}`,
	`{"id": 3, "s": {"a": null, "l": null, "m": null}, "ll": [], "m": []}`,
	`{"id": 4, "s": {"a": 4, "l": [], "m": []}, "ll": [null], "m": [{"key": 4, "value": "four"}]}`,
	`{"id": 5, "s": {"a": 5, "l": [null, null], "m": [{"key": "", "value": [null]}]}, "ll": [[], [5, 6, 7]], "m": null}`,
}

func nestedBatch(t *testing.T, mem memory.Allocator, cols []WriteColumn, copies int) arrow.RecordBatch {
	t.Helper()
	fields := make([]arrow.Field, len(cols))
	for i, c := range cols {
		fields[i] = arrow.Field{Name: c.Name, Type: c.Type, Nullable: !c.Required}
	}
	rows := strings.Repeat(strings.Join(nestedRows, "\n")+"\n", copies)
	b, _, err := array.RecordFromJSON(mem, arrow.NewSchema(fields, nil), strings.NewReader("["+strings.ReplaceAll(strings.TrimSpace(rows), "\n", ",")+"]"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestParquetNestedRoundTrip(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	cols := nestedColumns()
	// Small pages and row groups: rows and lists span page boundaries.
	want := nestedBatch(t, mem, cols, 400)
	defer want.Release()
	data, metrics := writeParquet(t, cols, ParquetWriterOptions{PageRows: 7, RowGroupRows: 300}, want)
	f := openBytes(t, data, "nested.parquet")
	if f.NumRowGroups() < 2 {
		t.Fatalf("%d row groups", f.NumRowGroups())
	}
	got := readAll(t, f, readColumnsOf(cols), 64, mem)
	defer releaseAll(got)
	for i, c := range cols {
		if !array.Equal(got[i], want.Column(i)) {
			t.Errorf("column %s differs:\n got %v\nwant %v", c.Name, got[i], want.Column(i))
		}
	}
	// Every leaf's size is reported under its own field id.
	for _, id := range []int{1, 7, 10, 12, 14, 16, 18, 19, 20} {
		if metrics.ColumnSizes[id] <= 0 {
			t.Errorf("no column size for field %d: %v", id, metrics.ColumnSizes)
		}
	}
	// Leaves under structs only have counts and bounds (s.a: 2 of each 5
	// rows NULL, 1 to 5); leaves under a list or map have none.
	if metrics.ValueCounts[7] != 2000 || metrics.NullCounts[7] != 800 {
		t.Errorf("s.a counts: %d values, %d nulls", metrics.ValueCounts[7], metrics.NullCounts[7])
	}
	if lo, hi := metrics.LowerBounds[7], metrics.UpperBounds[7]; len(lo) != 8 || lo[0] != 1 || len(hi) != 8 || hi[0] != 5 {
		t.Errorf("s.a bounds %v %v", lo, hi)
	}
	if _, ok := metrics.LowerBounds[10]; ok {
		t.Errorf("a leaf under a list has bounds")
	}
	// The file's schema carries every nested field id, in the 3-level list form.
	s := f.file.Schema().String()
	for _, frag := range []string{"repeated group list", "repeated group key_value", "= 12;", "= 20;"} {
		if !strings.Contains(s, frag) {
			t.Errorf("schema lacks %q:\n%s", frag, s)
		}
	}
}

// A query type that names fewer struct fields (or fields the file lacks)
// reads only the leaves it names, matched by field id even when renamed.
func TestParquetNestedProjection(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	cols := nestedColumns()
	batch := nestedBatch(t, mem, cols, 1)
	defer batch.Release()
	data, _ := writeParquet(t, cols, ParquetWriterOptions{}, batch)
	f := openBytes(t, data, "nested.parquet")
	// s.a renamed to "renamed", s.l dropped, and a field 99 the file lacks.
	want := arrow.StructOf(idField("renamed", 7, arrow.PrimitiveTypes.Int64, true), idField("added", 99, arrow.BinaryTypes.String, true))
	read := []ReadColumn{{FieldID: 2, Name: "s", Type: want}}
	if n, all := f.ColumnBytes(0, read), f.RowGroupBytes(0); n <= 0 || n*4 > all {
		t.Errorf("ColumnBytes = %d of %d: reads more than s.a's chunk", n, all)
	}
	got := readAll(t, f, read, 64, mem)
	defer releaseAll(got)
	exp, _, err := array.FromJSON(mem, want, strings.NewReader(`[{"renamed": 1, "added": null}, null, {"renamed": null, "added": null}, {"renamed": 4, "added": null}, {"renamed": 5, "added": null}]`))
	if err != nil {
		t.Fatal(err)
	}
	defer exp.Release()
	if !array.Equal(got[0], exp) {
		t.Errorf("got %v\nwant %v", got[0], exp)
	}
	// A struct none of whose fields the file has still has its NULLs.
	only := arrow.StructOf(idField("gone", 98, arrow.PrimitiveTypes.Int32, true))
	got2 := readAll(t, f, []ReadColumn{{FieldID: 2, Name: "s", Type: only}}, 64, mem)
	defer releaseAll(got2)
	if got2[0].NullN() != 1 || !got2[0].IsNull(1) {
		t.Errorf("struct without file fields: %v", got2[0])
	}
}

// Files written by another writer (parquet-go's own, from Go structs) in
// the three-level list form read the same.
func TestParquetNestedForeignWriter(t *testing.T) {
	type point struct {
		X *string `parquet:"x,optional"`
		Y []int32 `parquet:"y,list"`
	}
	type row struct {
		ID     int32            `parquet:"id"`
		Points []point          `parquet:"points,list"`
		Tags   map[string]int64 `parquet:"tags"`
		P      *point           `parquet:"p,optional"`
	}
	str := func(s string) *string { return &s }
	rows := []row{
		{ID: 1, Points: []point{{X: str("a"), Y: []int32{1, 2}}, {Y: []int32{}}}, Tags: map[string]int64{"k": 7}, P: &point{X: str("z")}},
		{ID: 2},
	}
	var buf strings.Builder
	w := parquet.NewGenericWriter[row](&buf)
	if _, err := w.Write(rows); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	f := openBytes(t, []byte(buf.String()), "foreign.parquet")
	cols, err := f.Columns()
	if err != nil {
		t.Fatal(err)
	}
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	got := readAll(t, f, cols, 64, mem)
	defer releaseAll(got)
	var lines []string
	for i := range 2 {
		var cells []string
		for _, a := range got {
			cells = append(cells, a.ValueStr(i))
		}
		lines = append(lines, strings.Join(cells, " | "))
	}
	want := []string{
		`1 | [{"x":"a","y":[1,2]},{"x":null,"y":[]}] | [{"key":"k","value":7}] | {"x":"z","y":[]}`,
		`2 | [] | [] | (null)`,
	}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
}
