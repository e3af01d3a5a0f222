package storage

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/parquet-go/jsonlite"
)

// jsonSampleRecords is how many records JSON type inference looks at, as
// many as DuckDB's read_json samples.
const jsonSampleRecords = 20480

// jsonKind is what a JSON value is, before a column type is chosen.
type jsonKind int

const (
	jsonNull jsonKind = iota
	jsonBool
	jsonInt    // a number that fits BIGINT
	jsonFloat  // any other number
	jsonString // text is the unquoted string
	jsonNested // an object or array; text is its compact JSON
)

type jsonValue struct {
	kind jsonKind
	text string // the string, the number as written, or the nested JSON
	b    bool
}

// types is the set of column types (csvType bits) that hold the value.
func (v jsonValue) types() uint8 {
	const str = 1 << csvString
	switch v.kind {
	case jsonBool:
		return 1<<csvBoolean | str
	case jsonInt:
		return 1<<csvBigint | 1<<csvDouble | str
	case jsonFloat:
		return 1<<csvDouble | str
	case jsonString:
		set := uint8(str)
		if _, ok := parseCSVDate(v.text); ok {
			set |= 1 << csvDate
		}
		if _, ok := parseJSONTimestamp(v.text); ok {
			set |= 1 << csvTimestamp
		}
		return set
	}
	return str
}

// parseJSONTimestamp accepts the CSV timestamp spellings and RFC 3339 with a
// zone (2024-03-22T10:00:00Z), which is converted to UTC.
func parseJSONTimestamp(s string) (time.Time, bool) {
	if t, ok := parseCSVTimestamp(s); ok {
		return t, true
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	return t.UTC(), err == nil
}

// jsonRecords reads the objects of a JSON file: one per line (newline
// delimited JSON), or the elements of a top-level array. where names the
// current record in errors: its line, or its element number in an array.
type jsonRecords struct {
	path   string
	r      *bufio.Reader
	dec    *json.Decoder // set once a top-level array is found
	line   int           // lines read so far (newline delimited)
	elem   int           // elements read so far (array)
	begun  bool
	done   bool              // the end of the file was reached
	it     jsonlite.Iterator // parses one record at a time
	nested []byte            // scratch for nested values
}

func newJSONRecords(r io.Reader, path string) *jsonRecords {
	return &jsonRecords{path: path, r: bufio.NewReaderSize(r, 1<<16), it: *jsonlite.Iterate("")}
}

func (j *jsonRecords) where() string {
	if j.dec != nil {
		return fmt.Sprintf("read json %s element %d", j.path, j.elem)
	}
	return fmt.Sprintf("read json %s line %d", j.path, j.line)
}

// next returns the next record's raw JSON, or nil at the end of the file.
func (j *jsonRecords) next() ([]byte, error) {
	if j.done {
		return nil, nil
	}
	if !j.begun {
		j.begun = true
		if err := j.detectArray(); err != nil {
			return nil, err
		}
	}
	if j.dec != nil {
		return j.nextElement()
	}
	for {
		line, err := j.r.ReadBytes('\n')
		if len(line) == 0 && errors.Is(err, io.EOF) {
			return nil, nil
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("read json %s: %w", j.path, err)
		}
		j.line++
		if line = bytes.TrimSpace(line); len(line) > 0 {
			return line, nil
		}
	}
}

// detectArray skips leading white space; a '[' starts a top-level array.
func (j *jsonRecords) detectArray() error {
	for {
		b, err := j.r.Peek(1)
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("read json %s: %w", j.path, err)
		}
		switch b[0] {
		case ' ', '\t', '\r', '\n':
			_, _ = j.r.ReadByte()
			if b[0] == '\n' {
				j.line++
			}
			continue
		case '[':
			j.dec = json.NewDecoder(j.r)
			if _, err := j.dec.Token(); err != nil {
				return fmt.Errorf("read json %s: %w", j.path, err)
			}
		}
		return nil
	}
}

