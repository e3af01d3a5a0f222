package storage

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"reflect"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/extensions"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/iceberg-go"
	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress"
	"github.com/parquet-go/parquet-go/deprecated"
	"github.com/parquet-go/parquet-go/encoding"

	"github.com/lakesql/lakesql/value"
)

// ParquetWriterOptions configures NewParquetWriter; zero values mean the
// defaults of Iceberg's write.parquet.* table properties.
type ParquetWriterOptions struct {
	Compression   string // "zstd" (default), "snappy", "gzip", "uncompressed" — write.parquet.compression-codec
	RowGroupRows  int    // default 1<<20 rows — write.parquet.row-group-size-rows
	RowGroupBytes int64  // default 128 MiB — write.parquet.row-group-size-bytes
	PageBytes     int    // default 1 MiB, before encoding — write.parquet.page-size-bytes
	PageRows      int    // default 20,000 — write.parquet.page-row-limit
	DictBytes     int64  // default 2 MiB; past it a column chunk goes on in PLAIN — write.parquet.dict-size-bytes
}

// Defaults of the write.parquet.* properties, as in Iceberg's Java writer.
const (
	defaultRowGroupRows  = 1 << 20
	defaultRowGroupBytes = 128 << 20
	defaultPageBytes     = 1 << 20
	defaultPageRows      = 20_000
	defaultDictBytes     = 2 << 20
)

func (o ParquetWriterOptions) withDefaults() ParquetWriterOptions {
	o.RowGroupRows = cmp.Or(max(o.RowGroupRows, 0), defaultRowGroupRows)
	o.RowGroupBytes = cmp.Or(max(o.RowGroupBytes, 0), defaultRowGroupBytes)
	o.PageBytes = cmp.Or(max(o.PageBytes, 0), defaultPageBytes)
	o.PageRows = cmp.Or(max(o.PageRows, 0), defaultPageRows)
	o.DictBytes = cmp.Or(max(o.DictBytes, 0), defaultDictBytes)
	return o
}

// WriteColumn describes one column of an Iceberg schema to write.
type WriteColumn struct {
	FieldID  int
	Name     string
	Type     arrow.DataType
	Required bool
	// Iceberg, for a nested column, names the field ids of its struct
	// fields, list elements and map keys and values (nil: none written).
	Iceberg iceberg.Type
}

// ParquetWriter writes Arrow record batches as an Iceberg data file and
// collects the file's Iceberg metrics on the way.
//
// Pages are cut every PageRows rows in every column at once (and earlier in
// a column whose page buffer fills up), so that page boundaries line up
// across columns and the page index can skip the same rows in all of them.
type ParquetWriter struct {
	cols      []WriteColumn
	opts      ParquetWriterOptions
	codec     compress.Codec
	out       *countingWriter
	w         *parquet.Writer // created by the first Write, which picks the encodings
	nodes     []parquet.Node  // each column's schema node
	encoders  []columnEncoder
	shredders []*shredder    // nested columns (nil for flat ones)
	leafStats [][]structLeaf // nested columns: metrics of their struct-only leaves
	leaf      []int          // each column's first leaf column index
	leafIDs   []int          // the field id of each leaf column
	metrics   []*columnMetrics
	groupRows int   // rows in the current row group
	groupBase int64 // w.Size() when the current row group started
	pageRows  int   // rows in the current page
	rows      int64 // rows in the file
	values    []parquet.Value
}

// valueChunk bounds the parquet.Value scratch buffer used per column write.
const valueChunk = 4096

