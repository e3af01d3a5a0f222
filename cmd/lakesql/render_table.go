package main

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/lakesql/lakesql/value"
)

// maxCellWidth is the widest a column gets when the table does not fit the
// width limit; longer values are cut and end in an ellipsis.
const maxCellWidth = 80

// ellipsis marks cut cells, dropped columns and skipped rows; the column
// that stands for dropped columns takes ellipsisColumn terminal columns.
const (
	ellipsis       = "…"
	ellipsisColumn = 4 // " … │"
)

// cellEscaper keeps control characters from breaking the box drawing; a
// newline starts a new line inside the cell.
var cellEscaper = strings.NewReplacer("\r", `\r`, "\t", `\t`)

// tableRenderer draws a boxed table like DuckDB's. Column widths depend on
// every shown row, so it keeps the formatted cells (not the Arrow batches) of
// the rows it will show until end: all of them, or with a row limit only the
// first and the last rows, so a huge result costs bounded memory.
type tableRenderer struct {
	w        io.Writer
	null     string
	maxRows  int // > 0: show the first and last rows of longer results
	maxWidth int // > 0: fit the table into this many columns
	names    []string
	numeric  []bool
	head     [][]string // the first rows (all of them without a row limit)
	tail     [][]string // ring buffer of the last rows
	tailNext int        // next slot of tail to overwrite once it is full
	total    int
}

func newTableRenderer(w io.Writer, o renderOptions) *tableRenderer {
	return &tableRenderer{w: w, null: o.nullText(value.NullText), maxRows: o.maxRows, maxWidth: o.maxWidth}
}

func (t *tableRenderer) begin(schema *arrow.Schema) error {
	for _, f := range schema.Fields() {
		t.names = append(t.names, tableCell(f.Name))
		t.numeric = append(t.numeric, isNumericType(f.Type))
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
			row[c] = tableCell(cell(rec.Column(c), r, t.null))
		}
		t.keep(row)
	}
	return nil
}

// keep stores row if it may be shown: the first ⌈maxRows/2⌉ rows go to
// head, the others through the ring of the last ⌊maxRows/2⌋.
func (t *tableRenderer) keep(row []string) {
	t.total++
	switch {
	case t.maxRows <= 0 || len(t.head) < (t.maxRows+1)/2:
		t.head = append(t.head, row)
	case len(t.tail) < t.maxRows/2:
		t.tail = append(t.tail, row)
	case len(t.tail) > 0:
		t.tail[t.tailNext] = row
		t.tailNext = (t.tailNext + 1) % len(t.tail)
	}
}

// shownRows returns the rows to draw in order, and whether rows were skipped
// between head and tail.
func (t *tableRenderer) shownRows() ([][]string, bool) {
	rows := append([][]string{}, t.head...)
	rows = append(rows, t.tail[t.tailNext:]...)
	rows = append(rows, t.tail[:t.tailNext]...)
	return rows, len(rows) < t.total
}

func (t *tableRenderer) end() error {
	rows, skipped := t.shownRows()
	ew := &errWriter{w: t.w}
	var cols []int
	if len(t.names) > 0 {
		var layout tableLayout
		layout, cols = t.layout(rows)
		ew.WriteString(layout.rule("┌", "┬", "┐"))
		ew.WriteString(layout.line(t.names))
		ew.WriteString(layout.rule("├", "┼", "┤"))
		for i, row := range rows {
			if skipped && i == len(t.head) {
				ew.WriteString(layout.skippedRows())
			}
			ew.WriteString(layout.line(row))
		}
		ew.WriteString(layout.rule("└", "┴", "┘"))
	}
	ew.WriteString(t.footer(len(rows), len(cols)) + "\n")
	return ew.err
}

// footer is "(N rows)", or "N rows (M shown)" with skipped rows, plus
// "K columns (J shown)" with dropped columns.
func (t *tableRenderer) footer(shownRows, shownCols int) string {
	s := rowCount(t.total)
	if shownRows < t.total {
		s = fmt.Sprintf("%d rows (%d shown)", t.total, shownRows)
	}
	if shownCols < len(t.names) {
		s += fmt.Sprintf("  %d columns (%d shown)", len(t.names), shownCols)
	}
	return s
}

// tableLayout is how a table is drawn: the columns shown, their widths, and
// where the "…" column of dropped ones goes.
type tableLayout struct {
	cols    []int // indexes of the shown columns, in order
	widths  []int // per shown column
	numeric []bool
	gap     int // index in cols before which the "…" column goes; -1 for none
}

