package main

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/lakesql/lakesql/value"
)

// maxCellWidth is the widest a table cell gets; longer values are cut and end
// in an ellipsis so one large value cannot push the table off the screen.
const maxCellWidth = 80

// cellEscaper keeps control characters from breaking the box drawing; a
// newline starts a new line inside the cell.
var cellEscaper = strings.NewReplacer("\r", `\r`, "\t", `\t`)

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
		name := tableCell(f.Name, maxCellWidth)
		t.names = append(t.names, name)
		t.numeric = append(t.numeric, isNumericType(f.Type))
		t.widths = append(t.widths, cellWidth(name))
	}
	return nil
}

func (t *tableRenderer) batch(rec arrow.RecordBatch) error {
	if err := checkColumns(len(t.names), rec); err != nil {
		return err
	}
	// A single column (EXPLAIN, SHOW CREATE TABLE) is shown whole.
	limit := maxCellWidth
	if len(t.names) == 1 {
		limit = 0
	}
	for r := 0; r < int(rec.NumRows()); r++ {
		row := make([]string, len(t.names))
		for c := range row {
			row[c] = tableCell(value.Format(rec.Column(c), r), limit)
			t.widths[c] = max(t.widths[c], cellWidth(row[c]))
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

// line draws one row, as many text lines high as its tallest cell; numeric
// columns, header included, are right-aligned.
func (t *tableRenderer) line(cells []string) string {
	split := make([][]string, len(cells))
	height := 1
	for c, cell := range cells {
		split[c] = strings.Split(cell, "\n")
		height = max(height, len(split[c]))
	}
	var b strings.Builder
	for l := range height {
		b.WriteString("│")
		for c, lines := range split {
			text := ""
			if l < len(lines) {
				text = lines[l]
			}
			pad := strings.Repeat(" ", t.widths[c]-utf8.RuneCountInString(text))
			if t.numeric[c] {
				b.WriteString(" " + pad + text + " │")
			} else {
				b.WriteString(" " + text + pad + " │")
			}
		}
		b.WriteString("\n")
	}
	return b.String()
}

// tableCell makes a value printable inside the box: control characters are
// escaped and, with a limit, lines longer than it are cut with "…".
func tableCell(s string, limit int) string {
	lines := strings.Split(cellEscaper.Replace(s), "\n")
	for i, line := range lines {
		if limit > 0 && utf8.RuneCountInString(line) > limit {
			lines[i] = string([]rune(line)[:limit-1]) + "…"
		}
	}
	return strings.Join(lines, "\n")
}

// cellWidth is the width of a cell's widest line.
func cellWidth(cell string) int {
	w := 0
	for _, line := range strings.Split(cell, "\n") {
		w = max(w, utf8.RuneCountInString(line))
	}
	return w
}