// NewParquetWriter starts a Parquet file with the schema described by cols.
func NewParquetWriter(w io.Writer, cols []WriteColumn, opts ParquetWriterOptions) (*ParquetWriter, error) {
	codec, err := compressionCodec(opts.Compression)
	if err != nil {
		return nil, err
	}
	pw := &ParquetWriter{
		cols:   cols,
		opts:   opts.withDefaults(),
		codec:  codec,
		out:    &countingWriter{w: w},
		values: make([]parquet.Value, 0, valueChunk),
	}
	leaves := 0
	for _, c := range cols {
		pw.leaf = append(pw.leaf, leaves)
		if IsNested(c.Type) {
			node, root, err := nestedSchema(c.Type, c.Iceberg, &leaves, leaves, 0)
			if err != nil {
				return nil, fmt.Errorf("write column %s: %w", c.Name, err)
			}
			root.optional = !c.Required
			sh := &shredder{root: root, base: pw.leaf[len(pw.leaf)-1], bufs: make([][]parquet.Value, root.end)}
			pw.nodes = append(pw.nodes, node)
			pw.shredders = append(pw.shredders, sh)
			pw.encoders = append(pw.encoders, nil)
			pw.metrics = append(pw.metrics, nil)
			pw.leafStats = append(pw.leafStats, structLeaves(c.Type, c.Iceberg, nil))
			pw.leafIDs = root.leafIDs(pw.leafIDs)
			continue
		}
		node, err := parquetNode(c.Type)
		if err != nil {
			return nil, fmt.Errorf("write column %s: %w", c.Name, err)
		}
		enc, err := newColumnEncoder(c.Type, leaves, !c.Required)
		if err != nil {
			return nil, fmt.Errorf("write column %s: %w", c.Name, err)
		}
		m, err := newColumnMetrics(c.Type)
		if err != nil {
			return nil, fmt.Errorf("write column %s: %w", c.Name, err)
		}
		leaves++
		pw.nodes = append(pw.nodes, node)
		pw.shredders = append(pw.shredders, nil)
		pw.encoders = append(pw.encoders, enc)
		pw.metrics = append(pw.metrics, m)
		pw.leafStats = append(pw.leafStats, nil)
		pw.leafIDs = append(pw.leafIDs, c.FieldID)
	}
	return pw, nil
}

// start creates the parquet-go writer, choosing each column's encoding from
// the first batch (nil when the file has no rows).
func (w *ParquetWriter) start(first arrow.RecordBatch) error {
	dict := make([]bool, len(w.cols))
	if first != nil {
		for i := range w.cols {
			dict[i] = w.shredders[i] == nil && dictionaryPays(first.Column(i), w.opts.DictBytes)
		}
	}
	schema := parquetSchema(w.cols, w.nodes, dict)
	w.w = parquet.NewWriter(w.out, schema,
		parquet.Compression(w.codec),
		parquet.PageBufferSize(w.opts.PageBytes),
		// As parquet-mr does, a column whose dictionary outgrows the bound
		// goes on in PLAIN for the rest of the row group.
		parquet.DictionaryMaxBytes(w.opts.DictBytes),
		// Row groups are cut by Write; this only keeps parquet-go from
		// splitting them on its own.
		parquet.MaxRowsPerRowGroup(int64(w.opts.RowGroupRows)),
		// Version 1 data pages are what the Java Iceberg writer produces and
		// what every reader supports.
		parquet.DataPageVersion(1),
		parquet.CreatedBy("lakesql", "", ""),
	)
	return nil
}

func compressionCodec(name string) (compress.Codec, error) {
	switch name {
	case "", "zstd":
		return &parquet.Zstd, nil
	case "snappy":
		return &parquet.Snappy, nil
	case "gzip":
		return &parquet.Gzip, nil
	case "uncompressed", "none":
		return &parquet.Uncompressed, nil
	}
	return nil, fmt.Errorf("unsupported parquet compression codec %q", name)
}

