package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/lakesql/lakesql/value"
)

// outputFormat names a --format / .mode value.
type outputFormat string

const (
	formatTable    outputFormat = "table" // boxed, like DuckDB's duckbox
	formatLine     outputFormat = "line"
	formatListMode outputFormat = "list"
	formatCSV      outputFormat = "csv"
	formatTSV      outputFormat = "tsv"
	formatJSON     outputFormat = "json"
	formatJSONL    outputFormat = "jsonl"
	formatMarkdown outputFormat = "markdown"
	formatHTML     outputFormat = "html"
	formatInsert   outputFormat = "insert"
)

var outputFormats = []outputFormat{
	formatTable, formatLine, formatListMode, formatCSV, formatTSV,
	formatJSON, formatJSONL, formatMarkdown, formatHTML, formatInsert,
}

// formatAliases are the names DuckDB's and SQLite's shells use for the same
// formats.
var formatAliases = map[string]outputFormat{"box": formatTable, "duckbox": formatTable, "ndjson": formatJSONL}

// parseFormat validates a user-supplied format name.
func parseFormat(name string) (outputFormat, error) {
	for _, f := range outputFormats {
		if string(f) == name {
			return f, nil
		}
	}
	if f, ok := formatAliases[name]; ok {
		return f, nil
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

// renderOptions are the shell settings a renderer follows.
type renderOptions struct {
	format  outputFormat
	headers bool // column names in list, csv, tsv, markdown and html
	// null replaces NULL in the text formats; nil means the format's own
	// default (NULL, or an empty field in csv and tsv).
	null *string
	// maxRows > 0 shows only the first and last rows of a longer table
	// result; maxWidth > 0 fits a table into that many columns.
	maxRows, maxWidth int
	insertTable       string // table name of the insert format
}

// nullText returns what NULL prints as, given the format's default.
func (o renderOptions) nullText(formatDefault string) string {
	if o.null != nil {
		return *o.null
	}
	return formatDefault
}

// cell is arr[i] as text, with NULL spelled as null.
func cell(arr arrow.Array, i int, null string) string {
	if value.IsNull(arr, i) {
		return null
	}
	return value.Format(arr, i)
}

// renderer writes one result set. Calls come in the order begin, batch*, end.
// Renderers other than table write each batch as it arrives, so results of
// any size stream through in bounded memory.
type renderer interface {
	begin(schema *arrow.Schema) error
	batch(rec arrow.RecordBatch) error
	end() error
}

// newRenderer returns a renderer for one result.
func newRenderer(o renderOptions, w io.Writer) renderer {
	switch o.format {
	case formatLine:
		return newLineRenderer(w, o)
	case formatListMode:
		return newDelimitedRenderer(w, o, "|", o.nullText(value.NullText), false)
	case formatCSV:
		return newDelimitedRenderer(w, o, ",", o.nullText(""), true)
	case formatTSV:
		return newDelimitedRenderer(w, o, "\t", o.nullText(""), true)
	case formatJSON:
		return newJSONRenderer(w, false)
	case formatJSONL:
		return newJSONRenderer(w, true)
	case formatMarkdown:
		return newMarkdownRenderer(w, o)
	case formatHTML:
		return newHTMLRenderer(w, o)
	case formatInsert:
		return newInsertRenderer(w, o)
	default:
		return newTableRenderer(w, o)
	}
}

// printsMessages reports whether f prints the message of a statement that
// returns no rows (such as "OK"). The machine-readable formats do not: their
// output is meant for other programs, and a stray line would corrupt it.
func (f outputFormat) printsMessages() bool {
	switch f {
	case formatTable, formatLine, formatListMode, formatMarkdown:
		return true
	}
	return false
}

// renderResult streams res to w and closes res.
func renderResult(ctx context.Context, res result, o renderOptions, w io.Writer) (err error) {
	defer func() {
		if cerr := res.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("closing result: %w", cerr)
		}
	}()
	schema := res.Schema()
	if schema == nil {
		if msg := res.Message(); msg != "" && o.format.printsMessages() {
			_, err = fmt.Fprintln(w, msg)
		}
		return err
	}
	r := newRenderer(o, w)
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

// rowCount is "(1 row)" or "(N rows)".
func rowCount(n int) string {
	if n == 1 {
		return "(1 row)"
	}
	return fmt.Sprintf("(%d rows)", n)
}