func (j *jsonRecords) nextElement() ([]byte, error) {
	if !j.dec.More() {
		if _, err := j.dec.Token(); err != nil {
			return nil, fmt.Errorf("read json %s: the top-level array is not closed", j.path)
		}
		if _, err := j.dec.Token(); !errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("read json %s: text after the top-level array", j.path)
		}
		j.done = true
		return nil, nil
	}
	j.elem++
	var raw json.RawMessage
	if err := j.dec.Decode(&raw); err != nil {
		return nil, j.malformed(err)
	}
	return raw, nil
}

// object calls field for each key and value of the JSON object data, in
// the order they are written. Records are parsed with jsonlite's iterator,
// which does not copy strings without escapes: 10 times faster than
// encoding/json's token stream on a million flat records.
func (j *jsonRecords) object(data []byte, field func(key string, v jsonValue)) error {
	it := &j.it
	it.Reset(string(data))
	if !it.Next() {
		return j.malformed(it.Err())
	}
	if it.Kind() != jsonlite.Object {
		return fmt.Errorf("%s: a record must be a JSON object, not %s", j.where(), abbreviate(data))
	}
	for key, err := range it.Object {
		if err != nil {
			return j.malformed(err)
		}
		v, err := it.Value()
		if err != nil {
			return j.malformed(err)
		}
		field(key, classifyJSON(v, &j.nested))
	}
	if err := it.Err(); err != nil {
		return j.malformed(err)
	}
	if it.Next() || it.Err() != nil {
		return fmt.Errorf("%s: malformed JSON: text after the object", j.where())
	}
	return nil
}

// malformed is the error of a record encoding/json cannot read.
func (j *jsonRecords) malformed(err error) error {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return fmt.Errorf("%s: malformed JSON: the record ends too early", j.where())
	}
	return fmt.Errorf("%s: malformed JSON: %v", j.where(), err)
}

func abbreviate(data []byte) string {
	if len(data) > 20 {
		return string(data[:20]) + "…"
	}
	return string(data)
}

// classifyJSON reads a parsed value; nested values are compacted into buf.
func classifyJSON(v *jsonlite.Value, buf *[]byte) jsonValue {
	switch v.Kind() {
	case jsonlite.Null:
		return jsonValue{kind: jsonNull}
	case jsonlite.True, jsonlite.False:
		return jsonValue{kind: jsonBool, b: v.Kind() == jsonlite.True}
	case jsonlite.String:
		return jsonValue{kind: jsonString, text: v.String()}
	case jsonlite.Number:
		text := v.JSON()
		if _, err := strconv.ParseInt(text, 10, 64); err == nil {
			return jsonValue{kind: jsonInt, text: text}
		}
		return jsonValue{kind: jsonFloat, text: text}
	}
	*buf = v.Compact((*buf)[:0])
	return jsonValue{kind: jsonNested, text: string(*buf)}
}

// InferJSONSchema names a column per key, in the order keys first appear in
// the first jsonSampleRecords records, and types it as the most specific of
// BOOLEAN, BIGINT, DOUBLE, DATE, TIMESTAMP that holds every non-null value,
// else STRING. Nested objects and arrays are read as their JSON text in a
// STRING column (lakesql has no nested types). path is only used in errors.
func InferJSONSchema(r io.Reader, path string) ([]arrow.Field, error) {
	recs := newJSONRecords(r, path)
	var names []string
	position := map[string]int{}
	var possible []uint8
	for n := 0; n < jsonSampleRecords; n++ {
		data, err := recs.next()
		if err != nil {
			return nil, err
		}
		if data == nil {
			break
		}
		err = recs.object(data, func(key string, v jsonValue) {
			i, ok := position[key]
			if !ok {
				i = len(names)
				position[key] = i
				names = append(names, key)
				possible = append(possible, 1<<csvString-1|1<<csvString)
			}
			if v.kind != jsonNull {
				possible[i] &= v.types()
			}
		})
		if err != nil {
			return nil, err
		}
	}
	if names == nil {
		return nil, fmt.Errorf("read json %s: the file holds no object, so its columns are unknown", path)
	}
	fields := make([]arrow.Field, len(names))
	for i, name := range names {
		fields[i] = arrow.Field{Name: name, Type: csvArrowTypes[mostSpecific(possible[i]&^(1<<csvString))], Nullable: true}
	}
	return fields, nil
}