// Write appends a batch whose columns follow the writer's columns in order and type.
func (w *ParquetWriter) Write(batch arrow.RecordBatch) error {
	if int(batch.NumCols()) != len(w.cols) {
		return fmt.Errorf("write parquet: batch has %d columns, schema has %d", batch.NumCols(), len(w.cols))
	}
	for i, c := range w.cols {
		if got := batch.Column(i).DataType(); !arrow.TypeEqual(got, c.Type) {
			return fmt.Errorf("write column %s: batch column is %s, expected %s", c.Name, got, c.Type)
		}
		if c.Required && batch.Column(i).NullN() > 0 {
			return fmt.Errorf("write column %s: required column has %d nulls", c.Name, batch.Column(i).NullN())
		}
		if ivs, ok := batch.Column(i).(*array.MonthDayNanoInterval); ok {
			if err := checkParquetIntervals(ivs); err != nil {
				return fmt.Errorf("write column %s: %w", c.Name, err)
			}
		}
	}
	if w.w == nil {
		if err := w.start(batch); err != nil {
			return err
		}
	}
	n := int(batch.NumRows())
	for off := 0; off < n; {
		end := min(n, off+w.opts.RowGroupRows-w.groupRows, off+w.opts.PageRows-w.pageRows)
		if err := w.writeRows(batch, off, end); err != nil {
			return err
		}
		w.groupRows += end - off
		w.pageRows += end - off
		w.rows += int64(end - off)
		off = end
		if w.pageRows == w.opts.PageRows {
			if err := w.endPage(); err != nil {
				return err
			}
		}
		if w.groupRows == w.opts.RowGroupRows || w.w.Size()-w.groupBase >= w.opts.RowGroupBytes {
			if err := w.w.Flush(); err != nil {
				return fmt.Errorf("write parquet row group: %w", err)
			}
			w.groupRows, w.pageRows, w.groupBase = 0, 0, w.w.Size()
		}
	}
	return nil
}

// endPage writes out every column's buffered page.
func (w *ParquetWriter) endPage() error {
	for i, cw := range w.w.ColumnWriters() {
		if err := cw.Flush(); err != nil {
			return fmt.Errorf("write column %s: %w", w.cols[i].Name, err)
		}
	}
	w.pageRows = 0
	return nil
}

// writeRows writes rows [from, to) of batch column by column.
func (w *ParquetWriter) writeRows(batch arrow.RecordBatch, from, to int) error {
	writers := w.w.ColumnWriters()
	for i, c := range w.cols {
		arr := batch.Column(i)
		if sh := w.shredders[i]; sh != nil {
			for _, l := range w.leafStats[i] {
				l.update(memory.DefaultAllocator, arr, from, to)
			}
			for lo := from; lo < to; lo += valueChunk {
				if err := sh.write(writers, arr, lo, min(to, lo+valueChunk)); err != nil {
					return fmt.Errorf("write column %s: %w", c.Name, err)
				}
			}
			continue
		}
		w.metrics[i].update(arr, from, to)
		for lo := from; lo < to; lo += valueChunk {
			hi := min(to, lo+valueChunk)
			w.values = w.encoders[i](w.values[:0], arr, lo, hi)
			if _, err := writers[w.leaf[i]].WriteRowValues(w.values); err != nil {
				return fmt.Errorf("write column %s: %w", c.Name, err)
			}
		}
	}
	return nil
}

// BytesWritten estimates the file size so far, including buffered rows.
func (w *ParquetWriter) BytesWritten() int64 {
	if w.w == nil {
		return 0
	}
	return w.w.Size()
}

// Close writes the footer and returns the file's Iceberg metrics.
func (w *ParquetWriter) Close() (FileMetrics, error) {
	if w.w == nil {
		if err := w.start(nil); err != nil {
			return FileMetrics{}, err
		}
	}
	if err := w.w.Close(); err != nil {
		return FileMetrics{}, fmt.Errorf("close parquet writer: %w", err)
	}
	fm := FileMetrics{
		RecordCount: w.rows,
		FileSize:    w.out.n,
		ColumnSizes: make(map[int]int64, len(w.cols)),
		ValueCounts: make(map[int]int64, len(w.cols)),
		NullCounts:  make(map[int]int64, len(w.cols)),
		NaNCounts:   make(map[int]int64),
		LowerBounds: make(map[int][]byte, len(w.cols)),
		UpperBounds: make(map[int][]byte, len(w.cols)),
	}
	for _, rg := range w.w.File().Metadata().RowGroups {
		for i, cc := range rg.Columns {
			if id := w.leafIDs[i]; id != 0 {
				fm.ColumnSizes[id] += cc.MetaData.TotalCompressedSize
			}
		}
	}
	for i, c := range w.cols {
		for _, l := range w.leafStats[i] {
			if err := l.metrics.fill(&fm, l.fieldID); err != nil {
				return FileMetrics{}, fmt.Errorf("metrics of column %s: %w", c.Name, err)
			}
		}
		if w.metrics[i] == nil {
			continue // nested columns: their struct-only leaves' metrics above
		}
		if err := w.metrics[i].fill(&fm, c.FieldID); err != nil {
			return FileMetrics{}, fmt.Errorf("metrics of column %s: %w", c.Name, err)
		}
	}
	return fm, nil
}

