package main

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/extensions"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// fakeSession answers statements from a table of canned results; any other
// statement succeeds with the message "OK".
type fakeSession struct {
	results  map[string]func() (result, error)
	executed []string
	tables   []string
	columns  []string
	closed   bool
}

func (f *fakeSession) Exec(ctx context.Context, stmt string) (result, error) {
	f.executed = append(f.executed, stmt)
	if res, ok := f.results[stmt]; ok {
		return res()
	}
	return &fakeResult{message: "OK"}, nil
}

func (f *fakeSession) TableNames(context.Context) []string  { return f.tables }
func (f *fakeSession) ColumnNames(context.Context) []string { return f.columns }
func (f *fakeSession) Close() error                         { f.closed = true; return nil }

// fakeResult streams batches, then fails with err if set. With block set, Next
// waits for the context instead, like a long-running scan.
type fakeResult struct {
	schema  *arrow.Schema
	message string
	batches []arrow.RecordBatch
	err     error
	block   bool
	closed  bool
}

func (r *fakeResult) Schema() *arrow.Schema { return r.schema }
func (r *fakeResult) Message() string       { return r.message }

func (r *fakeResult) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if r.block {
		<-ctx.Done()
		return nil, ctx.Err()
	}
	if len(r.batches) == 0 {
		return nil, r.err
	}
	b := r.batches[0]
	r.batches = r.batches[1:]
	return b, nil
}

func (r *fakeResult) Close() error {
	r.closed = true
	for _, b := range r.batches {
		b.Release()
	}
	r.batches = nil
	return nil
}

// rowsResult returns a result streaming the given batches.
func rowsResult(batches ...arrow.RecordBatch) func() (result, error) {
	return func() (result, error) {
		return &fakeResult{schema: batches[0].Schema(), batches: batches}, nil
	}
}

func failing(msg string) func() (result, error) {
	return func() (result, error) { return nil, errors.New(msg) }
}

// checkedAlloc returns an allocator that fails the test if memory leaks, which
// catches renderers that forget to Release batches.
func checkedAlloc(t *testing.T) memory.Allocator {
	t.Helper()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	t.Cleanup(func() { mem.AssertSize(t, 0) })
	return mem
}

func fromJSON(t *testing.T, mem memory.Allocator, dt arrow.DataType, js string) arrow.Array {
	t.Helper()
	arr, _, err := array.FromJSON(mem, dt, strings.NewReader(js))
	if err != nil {
		t.Fatalf("building %s from %s: %v", dt, js, err)
	}
	return arr
}

// allTypesBatch is three rows over every type the engine produces, with a
// NULL in every column and the awkward values: NaN, a negative decimal below
// one, a pre-1970 timestamp with a fraction, and text needing escapes.
func allTypesBatch(t *testing.T, mem memory.Allocator) arrow.RecordBatch {
	t.Helper()
	utc := &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"}
	fields := []arrow.Field{
		{Name: "b", Type: arrow.FixedWidthTypes.Boolean, Nullable: true},
		{Name: "i32", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		{Name: "i64", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "f32", Type: arrow.PrimitiveTypes.Float32, Nullable: true},
		{Name: "f64", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
		{Name: "dec", Type: &arrow.Decimal128Type{Precision: 10, Scale: 2}, Nullable: true},
		{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "bin", Type: arrow.BinaryTypes.Binary, Nullable: true},
		{Name: "d", Type: arrow.FixedWidthTypes.Date32, Nullable: true},
		{Name: "ts", Type: &arrow.TimestampType{Unit: arrow.Microsecond}, Nullable: true},
		{Name: "tstz", Type: utc, Nullable: true},
		{Name: "u", Type: extensions.NewUUIDType(), Nullable: true},
		{Name: "l", Type: arrow.ListOf(arrow.PrimitiveTypes.Int32), Nullable: true},
		{Name: "st", Type: arrow.StructOf(
			arrow.Field{Name: "x", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
			arrow.Field{Name: "y", Type: arrow.BinaryTypes.String, Nullable: true},
		), Nullable: true},
	}

	f64 := array.NewFloat64Builder(mem)
	defer f64.Release()
	f64.AppendValues([]float64{math.NaN(), 0}, nil)
	f64.AppendNull()
	f32 := array.NewFloat32Builder(mem)
	defer f32.Release()
	f32.AppendValues([]float32{0.1, float32(math.Inf(-1))}, nil)
	f32.AppendNull()

	uuidStorage := fromJSON(t, mem, &arrow.FixedSizeBinaryType{ByteWidth: 16},
		`["EjRWeJq83vASNFZ4mrze8A==", null, "AAAAAAAAAAAAAAAAAAAAAA=="]`)
	defer uuidStorage.Release()

	cols := []arrow.Array{
		fromJSON(t, mem, fields[0].Type, `[true, false, null]`),
		fromJSON(t, mem, fields[1].Type, `[1, -2147483648, null]`),
		fromJSON(t, mem, fields[2].Type, `[null, 9223372036854775807, -1]`),
		f32.NewArray(),
		f64.NewArray(),
		fromJSON(t, mem, fields[5].Type, `["-0.05", "12345.60", null]`),
		fromJSON(t, mem, fields[6].Type, `["plain", "a,b \"q\" | x\nnext", null]`),
		fromJSON(t, mem, fields[7].Type, `["AP8=", "", null]`),
		fromJSON(t, mem, fields[8].Type, `[20454, -1, null]`),
		fromJSON(t, mem, fields[9].Type, `[1767323045000000, -1, null]`),
		fromJSON(t, mem, fields[10].Type, `[1767323045500000, null, -86400000000]`),
		array.NewExtensionArrayWithStorage(extensions.NewUUIDType(), uuidStorage),
		fromJSON(t, mem, fields[12].Type, `[[1, null], [], null]`),
		fromJSON(t, mem, fields[13].Type, `[{"x": 1, "y": "it's"}, null, {"x": null, "y": null}]`),
	}
	defer func() {
		for _, c := range cols {
			c.Release()
		}
	}()
	return array.NewRecordBatch(arrow.NewSchema(fields, nil), cols, 3)
}

// intBatch is a one-column batch of the given values.
func intBatch(t *testing.T, mem memory.Allocator, name string, values string) arrow.RecordBatch {
	t.Helper()
	col := fromJSON(t, mem, arrow.PrimitiveTypes.Int64, values)
	defer col.Release()
	schema := arrow.NewSchema([]arrow.Field{{Name: name, Type: arrow.PrimitiveTypes.Int64, Nullable: true}}, nil)
	return array.NewRecordBatch(schema, []arrow.Array{col}, int64(col.Len()))
}

var intSchema = arrow.NewSchema([]arrow.Field{{Name: "n", Type: arrow.PrimitiveTypes.Int64}}, nil)