// layout picks the columns and widths: every column whole when there is no
// width limit or the table fits it; otherwise columns are capped at
// maxCellWidth, then middle columns dropped (keeping the outer ones, as
// DuckDB does), then the widest shown columns narrowed. A single column
// (EXPLAIN, SHOW CREATE TABLE) is always shown whole.
func (t *tableRenderer) layout(rows [][]string) (tableLayout, []int) {
	n := len(t.names)
	natural := make([]int, n)
	for c, name := range t.names {
		natural[c] = cellWidth(name)
		for _, row := range rows {
			natural[c] = max(natural[c], cellWidth(row[c]))
		}
	}
	all := make([]int, n)
	for c := range all {
		all[c] = c
	}
	l := tableLayout{cols: all, widths: natural, numeric: t.numeric, gap: -1}
	if t.maxWidth <= 0 || n == 1 || l.width() <= t.maxWidth {
		return l, all
	}
	capped := make([]int, n)
	for c, w := range natural {
		capped[c] = min(w, maxCellWidth)
	}
	l.widths = capped
	if l.width() > t.maxWidth {
		l = t.dropMiddle(capped)
	}
	// Narrow the widest column until the table fits; a column keeps at
	// least one character and its ellipsis.
	for l.width() > t.maxWidth {
		widest := 0
		for i, w := range l.widths {
			if w > l.widths[widest] {
				widest = i
			}
		}
		if l.widths[widest] <= 2 {
			break
		}
		l.widths[widest]--
	}
	return l, l.cols
}

// dropMiddle keeps columns from both ends, alternately left and right, while
// they fit beside a "…" column; once one side's next column does not fit,
// the other side goes on alone.
func (t *tableRenderer) dropMiddle(widths []int) tableLayout {
	left, right := []int{0}, []int{}
	used := 1 + widths[0] + 3 + ellipsisColumn // left border, first column, "…" column
	leftDone, rightDone := false, false
	for i, j := 1, len(widths)-1; i <= j && !(leftDone && rightDone); {
		// The right side goes first: the last column is often the measure.
		takeLeft := rightDone || (!leftDone && len(right) >= len(left))
		next := j
		if takeLeft {
			next = i
		}
		if used+widths[next]+3 > t.maxWidth {
			if takeLeft {
				leftDone = true
			} else {
				rightDone = true
			}
			continue
		}
		used += widths[next] + 3
		if takeLeft {
			left = append(left, i)
			i++
		} else {
			right = append([]int{j}, right...)
			j--
		}
	}
	cols := append(left, right...)
	l := tableLayout{cols: cols, numeric: t.numeric, gap: len(left)}
	for _, c := range cols {
		l.widths = append(l.widths, widths[c])
	}
	if len(cols) == len(widths) {
		l.gap = -1
	}
	return l
}

// width is the number of terminal columns the table takes.
func (l tableLayout) width() int {
	w := 1
	for _, cw := range l.widths {
		w += cw + 3
	}
	if l.gap >= 0 {
		w += ellipsisColumn
	}
	return w
}

// rule draws a horizontal border with the given corner and joint runes.
func (l tableLayout) rule(left, mid, right string) string {
	var b strings.Builder
	b.WriteString(left)
	for i, w := range l.widths {
		if i > 0 {
			b.WriteString(mid)
		}
		if i == l.gap {
			b.WriteString(strings.Repeat("─", 3) + mid)
		}
		b.WriteString(strings.Repeat("─", w+2))
	}
	if l.gap == len(l.widths) {
		b.WriteString(mid + strings.Repeat("─", 3))
	}
	b.WriteString(right + "\n")
	return b.String()
}

// line draws one row, as many text lines high as its tallest cell; numeric
// columns, header included, are right-aligned, and cells wider than their
// column are cut with "…".
func (l tableLayout) line(cells []string) string {
	split := make([][]string, len(l.cols))
	height := 1
	for i, c := range l.cols {
		split[i] = strings.Split(cells[c], "\n")
		height = max(height, len(split[i]))
	}
	gapCell := func(row int) string {
		if row == 0 {
			return " " + ellipsis + " │"
		}
		return "   │"
	}
	var b strings.Builder
	for row := range height {
		b.WriteString("│")
		for i, lines := range split {
			if i == l.gap {
				b.WriteString(gapCell(row))
			}
			text := ""
			if row < len(lines) {
				text = cut(lines[row], l.widths[i])
			}
			pad := strings.Repeat(" ", l.widths[i]-utf8.RuneCountInString(text))
			if l.numeric[l.cols[i]] {
				b.WriteString(" " + pad + text + " │")
			} else {
				b.WriteString(" " + text + pad + " │")
			}
		}
		if l.gap == len(split) {
			b.WriteString(gapCell(row))
		}
		b.WriteString("\n")
	}
	return b.String()
}

// skippedRows is the row of "…" that stands for the rows not shown.
func (l tableLayout) skippedRows() string {
	cells := make([]string, len(l.numeric))
	for c := range cells {
		cells[c] = ellipsis
	}
	return l.line(cells)
}

// cut shortens s to width runes, ending in "…" when it was longer.
func cut(s string, width int) string {
	if utf8.RuneCountInString(s) <= width {
		return s
	}
	return string([]rune(s)[:width-1]) + ellipsis
}

// tableCell makes a value printable inside the box: control characters are
// escaped, newlines kept.
func tableCell(s string) string {
	return cellEscaper.Replace(s)
}

// cellWidth is the width of a cell's widest line.
func cellWidth(cell string) int {
	w := 0
	for _, line := range strings.Split(cell, "\n") {
		w = max(w, utf8.RuneCountInString(line))
	}
	return w
}