type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// parquetSchema builds the file schema, with the field ids, repetition and
// logical types the Iceberg spec's Parquet appendix prescribes; columns with
// dict[i] set are dictionary encoded.
func parquetSchema(cols []WriteColumn, nodes []parquet.Node, dict []bool) *parquet.Schema {
	fields := make(orderedGroup, len(cols))
	for i, c := range cols {
		node := nodes[i]
		if i < len(dict) && dict[i] {
			node = parquet.Encoded(node, &parquet.RLEDictionary)
		}
		if c.Required {
			node = parquet.Required(node)
		} else {
			node = parquet.Optional(node)
		}
		fields[i] = orderedField{Node: parquet.FieldID(node, c.FieldID), name: c.Name}
	}
	return parquet.NewSchema("table", fields)
}

func parquetNode(t arrow.DataType) (parquet.Node, error) {
	switch t := t.(type) {
	case *arrow.BooleanType:
		return parquet.Leaf(parquet.BooleanType), nil
	case *arrow.Int32Type:
		return parquet.Leaf(parquet.Int32Type), nil
	case *arrow.Int64Type:
		return parquet.Leaf(parquet.Int64Type), nil
	case *arrow.Float32Type:
		return parquet.Leaf(parquet.FloatType), nil
	case *arrow.Float64Type:
		return parquet.Leaf(parquet.DoubleType), nil
	case *arrow.Date32Type:
		return parquet.Date(), nil
	case *arrow.Time64Type:
		if t.Unit == arrow.Microsecond {
			return parquet.TimeAdjusted(parquet.Microsecond, false), nil
		}
	case *arrow.TimestampType:
		if t.Unit == arrow.Microsecond {
			// Iceberg's timestamptz is the UTC-adjusted timestamp; its Arrow
			// form is the one carrying a time zone.
			return parquet.TimestampAdjusted(parquet.Microsecond, t.TimeZone != ""), nil
		}
	case *arrow.Decimal128Type:
		return decimalNode(t), nil
	case *arrow.StringType:
		return parquet.String(), nil
	case *arrow.BinaryType:
		return parquet.Leaf(parquet.ByteArrayType), nil
	case *extensions.UUIDType:
		return parquet.UUID(), nil
	case *arrow.FixedSizeBinaryType:
		return parquet.Leaf(parquet.FixedLenByteArrayType(t.ByteWidth)), nil
	case *arrow.MonthDayNanoIntervalType:
		return parquet.Leaf(intervalType{parquet.FixedLenByteArrayType(12)}), nil
	}
	return nil, fmt.Errorf("arrow type %s not supported by the parquet writer", t)
}

// intervalType is Parquet's INTERVAL, which has no logical type, only the
// legacy converted type on a FIXED_LEN_BYTE_ARRAY(12).
type intervalType struct{ parquet.Type }

var intervalConverted = deprecated.Interval

func (intervalType) ConvertedType() *deprecated.ConvertedType { return &intervalConverted }

// checkParquetIntervals fails on an interval Parquet's INTERVAL, three
// unsigned 32-bit fields, cannot hold: a negative one (as DuckDB refuses
// it) or one of 2³² milliseconds or more.
func checkParquetIntervals(a *array.MonthDayNanoInterval) error {
	for i := range a.Len() {
		v := a.Value(i)
		if a.IsValid(i) && (v.Months < 0 || v.Days < 0 || v.Nanoseconds < 0 || v.Nanoseconds/1_000_000 > math.MaxUint32) {
			return fmt.Errorf("Parquet cannot store the INTERVAL %s: its months, days and milliseconds must each be from 0 to 4294967295", value.AppendInterval(nil, v))
		}
	}
	return nil
}

