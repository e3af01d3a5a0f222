package storage

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakesql/lakesql/value"
)

// csvSampleRows is how many records type inference looks at.
const csvSampleRows = 1000

// CSVOptions says how a CSV file is laid out.
type CSVOptions struct {
	Header bool // the first record names the columns
	Delim  rune
}

// csvType is a type a CSV column can be inferred as, from the most specific
// to the most general; STRING holds anything. Inference keeps the set of
// types every sampled value parses as and picks the first.
type csvType int

const (
	csvBoolean csvType = iota
	csvBigint
	csvDouble
	csvDate
	csvTimestamp
	csvTimestampTZ
	csvString
)

var csvArrowTypes = [...]arrow.DataType{
	csvBoolean:     arrow.FixedWidthTypes.Boolean,
	csvBigint:      arrow.PrimitiveTypes.Int64,
	csvDouble:      arrow.PrimitiveTypes.Float64,
	csvDate:        arrow.FixedWidthTypes.Date32,
	csvTimestamp:   timestampMicros,
	csvTimestampTZ: timestampMicrosTZ,
	csvString:      arrow.BinaryTypes.String,
}

// timestampLayouts are the accepted timestamp spellings; a fractional second
// after the seconds is accepted by time.Parse without being in the layout.
// A bare date is a timestamp at midnight, so a column mixing both is TIMESTAMP.
var timestampLayouts = []string{"2006-01-02 15:04:05", "2006-01-02T15:04:05", "2006-01-02 15:04", "2006-01-02T15:04", time.DateOnly}

func parseCSVDate(s string) (time.Time, bool) {
	t, err := time.Parse(time.DateOnly, s)
	return t, err == nil
}

