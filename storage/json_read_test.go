package storage

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakesql/lakesql/value"
)

// readJSON infers the schema of text and reads it in batches of two rows;
// it returns "name TYPE" per column and the rows as value.Format text.
func readJSON(t *testing.T, text string) (cols []string, rows []string, err error) {
	t.Helper()
	fields, err := InferJSONSchema(strings.NewReader(text), "f.json")
	if err != nil {
		return nil, nil, err
	}
	for _, f := range fields {
		cols = append(cols, f.Name+" "+f.Type.String())
	}
	r := NewJSONReader(strings.NewReader(text), "f.json", fields, 2, memory.DefaultAllocator)
	defer r.Release()
	for {
		b, err := r.Next()
		if err != nil {
			return cols, rows, err
		}
		if b == nil {
			return cols, rows, nil
		}
		for i := range int(b.NumRows()) {
			var cells []string
			for c := range int(b.NumCols()) {
				cells = append(cells, value.Format(b.Column(c), i))
			}
			rows = append(rows, strings.Join(cells, "|"))
		}
		b.Release()
	}
}

func TestJSONInferAndRead(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		cols, rows []string
	}{
		{"types", `{"i": 1, "f": 1, "s": "x", "b": true, "d": "2024-01-02", "ts": "2024-01-02T03:04:05.5Z", "n": {"k": [1, 2]}, "z": null}
{"i": -7, "f": 2.5, "s": 3, "b": false, "d": null, "ts": "2024-01-02 10:00:00", "n": [true], "z": null}

{"x": "only here"}
`,
			[]string{"i int64", "f float64", "s utf8", "b bool", "d date32", "ts timestamp[us]", "n utf8", "z utf8", "x utf8"},
			[]string{
				"1|1.0|x|true|2024-01-02|2024-01-02 03:04:05.5|{\"k\":[1,2]}|NULL|NULL",
				"-7|2.5|3|false|NULL|2024-01-02 10:00:00|[true]|NULL|NULL",
				"NULL|NULL|NULL|NULL|NULL|NULL|NULL|NULL|only here",
			}},
		{"top-level array", " [ {\"a\": 1, \"b\": \"<&>\"}, {\"a\": null, \"a\": 2}, {} ] \n",
			[]string{"a int64", "b utf8"},
			[]string{"1|<&>", "2|NULL", "NULL|NULL"}},
		{"mixed kinds are strings", `{"a": 1}` + "\n" + `{"a": true}` + "\n" + `{"a": "2024-01-01"}`,
			[]string{"a utf8"}, []string{"1", "true", "2024-01-01"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cols, rows, err := readJSON(t, tc.text)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Join(cols, ", ") != strings.Join(tc.cols, ", ") {
				t.Errorf("columns %v, want %v", cols, tc.cols)
			}
			if strings.Join(rows, "\n") != strings.Join(tc.rows, "\n") {
				t.Errorf("rows\n%s\nwant\n%s", strings.Join(rows, "\n"), strings.Join(tc.rows, "\n"))
			}
		})
	}
}

