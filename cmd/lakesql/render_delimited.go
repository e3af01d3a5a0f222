package main

import (
	"encoding/csv"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
)

// delimitedRenderer writes one line per row with the fields separated by a
// delimiter: csv and tsv quote fields as RFC 4180 does (NULL is an empty
// field by default, which is what loaders expect); list, like SQLite's and
// DuckDB's, writes the values as they are.
type delimitedRenderer struct {
	w       io.Writer
	csv     *csv.Writer // nil for list
	delim   string
	null    string
	headers bool
	record  []string // reused for every row; one field per column
}

func newDelimitedRenderer(w io.Writer, o renderOptions, delim, null string, quote bool) *delimitedRenderer {
	d := &delimitedRenderer{w: w, delim: delim, null: null, headers: o.headers}
	if quote {
		d.csv = csv.NewWriter(w)
		d.csv.Comma, _ = utf8.DecodeRuneInString(delim)
	}
	return d
}

func (d *delimitedRenderer) begin(schema *arrow.Schema) error {
	d.record = make([]string, schema.NumFields())
	if !d.headers {
		return nil
	}
	for i, f := range schema.Fields() {
		d.record[i] = f.Name
	}
	return d.write()
}

func (d *delimitedRenderer) batch(rec arrow.RecordBatch) error {
	if err := checkColumns(len(d.record), rec); err != nil {
		return err
	}
	for r := 0; r < int(rec.NumRows()); r++ {
		for i := range d.record {
			d.record[i] = cell(rec.Column(i), r, d.null)
		}
		if err := d.write(); err != nil {
			return err
		}
	}
	// Flush per batch so a write error (say, a closed pipe) stops the query
	// now rather than after the whole result has been computed.
	return d.flush()
}

func (d *delimitedRenderer) write() error {
	if d.csv != nil {
		return d.csv.Write(d.record)
	}
	_, err := io.WriteString(d.w, strings.Join(d.record, d.delim)+"\n")
	return err
}

func (d *delimitedRenderer) flush() error {
	if d.csv == nil {
		return nil
	}
	d.csv.Flush()
	return d.csv.Error()
}

func (d *delimitedRenderer) end() error { return d.flush() }
