package storage

import (
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

func TestInferCSVSchema(t *testing.T) {
	data := "b,i,f,d,ts,mixed_time,s,empty\n" +
		"true,1,1,2024-01-02,2024-01-02 10:00:00,2024-01-02,x,\n" +
		"False,-2,2.5,2024-01-03,2024-01-03T10:00:00.25,2024-01-02 03:04:05,1,\n" +
		",,,,,,,\n"
	fields, err := InferCSVSchema(strings.NewReader(data), "t.csv", CSVOptions{Header: true, Delim: ','})
	if err != nil {
		t.Fatal(err)
	}
	want := []arrow.DataType{arrow.FixedWidthTypes.Boolean, arrow.PrimitiveTypes.Int64, arrow.PrimitiveTypes.Float64,
		arrow.FixedWidthTypes.Date32, timestampMicros, timestampMicros, arrow.BinaryTypes.String, arrow.BinaryTypes.String}
	for i, f := range fields {
		if !arrow.TypeEqual(f.Type, want[i]) {
			t.Errorf("column %s: got %s, want %s", f.Name, f.Type, want[i])
		}
	}
}

func TestCSVReaderErrors(t *testing.T) {
	opts := CSVOptions{Header: true, Delim: ','}
	fields := []arrow.Field{{Name: "n", Type: arrow.PrimitiveTypes.Int64, Nullable: true}}
	for _, tc := range []struct{ data, want string }{
		{"n\n1\nx\n", "read csv t.csv line 3 column n: cannot parse \"x\" as BIGINT"},
		{"m\n1\n", "read csv t.csv: column 1 is m, the first file's is n"},
		{"n\n1,2\n", "t.csv"},
	} {
		r := NewCSVReader(strings.NewReader(tc.data), "t.csv", opts, fields, 10, memory.DefaultAllocator)
		_, err := r.Next()
		r.Release()
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: got %v, want %s", tc.data, err, tc.want)
		}
	}
}