// intervalBytes is an INTERVAL as Parquet stores it: months, days and
// milliseconds as little-endian 32-bit integers; the time below a
// millisecond is dropped, as DuckDB drops it.
func intervalBytes(v arrow.MonthDayNanoInterval) []byte {
	b := make([]byte, 12)
	binary.LittleEndian.PutUint32(b, uint32(v.Months))
	binary.LittleEndian.PutUint32(b[4:], uint32(v.Days))
	binary.LittleEndian.PutUint32(b[8:], uint32(v.Nanoseconds/1_000_000))
	return b
}

// decimalNode stores decimals as INT32 up to precision 9, INT64 up to 18 and
// as the minimal FIXED_LEN_BYTE_ARRAY beyond.
func decimalNode(t *arrow.Decimal128Type) parquet.Node {
	scale, precision := int(t.Scale), int(t.Precision)
	switch {
	case precision <= 9:
		return parquet.Decimal(scale, precision, parquet.Int32Type)
	case precision <= 18:
		return parquet.Decimal(scale, precision, parquet.Int64Type)
	}
	return parquet.Decimal(scale, precision, parquet.FixedLenByteArrayType(decimalBytes(precision)))
}

// decimalBytes is the minimal number of bytes holding any unscaled value of
// the given precision in two's complement.
func decimalBytes(precision int) int {
	for n := 1; ; n++ {
		// 10^precision - 1 must fit in 8n-1 bits.
		if float64(precision) <= float64(8*n-1)*0.30102999566398120 {
			return n
		}
	}
}

// orderedGroup is a group node keeping its fields in the given order:
// parquet.Group is a map and would sort the columns by name.
type orderedGroup []parquet.Field

func (g orderedGroup) ID() int                     { return 0 }
func (g orderedGroup) String() string              { return "table" }
func (g orderedGroup) Type() parquet.Type          { return parquet.Group{}.Type() }
func (g orderedGroup) Optional() bool              { return false }
func (g orderedGroup) Repeated() bool              { return false }
func (g orderedGroup) Required() bool              { return true }
func (g orderedGroup) Leaf() bool                  { return false }
func (g orderedGroup) Fields() []parquet.Field     { return g }
func (g orderedGroup) Encoding() encoding.Encoding { return nil }
func (g orderedGroup) Compression() compress.Codec { return nil }
func (g orderedGroup) GoType() reflect.Type        { return reflect.TypeFor[map[string]any]() }
func (f orderedField) Name() string                { return f.name }
func (f orderedField) Value(base reflect.Value) reflect.Value {
	return base.MapIndex(reflect.ValueOf(f.name))
}

type orderedField struct {
	parquet.Node
	name string
}

// columnEncoder appends the parquet values of rows [lo, hi) of an Arrow array.
//
// parquet-go's Writer only accepts column data as parquet.Value (its typed
// column buffers cannot carry definition levels into a file writer), so
// values are wrapped here. parquet.Value is a small struct that points into
// the Arrow buffers: this allocates nothing per value and copies no bytes.
type columnEncoder func(dst []parquet.Value, arr arrow.Array, lo, hi int) []parquet.Value

// leafValuer returns value i of an array of a leaf type as a parquet value
// (without levels).
type leafValuer func(arr arrow.Array, i int) parquet.Value

// typedValuer builds a leafValuer from a typed accessor.
func typedValuer[A arrow.Array](value func(a A, i int) parquet.Value) leafValuer {
	return func(arr arrow.Array, i int) parquet.Value { return value(arr.(A), i) }
}

