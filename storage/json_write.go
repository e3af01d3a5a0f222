package storage

import (
	"bufio"
	"encoding/json"
	"io"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/lakesql/lakesql/value"
)

// JSONWriter writes record batches as newline-delimited JSON, an object per
// row with a key per column in column order: numbers and booleans as JSON
// numbers and booleans, NULL as null, structs, maps and lists as objects and
// arrays, NaN and infinities and every other
// type as the string value.Format prints (dates, timestamps, decimals as
// text would lose nothing, but numbers are what readers expect of them).
type JSONWriter struct {
	w    *bufio.Writer
	keys [][]byte // per column, its quoted name and a colon
	buf  []byte
}

// NewJSONWriter starts a JSON file of the columns names.
func NewJSONWriter(w io.Writer, names []string) *JSONWriter {
	j := &JSONWriter{w: bufio.NewWriter(w)}
	for _, n := range names {
		key := appendJSONString(nil, n)
		j.keys = append(j.keys, append(key, ':'))
	}
	return j
}

// Write adds the rows of batch.
func (j *JSONWriter) Write(batch arrow.RecordBatch) error {
	n := int(batch.NumCols())
	encoders := make([]value.Formatter, n)
	for c := range n {
		encoders[c] = jsonStyle.FormatterOf(batch.Column(c))
	}
	for i := range int(batch.NumRows()) {
		j.buf = append(j.buf[:0], '{')
		for c := range n {
			if c > 0 {
				j.buf = append(j.buf, ',')
			}
			j.buf = encoders[c](append(j.buf, j.keys[c]...), i)
		}
		j.buf = append(j.buf, '}', '\n')
		if _, err := j.w.Write(j.buf); err != nil {
			return err
		}
	}
	return nil
}

// jsonStyle writes what is not nested: numbers and booleans as JSON
// literals (NaN and infinities, which JSON numbers cannot hold, as
// strings), every other type as the string value.Format prints.
var jsonStyle = value.JSONStyle{String: appendJSONString, Scalar: func(col arrow.Array) value.Formatter {
	format, asNumber := value.FormatterOf(col), jsonNumberType(col.DataType())
	return func(dst []byte, i int) []byte {
		start := len(dst)
		dst = format(dst, i)
		if !asNumber || !finite(col, i) {
			text := string(dst[start:])
			dst = appendJSONString(dst[:start], text)
		}
		return dst
	}
}}

// jsonNumberType reports whether values of t print as JSON literals: numbers
// and booleans.
func jsonNumberType(t arrow.DataType) bool {
	switch t.ID() {
	case arrow.BOOL, arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64, arrow.UINT8, arrow.UINT16,
		arrow.UINT32, arrow.UINT64, arrow.FLOAT16, arrow.FLOAT32, arrow.FLOAT64, arrow.DECIMAL128, arrow.DECIMAL256:
		return true
	}
	return false
}

// finite is false for NaN and infinities, which JSON numbers cannot hold.
func finite(col arrow.Array, i int) bool {
	var f float64
	switch a := col.(type) {
	case *array.Float32:
		f = float64(a.Value(i))
	case *array.Float64:
		f = a.Value(i)
	default:
		return true
	}
	return !math.IsNaN(f) && !math.IsInf(f, 0)
}

// appendJSONString appends s as a JSON string (json.Marshal of a string
// cannot fail; invalid UTF-8 becomes U+FFFD, and <, >, & are escaped, which
// every JSON reader decodes).
func appendJSONString(dst []byte, s string) []byte {
	b, _ := json.Marshal(s)
	return append(dst, b...)
}

// Close flushes what is buffered.
func (j *JSONWriter) Close() error { return j.w.Flush() }
