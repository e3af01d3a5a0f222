package storage

import (
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// FieldIDKey is the Arrow field metadata key holding the Iceberg field id of
// a struct field, list element or map key/value — the key iceberg-go and
// Arrow's Parquet bridge use. Nested fields are matched in Parquet files by
// it, so renamed fields read and dropped-then-re-added ones do not.
const FieldIDKey = "PARQUET:field_id"

// WithFieldID returns f carrying field id id.
func WithFieldID(f arrow.Field, id int) arrow.Field {
	f.Metadata = arrow.NewMetadata([]string{FieldIDKey}, []string{strconv.Itoa(id)})
	return f
}

// FieldIDOf returns the field id f carries, 0 when none.
func FieldIDOf(f arrow.Field) int {
	v, ok := f.Metadata.GetValue(FieldIDKey)
	if !ok {
		return 0
	}
	id, err := strconv.Atoi(v)
	if err != nil {
		return 0
	}
	return id
}

// IsNested reports whether t is a struct, list or map type.
func IsNested(t arrow.DataType) bool {
	switch t.ID() {
	case arrow.STRUCT, arrow.LIST, arrow.LARGE_LIST, arrow.MAP:
		return true
	}
	return false
}

// WithParentNulls returns a struct's field child with NULL also where the
// struct (parent) is NULL: Arrow keeps a field's own validity only.
func WithParentNulls(mem memory.Allocator, child, parent arrow.Array) arrow.Array {
	if parent.NullN() == 0 || child.DataType().ID() == arrow.NULL {
		child.Retain()
		return child
	}
	d := child.Data()
	off, n := d.Offset(), d.Len()
	buf := zeroedBuffer(mem, int(bitutil.BytesForBits(int64(off+n))))
	bits := buf.Bytes()
	for i := range n {
		if parent.IsValid(i) && child.IsValid(i) {
			bitutil.SetBit(bits, off+i)
		}
	}
	bufs := append([]*memory.Buffer{buf}, d.Buffers()[1:]...)
	out := array.NewData(d.DataType(), n, bufs, d.Children(), array.UnknownNullCount, off)
	buf.Release()
	defer out.Release()
	return array.MakeFromData(out)
}
