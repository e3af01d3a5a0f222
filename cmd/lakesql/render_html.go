package main

import (
	"html"
	"io"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/lakesql/lakesql/value"
)

// htmlRenderer writes an HTML <table>, one <tr> per row, every value escaped.
type htmlRenderer struct {
	w       io.Writer
	null    string
	headers bool
	ncols   int
}

func newHTMLRenderer(w io.Writer, o renderOptions) *htmlRenderer {
	return &htmlRenderer{w: w, null: o.nullText(value.NullText), headers: o.headers}
}

func (h *htmlRenderer) begin(schema *arrow.Schema) error {
	h.ncols = schema.NumFields()
	var b strings.Builder
	b.WriteString("<table>\n")
	if h.headers {
		b.WriteString("<tr>")
		for _, f := range schema.Fields() {
			b.WriteString("<th>" + html.EscapeString(f.Name) + "</th>")
		}
		b.WriteString("</tr>\n")
	}
	_, err := io.WriteString(h.w, b.String())
	return err
}

func (h *htmlRenderer) batch(rec arrow.RecordBatch) error {
	if err := checkColumns(h.ncols, rec); err != nil {
		return err
	}
	var b strings.Builder
	for r := 0; r < int(rec.NumRows()); r++ {
		b.WriteString("<tr>")
		for c := 0; c < h.ncols; c++ {
			b.WriteString("<td>" + html.EscapeString(cell(rec.Column(c), r, h.null)) + "</td>")
		}
		b.WriteString("</tr>\n")
	}
	_, err := io.WriteString(h.w, b.String())
	return err
}

func (h *htmlRenderer) end() error {
	_, err := io.WriteString(h.w, "</table>\n")
	return err
}
