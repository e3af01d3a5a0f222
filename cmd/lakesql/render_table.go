package main

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
)

// maxCellWidth is the widest a table cell gets; longer values are cut and end
// in an ellipsis so one large value cannot push the table off the screen.
const maxCellWidth = 80

// cellEscaper keeps every row on one line: a raw newline in a value would
// break the box drawing.
var cellEscaper = strings.NewReplacer("\n", `\n`, "\r", `\r`, "\t", `\t`)

// tableRenderer draws a boxed table like DuckDB's. Column widths depend on
// every row, so it buffers the formatted cells of the whole result (not the
// Arrow batches) until end.
type tableRenderer struct {
	w       io.Writer
	names   []string
	numeric []bool
	widths  []int
	rows    [][]string
}

func newTableRenderer(w io.Writer) *tableRenderer { return &tableRenderer{w: w} }

func (t *tableRenderer) begin(schema *arrow.Schema) error {
	for _, f := range schema.Fields() {
		name := tableCell(f.Name)
		t.names = append(t.names, name)
		t.numeric = append(t.numeric, isNumericType(f.Type))
		t.widths = append(t.widths, utf8.RuneCountInString(name))
	}
	return nil
}

func (t *tableRenderer) batch(rec arrow.RecordBatch) error {
	if err := checkColumns(len(t.names), rec); err != nil {
		return err
	}
	for r := 0; r < int(rec.NumRows()); r++ {
		row := make([]string, len(t.names))
		for c := range row {
			row[c] = tableCell(formatValue(rec.Column(c), r))
			t.widths[c] = max(t.widths[c], utf8.RuneCountInString(row[c]))
		}
		t.rows = append(t.rows, row)
	}
	return nil
}

func (t *tableRenderer) end() error {
	ew := &errWriter{w: t.w}
	if len(t.names) > 0 {
		ew.WriteString(t.rule("┌", "┬", "┐"))
		ew.WriteString(t.line(t.names))
		ew.WriteString(t.rule("├", "┼", "┤"))
		for _, row := range t.rows {
			ew.WriteString(t.line(row))
		}
		ew.WriteString(t.rule("└", "┴", "┘"))
	}
	ew.WriteString(fmt.Sprintf("(%d rows)\n", len(t.rows)))
	return ew.err
}

// rule draws a horizontal border with the given corner and joint runes.
func (t *tableRenderer) rule(left, mid, right string) string {
	var b strings.Builder
	b.WriteString(left)
	for c, w := range t.widths {
		if c > 0 {
			b.WriteString(mid)
		}
		b.WriteString(strings.Repeat("─", w+2))
	}
	b.WriteString(right + "\n")
	return b.String()
}

// line draws one row; numeric columns, header included, are right-aligned.
func (t *tableRenderer) line(cells []string) string {
	var b strings.Builder
	b.WriteString("│")
	for c, cell := range cells {
		pad := strings.Repeat(" ", t.widths[c]-utf8.RuneCountInString(cell))
		if t.numeric[c] {
			b.WriteString(" " + pad + cell + " │")
		} else {
			b.WriteString(" " + cell + pad + " │")
		}
	}
	b.WriteString("\n")
	return b.String()
}

// tableCell makes a value printable inside the box: control characters are
// escaped and values longer than maxCellWidth are cut with "…".
func tableCell(s string) string {
	s = cellEscaper.Replace(s)
	if utf8.RuneCountInString(s) <= maxCellWidth {
		return s
	}
	runes := []rune(s)
	return string(runes[:maxCellWidth-1]) + "…"
}