func TestJSONErrors(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"{\"a\": 1}\n\n{\"a\": 2,}\n", "read json f.json line 3: malformed JSON: invalid key"},
		{`{"a": 01}`, "read json f.json line 1: malformed JSON: invalid number"},
		{`{"a": "\x"}`, "read json f.json line 1: malformed JSON: invalid string"},
		{`{"a" 1}`, "read json f.json line 1: malformed JSON: expected ':'"},
		{`{"a": [1, }`, "read json f.json line 1: malformed JSON"},
		{`{"a": tru}`, "read json f.json line 1: malformed JSON: invalid token"},
		{`{"a": 1e}`, "read json f.json line 1: malformed JSON: invalid number"},
		{`{"a": {"b": 1}`, "read json f.json line 1: malformed JSON"},
		{`{"a": 1`, "read json f.json line 1: malformed JSON"},
		{"{\"a\": 1} {\"a\": 2}\n", "read json f.json line 1: malformed JSON: text after the object"},
		{"{\"a\": 1}\n[1]\n", "read json f.json line 2: a record must be a JSON object, not [1]"},
		{"[{\"a\": 1}, 2]", "read json f.json element 2: a record must be a JSON object, not 2"},
		{"[{\"a\": 1}", "read json f.json: the top-level array is not closed"},
		{"[{\"a\": 1}] x", "read json f.json: text after the top-level array"},
		{"   \n", "read json f.json: the file holds no object"},
	} {
		_, _, err := readJSON(t, tc.text)
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%q: error %v, want %q", tc.text, err, tc.want)
		}
	}
	// A value that does not fit the type the sampled records gave.
	fields := []arrow.Field{{Name: "a", Type: arrow.PrimitiveTypes.Int64, Nullable: true}}
	r := NewJSONReader(strings.NewReader("{\"a\": 1}\n{\"a\": 1.5}\n"), "f.json", fields, 10, memory.DefaultAllocator)
	defer r.Release()
	if _, err := r.Next(); err == nil || err.Error() != "read json f.json line 2 key a: cannot read 1.5 as BIGINT (the type inferred from the first records)" {
		t.Errorf("error %v", err)
	}
}

func TestJSONWriterRoundTrip(t *testing.T) {
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "i", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "f", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
		{Name: "s \"q\"", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "b", Type: arrow.FixedWidthTypes.Boolean, Nullable: true},
	}, nil)
	bld := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer bld.Release()
	bld.Field(0).(*array.Int64Builder).AppendValues([]int64{1, 0}, []bool{true, false})
	bld.Field(1).(*array.Float64Builder).AppendValues([]float64{0.5, 0}, nil)
	bld.Field(2).(*array.StringBuilder).AppendValues([]string{"a\nb", ""}, nil)
	bld.Field(3).(*array.BooleanBuilder).AppendValues([]bool{true, false}, []bool{true, false})
	batch := bld.NewRecordBatch()
	defer batch.Release()
	var buf bytes.Buffer
	w := NewJSONWriter(&buf, []string{"i", "f", "s \"q\"", "b"})
	if err := w.Write(batch); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	want := "{\"i\":1,\"f\":0.5,\"s \\\"q\\\"\":\"a\\nb\",\"b\":true}\n{\"i\":null,\"f\":0.0,\"s \\\"q\\\"\":\"\",\"b\":null}\n"
	if buf.String() != want {
		t.Fatalf("wrote\n%s\nwant\n%s", buf.String(), want)
	}
	_, rows, err := readJSON(t, buf.String())
	if err != nil || strings.Join(rows, "\n") != "1|0.5|a\nb|true\nNULL|0.0||NULL" {
		t.Errorf("read back %q, %v", rows, err)
	}
}

func TestWriteNewFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.csv")
	write := func(text string) func(w io.Writer) error {
		return func(w io.Writer) error { _, err := io.WriteString(w, text); return err }
	}
	if err := WriteNewFile(path, false, write("one")); err != nil {
		t.Fatal(err)
	}
	if err := WriteNewFile(path, false, write("two")); !errors.Is(err, ErrFileExists) {
		t.Errorf("second write without overwrite: %v", err)
	}
	failed := errors.New("query failed")
	if err := WriteNewFile(path, true, func(w io.Writer) error { io.WriteString(w, "partial"); return failed }); !errors.Is(err, failed) {
		t.Errorf("failed write: %v", err)
	}
	if got, _ := os.ReadFile(path); string(got) != "one" {
		t.Errorf("after refused and failed writes the file holds %q", got)
	}
	if err := WriteNewFile(path, true, write("three")); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(path); string(got) != "three" {
		t.Errorf("after OVERWRITE the file holds %q", got)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("temporary files left behind: %v", entries)
	}
	if info, _ := os.Stat(path); info.Mode().Perm() != 0o644 {
		t.Errorf("mode %v", info.Mode())
	}
	if err := WriteNewFile("s3://bucket/x.csv", true, write("")); err == nil || !strings.Contains(err.Error(), "only local files") {
		t.Errorf("s3 path: %v", err)
	}
}
