package main

import (
	"io"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/lakesql/lakesql/value"
)

// markdownEscaper keeps a value inside its cell: '|' would end the cell and a
// newline the row.
var markdownEscaper = strings.NewReplacer("|", `\|`, "\r\n", "<br>", "\n", "<br>", "\r", "<br>")

// markdownRenderer writes a GitHub-flavoured table. Cells are not padded, so
// rows stream without knowing column widths; numeric columns are marked
// right-aligned in the delimiter row.
type markdownRenderer struct {
	w     io.Writer
	null  string
	ncols int
}

func newMarkdownRenderer(w io.Writer, o renderOptions) *markdownRenderer {
	return &markdownRenderer{w: w, null: o.nullText(value.NullText)}
}

func (m *markdownRenderer) begin(schema *arrow.Schema) error {
	m.ncols = schema.NumFields()
	names := make([]string, m.ncols)
	aligns := make([]string, m.ncols)
	for i, f := range schema.Fields() {
		names[i] = markdownEscaper.Replace(f.Name)
		aligns[i] = "---"
		if isNumericType(f.Type) {
			aligns[i] = "---:"
		}
	}
	_, err := io.WriteString(m.w, markdownRow(names)+markdownRow(aligns))
	return err
}

func (m *markdownRenderer) batch(rec arrow.RecordBatch) error {
	if err := checkColumns(m.ncols, rec); err != nil {
		return err
	}
	var b strings.Builder
	cells := make([]string, m.ncols)
	for r := 0; r < int(rec.NumRows()); r++ {
		for c := range cells {
			cells[c] = markdownEscaper.Replace(cell(rec.Column(c), r, m.null))
		}
		b.WriteString(markdownRow(cells))
	}
	_, err := io.WriteString(m.w, b.String())
	return err
}

func (m *markdownRenderer) end() error { return nil }

func markdownRow(cells []string) string {
	return "| " + strings.Join(cells, " | ") + " |\n"
}
