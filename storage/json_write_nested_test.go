package storage

import (
	"bytes"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Nested values are written as JSON objects and arrays, NULL at any level
// as null, map keys as strings.
func TestJSONWriterNested(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	cols := nestedColumns()
	batch := nestedBatch(t, mem, cols, 1)
	defer batch.Release()
	var buf bytes.Buffer
	w := NewJSONWriter(&buf, []string{"id", "s", "ll", "m"})
	if err := w.Write(batch); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	want := []string{
		`{"id":1,"s":{"a":1,"l":[{"x":"p","y":[1,null,3]},null,{"x":null,"y":[]},{"x":"q","y":null}],"m":{"k1":[1.5,null],"k2":null,"k3":[]}},"ll":[[1,2],[],null,[3]],"m":{"1":"one","2":null}}`,
		`{"id":2,"s":null,"ll":null,"m":null}`,
		`{"id":3,"s":{"a":null,"l":null,"m":null},"ll":[],"m":{}}`,
	}
	for i, w := range want {
		if lines[i] != w {
			t.Errorf("line %d:\n got %s\nwant %s", i, lines[i], w)
		}
	}
}