func newLeafValuer(t arrow.DataType) (leafValuer, error) {
	switch t := t.(type) {
	case *arrow.BooleanType:
		return typedValuer(func(a *array.Boolean, i int) parquet.Value { return parquet.BooleanValue(a.Value(i)) }), nil
	case *arrow.Int32Type:
		return typedValuer(func(a *array.Int32, i int) parquet.Value { return parquet.Int32Value(a.Value(i)) }), nil
	case *arrow.Date32Type:
		return typedValuer(func(a *array.Date32, i int) parquet.Value { return parquet.Int32Value(int32(a.Value(i))) }), nil
	case *arrow.Int64Type:
		return typedValuer(func(a *array.Int64, i int) parquet.Value { return parquet.Int64Value(a.Value(i)) }), nil
	case *arrow.Time64Type:
		return typedValuer(func(a *array.Time64, i int) parquet.Value { return parquet.Int64Value(int64(a.Value(i))) }), nil
	case *arrow.TimestampType:
		return typedValuer(func(a *array.Timestamp, i int) parquet.Value { return parquet.Int64Value(int64(a.Value(i))) }), nil
	case *arrow.Float32Type:
		return typedValuer(func(a *array.Float32, i int) parquet.Value { return parquet.FloatValue(a.Value(i)) }), nil
	case *arrow.Float64Type:
		return typedValuer(func(a *array.Float64, i int) parquet.Value { return parquet.DoubleValue(a.Value(i)) }), nil
	case *arrow.StringType:
		return typedValuer(func(a *array.String, i int) parquet.Value {
			return parquet.ByteArrayValue(stringBytes(a, i))
		}), nil
	case *arrow.BinaryType:
		return typedValuer(func(a *array.Binary, i int) parquet.Value { return parquet.ByteArrayValue(a.Value(i)) }), nil
	case *arrow.FixedSizeBinaryType:
		return typedValuer(func(a *array.FixedSizeBinary, i int) parquet.Value { return parquet.FixedLenByteArrayValue(a.Value(i)) }), nil
	case *extensions.UUIDType:
		return typedValuer(func(a *extensions.UUIDArray, i int) parquet.Value {
			return parquet.FixedLenByteArrayValue(a.Storage().(*array.FixedSizeBinary).Value(i))
		}), nil
	case *arrow.Decimal128Type:
		return decimalValuer(t), nil
	case *arrow.MonthDayNanoIntervalType:
		return typedValuer(func(a *array.MonthDayNanoInterval, i int) parquet.Value {
			return parquet.FixedLenByteArrayValue(intervalBytes(a.Value(i)))
		}), nil
	}
	return nil, fmt.Errorf("arrow type %s not supported by the parquet writer", t)
}

func newColumnEncoder(t arrow.DataType, column int, optional bool) (columnEncoder, error) {
	def := 0
	if optional {
		def = 1
	}
	value, err := newLeafValuer(t)
	if err != nil {
		return nil, err
	}
	return func(dst []parquet.Value, arr arrow.Array, lo, hi int) []parquet.Value {
		if arr.NullN() == 0 {
			for i := lo; i < hi; i++ {
				dst = append(dst, value(arr, i).Level(0, def, column))
			}
			return dst
		}
		for i := lo; i < hi; i++ {
			if arr.IsNull(i) {
				dst = append(dst, parquet.NullValue().Level(0, 0, column))
			} else {
				dst = append(dst, value(arr, i).Level(0, def, column))
			}
		}
		return dst
	}, nil
}

// stringBytes returns the bytes of a string element without copying them.
func stringBytes(a *array.String, i int) []byte {
	s := a.Value(i)
	return unsafe.Slice(unsafe.StringData(s), len(s))
}

// decimalValuer writes unscaled decimal values in the physical type chosen
// by decimalNode.
func decimalValuer(t *arrow.Decimal128Type) leafValuer {
	switch p := int(t.Precision); {
	case p <= 9:
		return typedValuer(func(a *array.Decimal128, i int) parquet.Value { return parquet.Int32Value(int32(a.Value(i).LowBits())) })
	case p <= 18:
		return typedValuer(func(a *array.Decimal128, i int) parquet.Value { return parquet.Int64Value(int64(a.Value(i).LowBits())) })
	default:
		width := decimalBytes(p)
		return typedValuer(func(a *array.Decimal128, i int) parquet.Value {
			// The value's bytes are copied by the column buffer, so a fresh
			// small slice per value is the only per-value allocation here.
			return parquet.FixedLenByteArrayValue(decimalToBigEndian(a.Value(i), width))
		})
	}
}

// decimalToBigEndian encodes an unscaled value as width bytes of big-endian
// two's complement.
func decimalToBigEndian(v decimal128.Num, width int) []byte {
	var buf [16]byte
	binary.BigEndian.PutUint64(buf[:8], uint64(v.HighBits()))
	binary.BigEndian.PutUint64(buf[8:], v.LowBits())
	return append([]byte(nil), buf[16-width:]...)
}
