package main

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// renderTable renders batches in table mode with the given limits.
func renderTable(t *testing.T, maxRows, maxWidth int, batches ...arrow.RecordBatch) string {
	t.Helper()
	var out bytes.Buffer
	res := &fakeResult{schema: batches[0].Schema(), batches: batches}
	o := renderOptions{format: formatTable, maxRows: maxRows, maxWidth: maxWidth}
	if err := renderResult(context.Background(), res, o, &out); err != nil {
		t.Fatal(err)
	}
	return out.String()
}

// numbers is "[from, …, to]" as JSON.
func numbers(from, to int) string {
	var parts []string
	for i := from; i <= to; i++ {
		parts = append(parts, fmt.Sprint(i))
	}
	return "[" + strings.Join(parts, ",") + "]"
}

func TestTableShowsFirstAndLastRowsPastMaxRows(t *testing.T) {
	mem := checkedAlloc(t)
	// Three batches, so the ring of last rows wraps around.
	got := renderTable(t, 5, 0,
		intBatch(t, mem, "n", numbers(1, 4)), intBatch(t, mem, "n", numbers(5, 9)), intBatch(t, mem, "n", numbers(10, 11)))
	want := "┌────┐\n│  n │\n├────┤\n" +
		"│  1 │\n│  2 │\n│  3 │\n│  … │\n│ 10 │\n│ 11 │\n" +
		"└────┘\n11 rows (5 shown)\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	// At the limit, or without one, everything is shown.
	for _, limit := range []int{11, 0, -1} {
		got := renderTable(t, limit, 0, intBatch(t, mem, "n", numbers(1, 11)))
		if strings.Contains(got, "…") || !strings.HasSuffix(got, "(11 rows)\n") {
			t.Errorf("maxRows %d:\n%s", limit, got)
		}
	}
	if got := renderTable(t, 5, 0, intBatch(t, mem, "n", "[7]")); !strings.HasSuffix(got, "(1 row)\n") {
		t.Errorf("one row:\n%s", got)
	}
}

func TestTableFitsTheWidth(t *testing.T) {
	mem := checkedAlloc(t)
	full := renderTable(t, 0, 0, allTypesBatch(t, mem))
	for _, width := range []int{40, 60, 100} {
		got := renderTable(t, 0, width, allTypesBatch(t, mem))
		for _, line := range strings.Split(strings.TrimSuffix(got, "\n"), "\n") {
			if n := len([]rune(line)); n > width && strings.HasPrefix(line, "│") {
				t.Errorf("width %d: line of %d columns: %s", width, n, line)
			}
		}
		// The outer columns stay, the middle ones are dropped behind "…".
		header := strings.Split(got, "\n")[1]
		if !strings.HasPrefix(header, "│ b ") || !strings.HasSuffix(header, " st │") && !strings.Contains(header, " … │") {
			t.Errorf("width %d: header %q", width, header)
		}
		if !strings.Contains(got, "columns (") || !strings.Contains(header, "…") {
			t.Errorf("width %d: no dropped-columns marker:\n%s", width, got)
		}
	}
	if strings.Contains(full, "columns (") {
		t.Errorf("without a width limit columns were dropped:\n%s", full)
	}
}

func TestTableNarrowsColumnsThatStillDoNotFit(t *testing.T) {
	mem := checkedAlloc(t)
	long := fmt.Sprintf("[%q]", strings.Repeat("x", 50))
	a, b := fromJSON(t, mem, arrow.BinaryTypes.String, long), fromJSON(t, mem, arrow.BinaryTypes.String, long)
	defer a.Release()
	defer b.Release()
	schema := arrow.NewSchema([]arrow.Field{{Name: "a", Type: arrow.BinaryTypes.String}, {Name: "b", Type: arrow.BinaryTypes.String}}, nil)
	got := renderTable(t, 0, 20, array.NewRecordBatch(schema, []arrow.Array{a, b}, 1))
	for _, line := range strings.Split(strings.TrimSuffix(got, "\n"), "\n")[:5] {
		if n := len([]rune(line)); n > 20 {
			t.Errorf("line of %d columns: %s", n, line)
		}
	}
	if !strings.Contains(got, "x…") {
		t.Errorf("cut cell lacks the ellipsis:\n%s", got)
	}
}
