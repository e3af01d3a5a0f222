package main

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/lakesql/lakesql/value"
)

// jsonRenderer writes one JSON array of objects per result, one object per
// line so that large results stream and stay diffable; as jsonl (newline-
// delimited JSON) it writes the objects alone, one per line. Numbers (decimals
// included, with all their digits) are JSON numbers, NULL is null, nested
// values are arrays and objects, and everything else is its text form.
type jsonRenderer struct {
	w     io.Writer
	lines bool     // jsonl: no enclosing array
	keys  []string // field names, already JSON-encoded
	rows  int
	line  strings.Builder // reused per row to write each row with one call
}

func newJSONRenderer(w io.Writer, lines bool) *jsonRenderer {
	return &jsonRenderer{w: w, lines: lines}
}

func (j *jsonRenderer) begin(schema *arrow.Schema) error {
	for _, f := range schema.Fields() {
		j.keys = append(j.keys, jsonString(f.Name))
	}
	if j.lines {
		return nil
	}
	_, err := io.WriteString(j.w, "[")
	return err
}

func (j *jsonRenderer) batch(rec arrow.RecordBatch) error {
	if err := checkColumns(len(j.keys), rec); err != nil {
		return err
	}
	for r := 0; r < int(rec.NumRows()); r++ {
		j.line.Reset()
		switch {
		case j.lines && j.rows > 0:
			j.line.WriteString("\n")
		case j.rows > 0:
			j.line.WriteString(",\n")
		case !j.lines:
			j.line.WriteString("\n")
		}
		j.line.WriteString("{")
		for c, key := range j.keys {
			if c > 0 {
				j.line.WriteString(",")
			}
			j.line.WriteString(key + ":")
			writeJSONValue(&j.line, rec.Column(c), r)
		}
		j.line.WriteString("}")
		if _, err := io.WriteString(j.w, j.line.String()); err != nil {
			return err
		}
		j.rows++
	}
	return nil
}

func (j *jsonRenderer) end() error {
	closing := "]\n"
	switch {
	case j.lines && j.rows == 0:
		return nil
	case j.lines:
		closing = "\n"
	case j.rows > 0:
		closing = "\n]\n"
	}
	_, err := io.WriteString(j.w, closing)
	return err
}

// writeJSONValue appends arr[i] as a JSON value.
func writeJSONValue(b *strings.Builder, arr arrow.Array, i int) {
	if value.IsNull(arr, i) {
		b.WriteString("null")
		return
	}
	switch a := arr.(type) {
	case *array.Boolean,
		*array.Int8, *array.Int16, *array.Int32, *array.Int64,
		*array.Uint8, *array.Uint16, *array.Uint32, *array.Uint64,
		*array.Decimal32, *array.Decimal64, *array.Decimal128, *array.Decimal256:
		b.WriteString(value.Format(arr, i))
	case *array.Float16, *array.Float32, *array.Float64:
		writeJSONFloat(b, arr, i)
	case *array.Dictionary:
		writeJSONValue(b, a.Dictionary(), a.GetValueIndex(i))
	case array.ExtensionArray:
		if a.ExtensionType().ExtensionName() == "arrow.uuid" {
			b.WriteString(jsonString(value.Format(arr, i)))
		} else {
			writeJSONValue(b, a.Storage(), i)
		}
	case *array.Map:
		writeJSONMap(b, a, i)
	case array.ListLike:
		writeJSONList(b, a, i)
	case *array.Struct:
		writeJSONStruct(b, a, i)
	default:
		b.WriteString(jsonString(value.Format(arr, i)))
	}
}

// writeJSONFloat writes a float as a number; NaN and ±Infinity have no JSON
// number form, so they are written as the strings "nan", "inf" and "-inf"
// (their text form) rather than dropped.
func writeJSONFloat(b *strings.Builder, arr arrow.Array, i int) {
	switch s := value.Format(arr, i); s {
	case "nan", "inf", "-inf":
		b.WriteString(jsonString(s))
	default:
		b.WriteString(s)
	}
}

func writeJSONList(b *strings.Builder, a array.ListLike, i int) {
	values := a.ListValues()
	start, end := a.ValueOffsets(i)
	b.WriteString("[")
	for j := start; j < end; j++ {
		if j > start {
			b.WriteString(",")
		}
		writeJSONValue(b, values, int(j))
	}
	b.WriteString("]")
}

// writeJSONMap writes a map as an object; JSON keys must be strings, so keys
// use their text form.
func writeJSONMap(b *strings.Builder, a *array.Map, i int) {
	keys, items := a.Keys(), a.Items()
	start, end := a.ValueOffsets(i)
	b.WriteString("{")
	for j := start; j < end; j++ {
		if j > start {
			b.WriteString(",")
		}
		b.WriteString(jsonString(value.Format(keys, int(j))) + ":")
		writeJSONValue(b, items, int(j))
	}
	b.WriteString("}")
}

func writeJSONStruct(b *strings.Builder, a *array.Struct, i int) {
	typ := a.DataType().(*arrow.StructType)
	b.WriteString("{")
	for f := 0; f < a.NumField(); f++ {
		if f > 0 {
			b.WriteString(",")
		}
		b.WriteString(jsonString(typ.Field(f).Name) + ":")
		writeJSONValue(b, a.Field(f), i)
	}
	b.WriteString("}")
}

// jsonString encodes s as a JSON string without HTML escaping: the output is
// for terminals and programs, not for embedding in web pages.
func jsonString(s string) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // encoding a string cannot fail
	return strings.TrimSuffix(buf.String(), "\n")
}
