package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
)

var rewrite = flag.Bool("rewrite", false, "rewrite the golden files in testdata")

// render renders the batches as one result in format f.
func render(t *testing.T, f outputFormat, batches ...arrow.RecordBatch) string {
	t.Helper()
	var out bytes.Buffer
	res := &fakeResult{schema: batches[0].Schema(), batches: batches}
	if err := renderResult(context.Background(), res, renderOptions{format: f, headers: true}, &out); err != nil {
		t.Fatalf("rendering %s: %v", f, err)
	}
	if !res.closed {
		t.Errorf("rendering %s did not close the result", f)
	}
	return out.String()
}

func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	checkGoldenFile(t, filepath.Join("testdata", name), got)
}

func checkGoldenFile(t *testing.T, path, got string) {
	t.Helper()
	if *rewrite {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("reading golden file (run go test -rewrite to create it): %v", err)
	}
	if got != string(want) {
		t.Errorf("output differs from %s:\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}

func TestRenderAllTypesGolden(t *testing.T) {
	for _, f := range outputFormats {
		t.Run(string(f), func(t *testing.T) {
			mem := checkedAlloc(t)
			got := render(t, f, allTypesBatch(t, mem))
			checkGolden(t, "all_types."+string(f)+".golden", got)
		})
	}
}

func TestCSVIsRFC4180WithEmptyNulls(t *testing.T) {
	mem := checkedAlloc(t)
	records, err := csv.NewReader(strings.NewReader(render(t, formatCSV, allTypesBatch(t, mem)))).ReadAll()
	if err != nil {
		t.Fatalf("csv output does not parse: %v", err)
	}
	if len(records) != 4 {
		t.Fatalf("got %d records, want header + 3 rows", len(records))
	}
	if got := records[2][6]; got != "a,b \"q\" | x\nnext" {
		t.Errorf("quoted field round-trips as %q", got)
	}
	if got := records[3][0]; got != "" {
		t.Errorf("NULL renders as %q, want an empty field", got)
	}
}

func TestJSONParsesWithNumbersAndNulls(t *testing.T) {
	mem := checkedAlloc(t)
	dec := json.NewDecoder(strings.NewReader(render(t, formatJSON, allTypesBatch(t, mem))))
	dec.UseNumber()
	var rows []map[string]any
	if err := dec.Decode(&rows); err != nil {
		t.Fatalf("json output does not parse: %v", err)
	}
	if len(rows) != 3 {
		t.Fatalf("got %d rows, want 3", len(rows))
	}
	checks := []struct {
		row  int
		key  string
		want any
	}{
		{0, "dec", json.Number("-0.05")},
		{1, "dec", json.Number("12345.60")},
		{1, "i64", json.Number("9223372036854775807")},
		{0, "f64", "nan"},
		{2, "b", nil},
		{1, "ts", "1969-12-31 23:59:59.999999"},
		{0, "u", "12345678-9abc-def0-1234-56789abcdef0"},
	}
	for _, c := range checks {
		if got := rows[c.row][c.key]; got != c.want {
			t.Errorf("row %d %s = %#v, want %#v", c.row, c.key, got, c.want)
		}
	}
}

func TestRenderStreamsBatchesAndReleasesThem(t *testing.T) {
	for _, f := range outputFormats {
		t.Run(string(f), func(t *testing.T) {
			mem := checkedAlloc(t)
			got := render(t, f, intBatch(t, mem, "n", "[1, 2]"), intBatch(t, mem, "n", "[3]"))
			for _, want := range []string{"1", "2", "3"} {
				if !strings.Contains(got, want) {
					t.Errorf("output lacks %s:\n%s", want, got)
				}
			}
		})
	}
}

func TestRenderEmptyResult(t *testing.T) {
	want := map[outputFormat]string{
		formatTable:    "┌───┐\n│ n │\n├───┤\n└───┘\n(0 rows)\n",
		formatLine:     "",
		formatListMode: "n\n",
		formatCSV:      "n\n",
		formatTSV:      "n\n",
		formatJSON:     "[]\n",
		formatJSONL:    "",
		formatMarkdown: "| n |\n| ---: |\n",
		formatHTML:     "<table>\n<tr><th>n</th></tr>\n</table>\n",
		formatInsert:   "",
	}
	for _, f := range outputFormats {
		var out bytes.Buffer
		res := &fakeResult{schema: arrow.NewSchema([]arrow.Field{{Name: "n", Type: arrow.PrimitiveTypes.Int64}}, nil)}
		if err := renderResult(context.Background(), res, renderOptions{format: f, headers: true}, &out); err != nil {
			t.Fatal(err)
		}
		if out.String() != want[f] {
			t.Errorf("%s: got %q, want %q", f, out.String(), want[f])
		}
	}
}

func TestRenderMessageOnlyInHumanFormats(t *testing.T) {
	for _, f := range outputFormats {
		var out bytes.Buffer
		if err := renderResult(context.Background(), &fakeResult{message: "OK"}, renderOptions{format: f}, &out); err != nil {
			t.Fatal(err)
		}
		want := ""
		if f == formatTable || f == formatLine || f == formatListMode || f == formatMarkdown {
			want = "OK\n"
		}
		if out.String() != want {
			t.Errorf("%s: got %q, want %q", f, out.String(), want)
		}
	}
}

func TestRenderStreamErrorIsReturnedAndResultClosed(t *testing.T) {
	mem := checkedAlloc(t)
	res := &fakeResult{err: errors.New("disk on fire")}
	b := intBatch(t, mem, "n", "[1]")
	res.schema, res.batches = b.Schema(), []arrow.RecordBatch{b}
	err := renderResult(context.Background(), res, renderOptions{format: formatCSV}, &bytes.Buffer{})
	if err == nil || err.Error() != "disk on fire" {
		t.Errorf("got error %v, want disk on fire", err)
	}
	if !res.closed {
		t.Error("result not closed after a stream error")
	}
}

func TestTableCellsEscapeAndCut(t *testing.T) {
	if got := cut(strings.Repeat("x", 100), 80); got != strings.Repeat("x", 79)+"…" {
		t.Errorf("cut(100 x, 80) = %q", got)
	}
	if got := cut(strings.Repeat("é", 80), 80); got != strings.Repeat("é", 80) {
		t.Errorf("an 80-rune cell was changed to %q", got)
	}
	if got := tableCell("a\nb\tc"); got != "a\n"+`b\tc` {
		t.Errorf("tab not escaped or newline not kept: %q", got)
	}
}

func TestTableDrawsMultiLineCells(t *testing.T) {
	l := tableLayout{cols: []int{0, 1}, widths: []int{3, 1}, numeric: []bool{false, false}, gap: -1}
	got := l.line([]string{"ab\ncde", "x"})
	want := "│ ab  │ x │\n│ cde │   │\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestParseFormat(t *testing.T) {
	for _, f := range outputFormats {
		if got, err := parseFormat(string(f)); err != nil || got != f {
			t.Errorf("parseFormat(%q) = %q, %v", f, got, err)
		}
	}
	if _, err := parseFormat("xml"); err == nil || !strings.Contains(err.Error(), "table, line, list, csv, tsv, json, jsonl, markdown, html, insert") {
		t.Errorf("parseFormat(xml) error = %v, want the list of formats", err)
	}
}
