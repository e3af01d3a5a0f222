package main

import (
	"io"
	"strings"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/lakesql/lakesql/value"
)

// lineRenderer writes each row as "name = value" lines, names right-aligned,
// rows separated by a blank line: the way to read wide rows and long values
// whole.
type lineRenderer struct {
	w     io.Writer
	null  string
	names []string // padded to the widest name
	rows  int
}

func newLineRenderer(w io.Writer, o renderOptions) *lineRenderer {
	return &lineRenderer{w: w, null: o.nullText(value.NullText)}
}

func (l *lineRenderer) begin(schema *arrow.Schema) error {
	width := 0
	for _, f := range schema.Fields() {
		width = max(width, utf8.RuneCountInString(f.Name))
	}
	for _, f := range schema.Fields() {
		l.names = append(l.names, strings.Repeat(" ", width-utf8.RuneCountInString(f.Name))+f.Name)
	}
	return nil
}

func (l *lineRenderer) batch(rec arrow.RecordBatch) error {
	if err := checkColumns(len(l.names), rec); err != nil {
		return err
	}
	var b strings.Builder
	for r := 0; r < int(rec.NumRows()); r++ {
		if l.rows > 0 {
			b.WriteString("\n")
		}
		for c, name := range l.names {
			b.WriteString(name + " = " + cell(rec.Column(c), r, l.null) + "\n")
		}
		l.rows++
	}
	_, err := io.WriteString(l.w, b.String())
	return err
}

func (l *lineRenderer) end() error { return nil }