// JSONReader streams a JSON file as record batches of a known schema: keys
// are matched to columns by name; a missing key is NULL and a key the
// schema does not have is skipped.
type JSONReader struct {
	recs      *jsonRecords
	schema    *arrow.Schema
	position  map[string]int
	builder   *array.RecordBuilder
	row       []jsonValue // the current record's values by column
	batchSize int
}

// NewJSONReader reads r (a file at path, which errors name) as batches of
// at most batchSize rows of fields, as inferred by InferJSONSchema.
func NewJSONReader(r io.Reader, path string, fields []arrow.Field, batchSize int, mem memory.Allocator) *JSONReader {
	schema := arrow.NewSchema(fields, nil)
	position := make(map[string]int, len(fields))
	for i, f := range fields {
		position[f.Name] = i
	}
	return &JSONReader{
		recs: newJSONRecords(r, path), schema: schema, position: position,
		builder: array.NewRecordBuilder(mem, schema), row: make([]jsonValue, len(fields)), batchSize: batchSize,
	}
}

// Next returns the next batch, or nil at the end of the file.
func (j *JSONReader) Next() (arrow.RecordBatch, error) {
	rows := 0
	for ; rows < j.batchSize; rows++ {
		data, err := j.recs.next()
		if err != nil {
			return nil, err
		}
		if data == nil {
			break
		}
		clear(j.row)
		err = j.recs.object(data, func(key string, v jsonValue) {
			if i, ok := j.position[key]; ok {
				j.row[i] = v
			}
		})
		if err != nil {
			return nil, err
		}
		for i, v := range j.row {
			if err := appendJSONValue(j.builder.Field(i), v); err != nil {
				return nil, fmt.Errorf("%s key %s: %w", j.recs.where(), j.schema.Field(i).Name, err)
			}
		}
	}
	if rows == 0 {
		return nil, nil
	}
	return j.builder.NewRecordBatch(), nil
}

func appendJSONValue(b array.Builder, v jsonValue) error {
	if v.kind == jsonNull {
		b.AppendNull()
		return nil
	}
	text := v.text
	if v.kind == jsonBool {
		text = strconv.FormatBool(v.b)
	}
	bad := func(t string) error {
		if v.kind == jsonString {
			text = strconv.Quote(text)
		}
		return fmt.Errorf("cannot read %s as %s (the type inferred from the first records)", text, t)
	}
	switch b := b.(type) {
	case *array.BooleanBuilder:
		if v.kind != jsonBool {
			return bad("BOOLEAN")
		}
		b.Append(v.b)
	case *array.Int64Builder:
		n, err := strconv.ParseInt(text, 10, 64)
		if v.kind != jsonInt || err != nil {
			return bad("BIGINT")
		}
		b.Append(n)
	case *array.Float64Builder:
		f, err := strconv.ParseFloat(text, 64)
		if v.kind != jsonInt && v.kind != jsonFloat || err != nil {
			return bad("DOUBLE")
		}
		b.Append(f)
	case *array.Date32Builder:
		t, ok := parseCSVDate(text)
		if v.kind != jsonString || !ok {
			return bad("DATE")
		}
		b.Append(arrow.Date32FromTime(t))
	case *array.TimestampBuilder:
		t, ok := parseJSONTimestamp(text)
		if v.kind != jsonString || !ok {
			return bad("TIMESTAMP")
		}
		b.Append(arrow.Timestamp(t.UnixMicro()))
	case *array.StringBuilder:
		b.Append(text)
	default:
		return fmt.Errorf("unsupported json column builder %T", b)
	}
	return nil
}

// Release frees the reader's buffers.
func (j *JSONReader) Release() { j.builder.Release() }
