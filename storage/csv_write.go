package storage

import (
	"encoding/csv"
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakesql/lakesql/value"
)

// CSVWriter writes record batches as CSV: values as value.Format prints
// them (as the CLI and CAST to STRING do), NULL as an empty field. An empty
// string is an empty field too, as CSV has no other spelling for it.
type CSVWriter struct {
	w   *csv.Writer
	rec []string
	buf []byte
}

// NewCSVWriter starts a CSV file of the columns names, with a header record
// naming them when opts.Header is set.
func NewCSVWriter(w io.Writer, names []string, opts CSVOptions) (*CSVWriter, error) {
	cw := csv.NewWriter(w)
	cw.Comma = opts.Delim
	c := &CSVWriter{w: cw, rec: make([]string, len(names))}
	if opts.Header {
		if err := cw.Write(names); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// Write adds the rows of batch.
func (c *CSVWriter) Write(batch arrow.RecordBatch) error {
	formats := make([]value.Formatter, batch.NumCols())
	for j := range formats {
		formats[j] = value.FormatterOf(batch.Column(j))
	}
	for i := range int(batch.NumRows()) {
		for j := range formats {
			col := batch.Column(j)
			if value.IsNull(col, i) {
				c.rec[j] = ""
				continue
			}
			c.buf = formats[j](c.buf[:0], i)
			c.rec[j] = string(c.buf)
		}
		if err := c.w.Write(c.rec); err != nil {
			return err
		}
	}
	return nil
}

// Close flushes what is buffered.
func (c *CSVWriter) Close() error {
	c.w.Flush()
	if err := c.w.Error(); err != nil {
		return fmt.Errorf("write csv: %w", err)
	}
	return nil
}
