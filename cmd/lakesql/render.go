package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
)

// outputFormat names a --format / .mode value.
type outputFormat string

const (
	formatTable    outputFormat = "table"
	formatCSV      outputFormat = "csv"
	formatJSON     outputFormat = "json"
	formatMarkdown outputFormat = "markdown"
)

var outputFormats = []outputFormat{formatTable, formatCSV, formatJSON, formatMarkdown}

// parseFormat validates a user-supplied format name.
func parseFormat(name string) (outputFormat, error) {
	for _, f := range outputFormats {
		if string(f) == name {
			return f, nil
		}
	}
	return "", fmt.Errorf("unknown format %q (want %s)", name, formatNames())
}

func formatNames() string {
	names := make([]string, len(outputFormats))
	for i, f := range outputFormats {
		names[i] = string(f)
	}
	return strings.Join(names, ", ")
}

// renderer writes one result set. Calls come in the order begin, batch*, end.
// Renderers other than table write each batch as it arrives, so results of
// any size stream through in bounded memory.
type renderer interface {
	begin(schema *arrow.Schema) error
	batch(rec arrow.RecordBatch) error
	end() error
}

// newRenderer returns a renderer for one result in format f.
func newRenderer(f outputFormat, w io.Writer) renderer {
	switch f {
	case formatCSV:
		return newCSVRenderer(w)
	case formatJSON:
		return newJSONRenderer(w)
	case formatMarkdown:
		return newMarkdownRenderer(w)
	default:
		return newTableRenderer(w)
	}
}

// printsMessages reports whether f prints the message of a statement that
// returns no rows (such as "OK"). csv and json do not: their output is meant
// for other programs, and a stray line would corrupt it.
func (f outputFormat) printsMessages() bool {
	return f == formatTable || f == formatMarkdown
}

// renderResult streams res to w in format f and closes res.
func renderResult(ctx context.Context, res result, f outputFormat, w io.Writer) (err error) {
	defer func() {
		if cerr := res.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("closing result: %w", cerr)
		}
	}()
	schema := res.Schema()
	if schema == nil {
		if msg := res.Message(); msg != "" && f.printsMessages() {
			_, err = fmt.Fprintln(w, msg)
		}
		return err
	}
	r := newRenderer(f, w)
	if err := r.begin(schema); err != nil {
		return err
	}
	for {
		// Next may not notice cancellation between batches on its own; check
		// so that Ctrl-C stops a long result promptly.
		if err := ctx.Err(); err != nil {
			return err
		}
		rec, err := res.Next(ctx)
		if err != nil {
			return err
		}
		if rec == nil {
			return r.end()
		}
		err = r.batch(rec)
		rec.Release()
		if err != nil {
			return err
		}
	}
}

// errWriter remembers the first write error so renderers can write many
// small pieces and check once.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) WriteString(s string) {
	if e.err == nil {
		_, e.err = io.WriteString(e.w, s)
	}
}

// checkColumns guards renderers against a batch whose width differs from the
// schema announced in begin, which would otherwise misalign or panic.
func checkColumns(want int, rec arrow.RecordBatch) error {
	if got := int(rec.NumCols()); got != want {
		return fmt.Errorf("result batch has %d columns, schema has %d", got, want)
	}
	return nil
}
