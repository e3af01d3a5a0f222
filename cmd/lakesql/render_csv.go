package main

import (
	"encoding/csv"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/lakesql/lakesql/value"
)

// csvRenderer writes a header line and then RFC 4180 rows. NULL is an empty
// field, which is what spreadsheet and database loaders expect.
type csvRenderer struct {
	w      *csv.Writer
	record []string // reused for every row; one field per column
}

func newCSVRenderer(w io.Writer) *csvRenderer { return &csvRenderer{w: csv.NewWriter(w)} }

func (c *csvRenderer) begin(schema *arrow.Schema) error {
	c.record = make([]string, schema.NumFields())
	for i, f := range schema.Fields() {
		c.record[i] = f.Name
	}
	return c.w.Write(c.record)
}

func (c *csvRenderer) batch(rec arrow.RecordBatch) error {
	if err := checkColumns(len(c.record), rec); err != nil {
		return err
	}
	for r := 0; r < int(rec.NumRows()); r++ {
		for i := range c.record {
			c.record[i] = ""
			if col := rec.Column(i); !value.IsNull(col, r) {
				c.record[i] = value.Format(col, r)
			}
		}
		if err := c.w.Write(c.record); err != nil {
			return err
		}
	}
	// Flush per batch so a write error (say, a closed pipe) stops the query
	// now rather than after the whole result has been computed.
	c.w.Flush()
	return c.w.Error()
}

func (c *csvRenderer) end() error {
	c.w.Flush()
	return c.w.Error()
}