func parseCSVTimestamp(s string) (time.Time, bool) {
	for _, layout := range timestampLayouts {
		if t, err := time.Parse(layout, s); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

func parseCSVBool(s string) (bool, bool) {
	switch strings.ToLower(s) {
	case "true":
		return true, true
	case "false":
		return false, true
	}
	return false, false
}

// csvParses reports whether the non-empty field s is a value of type t.
func csvParses(t csvType, s string) bool {
	var err error
	ok := true
	switch t {
	case csvBoolean:
		_, ok = parseCSVBool(s)
	case csvBigint:
		_, err = strconv.ParseInt(s, 10, 64)
	case csvDouble:
		_, err = strconv.ParseFloat(s, 64)
	case csvDate:
		_, ok = parseCSVDate(s)
	case csvTimestamp:
		_, ok = parseCSVTimestamp(s)
	case csvTimestampTZ:
		// Timestamps with an offset or Z, which TIMESTAMP does not take:
		// instants, as DuckDB infers them.
		_, err = value.ParseTimestampTZ(s)
	}
	return ok && err == nil
}

// newCSVReader reads records of r with opts; fields is the expected number
// of fields per record, or 0 to take the first record's count.
func newCSVReader(r io.Reader, opts CSVOptions, fields int) *csv.Reader {
	cr := csv.NewReader(r)
	cr.Comma = opts.Delim
	cr.FieldsPerRecord = fields
	cr.ReuseRecord = true
	return cr
}

// InferCSVSchema reads the header (or numbers the columns column0, column1, …)
// and infers each column's type from the first csvSampleRows records: the
// most specific type of BOOLEAN, BIGINT, DOUBLE, DATE, TIMESTAMP that every
// non-empty value parses as, else STRING. path is only used in errors.
func InferCSVSchema(r io.Reader, path string, opts CSVOptions) ([]arrow.Field, error) {
	cr := newCSVReader(r, opts, 0)
	var names []string
	var possible []uint8 // per column, a bit per csvType every value so far parses as
	for rows := 0; rows <= csvSampleRows; rows++ {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("read csv %s: %w", path, err)
		}
		if names == nil {
			names, possible = csvColumnNames(rec, opts.Header), make([]uint8, len(rec))
			for i := range possible {
				possible[i] = 1<<csvString - 1
			}
			if opts.Header {
				continue
			}
		}
		for i, s := range rec {
			if s != "" {
				possible[i] = narrowCSVTypes(possible[i], s)
			}
		}
	}
	if names == nil {
		return nil, fmt.Errorf("read csv %s: the file is empty", path)
	}
	fields := make([]arrow.Field, len(names))
	for i, name := range names {
		fields[i] = arrow.Field{Name: name, Type: csvArrowTypes[mostSpecific(possible[i])], Nullable: true}
	}
	return fields, nil
}

// narrowCSVTypes drops from the set of possible types those s does not parse as.
func narrowCSVTypes(possible uint8, s string) uint8 {
	for t := csvBoolean; t < csvString; t++ {
		if possible&(1<<t) != 0 && !csvParses(t, s) {
			possible &^= 1 << t
		}
	}
	return possible
}

// mostSpecific is the first type of the set, STRING when it is empty. A
// column with no value at all is STRING too.
func mostSpecific(possible uint8) csvType {
	t := csvBoolean
	for t < csvString && possible&(1<<t) == 0 {
		t++
	}
	if possible == 1<<csvString-1 {
		return csvString
	}
	return t
}

// csvColumnNames names the columns from the header record, or column0, … when
// there is none (or a header field is empty).
func csvColumnNames(first []string, header bool) []string {
	names := make([]string, len(first))
	for i := range first {
		names[i] = "column" + strconv.Itoa(i)
		if header && strings.TrimSpace(first[i]) != "" {
			names[i] = strings.TrimSpace(first[i])
		}
	}
	return names
}

// CSVReader streams a CSV file as record batches of a known schema.
type CSVReader struct {
	path      string
	r         *csv.Reader
	schema    *arrow.Schema
	builder   *array.RecordBuilder
	batchSize int
	header    bool // the header record is still to be checked
}

// NewCSVReader reads r (a file at path, which errors name) as batches of at
// most batchSize rows of fields, as inferred by InferCSVSchema. With a header,
// the file's header must name the same columns.
func NewCSVReader(r io.Reader, path string, opts CSVOptions, fields []arrow.Field, batchSize int, mem memory.Allocator) *CSVReader {
	schema := arrow.NewSchema(fields, nil)
	return &CSVReader{
		path: path, r: newCSVReader(r, opts, len(fields)), schema: schema,
		builder: array.NewRecordBuilder(mem, schema), batchSize: batchSize, header: opts.Header,
	}
}

// Next returns the next batch, or nil at the end of the file.
func (c *CSVReader) Next() (arrow.RecordBatch, error) {
	for rows := 0; rows < c.batchSize; {
		rec, err := c.r.Read()
		if errors.Is(err, io.EOF) {
			if rows == 0 {
				return nil, nil
			}
			break
		}
		if err != nil {
			return nil, fmt.Errorf("read csv %s: %w", c.path, err)
		}
		if c.header {
			c.header = false
			if err := c.checkHeader(rec); err != nil {
				return nil, err
			}
			continue
		}
		if err := c.appendRecord(rec); err != nil {
			return nil, err
		}
		rows++
	}
	return c.builder.NewRecordBatch(), nil
}

func (c *CSVReader) checkHeader(rec []string) error {
	names := csvColumnNames(rec, true)
	for i, f := range c.schema.Fields() {
		if names[i] != f.Name {
			return fmt.Errorf("read csv %s: column %d is %s, the first file's is %s", c.path, i+1, names[i], f.Name)
		}
	}
	return nil
}

// appendRecord adds one record's values; an empty field is NULL.
func (c *CSVReader) appendRecord(rec []string) error {
	for i, s := range rec {
		b := c.builder.Field(i)
		if s == "" {
			b.AppendNull()
			continue
		}
		if err := appendCSVValue(b, s); err != nil {
			line, _ := c.r.FieldPos(i)
			return fmt.Errorf("read csv %s line %d column %s: %w", c.path, line, c.schema.Field(i).Name, err)
		}
	}
	return nil
}

func appendCSVValue(b array.Builder, s string) error {
	bad := func(t string) error { return fmt.Errorf("cannot parse %q as %s", s, t) }
	switch b := b.(type) {
	case *array.BooleanBuilder:
		v, ok := parseCSVBool(s)
		if !ok {
			return bad("BOOLEAN")
		}
		b.Append(v)
	case *array.Int64Builder:
		v, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return bad("BIGINT")
		}
		b.Append(v)
	case *array.Float64Builder:
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return bad("DOUBLE")
		}
		b.Append(v)
	case *array.Date32Builder:
		t, ok := parseCSVDate(s)
		if !ok {
			return bad("DATE")
		}
		b.Append(arrow.Date32FromTime(t))
	case *array.TimestampBuilder:
		if b.Type().(*arrow.TimestampType).TimeZone != "" {
			v, err := value.ParseTimestampTZ(s)
			if err != nil {
				return bad("TIMESTAMPTZ")
			}
			b.Append(arrow.Timestamp(v))
			break
		}
		t, ok := parseCSVTimestamp(s)
		if !ok {
			return bad("TIMESTAMP")
		}
		b.Append(arrow.Timestamp(t.UnixMicro()))
	case *array.StringBuilder:
		b.Append(s)
	default:
		return fmt.Errorf("unsupported csv column builder %T", b)
	}
	return nil
}

// Release frees the reader's buffers.
func (c *CSVReader) Release() { c.builder.Release() }
