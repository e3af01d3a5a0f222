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
	encoders := make([]jsonEncoder, n)
	for c := range n {
		encoders[c] = newJSONEncoder(batch.Column(c))
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

// jsonEncoder appends value i of an array as JSON.
type jsonEncoder func(dst []byte, i int) []byte

// newJSONEncoder encodes col's values: NULL as null, structs and maps as
// objects (map keys in their text form, as JSON keys are strings), lists as
// arrays, numbers and booleans as literals.
func newJSONEncoder(col arrow.Array) jsonEncoder {
	var enc jsonEncoder
	switch a := col.(type) {
	case *array.Struct:
		typ := a.DataType().(*arrow.StructType)
		fields := make([]jsonEncoder, a.NumField())
		for f := range fields {
			fields[f] = newJSONEncoder(a.Field(f))
		}
		enc = func(dst []byte, i int) []byte {
			dst = append(dst, '{')
			for f, field := range fields {
				if f > 0 {
					dst = append(dst, ',')
				}
				dst = append(appendJSONString(dst, typ.Field(f).Name), ':')
				dst = field(dst, i)
			}
			return append(dst, '}')
		}
	case *array.Map:
		key, item := value.FormatterOf(a.Keys()), newJSONEncoder(a.Items())
		enc = func(dst []byte, i int) []byte {
			start, end := a.ValueOffsets(i)
			dst = append(dst, '{')
			for e := start; e < end; e++ {
				if e > start {
					dst = append(dst, ',')
				}
				dst = append(appendJSONString(dst, string(key(nil, int(e)))), ':')
				dst = item(dst, int(e))
			}
			return append(dst, '}')
		}
	case array.ListLike:
		elem := newJSONEncoder(a.ListValues())
		enc = func(dst []byte, i int) []byte {
			start, end := a.ValueOffsets(i)
			dst = append(dst, '[')
			for e := start; e < end; e++ {
				if e > start {
					dst = append(dst, ',')
				}
				dst = elem(dst, int(e))
			}
			return append(dst, ']')
		}
	default:
		format, asNumber := value.FormatterOf(col), jsonNumberType(col.DataType())
		enc = func(dst []byte, i int) []byte {
			start := len(dst)
			dst = format(dst, i)
			if !asNumber || !finite(col, i) {
				text := string(dst[start:])
				dst = appendJSONString(dst[:start], text)
			}
			return dst
		}
	}
	return func(dst []byte, i int) []byte {
		if value.IsNull(col, i) {
			return append(dst, "null"...)
		}
		return enc(dst, i)
	}
}

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
