package expr

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakesql/lakesql/planner"
)

// Nested values (structs, arrays, maps) are compared, grouped and sorted
// through keys: each value is encoded as bytes whose order under
// bytes.Compare is the values' SQL order and whose equality is theirs, as
// Spark orders them. Structs compare field by field, arrays element by
// element with a shorter prefix first, and a NULL field or element equals
// NULL and sorts before every value. Maps have no order in SQL: a map's
// entries are encoded sorted by key, so two maps with the same entries are
// equal whatever order they were written in. The encoding can be decoded
// (BuildNested), so the grouping and sorting machinery that keeps keys as
// bytes can give back the values.
//
// Every value starts with 0x00 (NULL, nothing follows) or 0x01. Integers
// and temporal values follow big-endian with the sign bit flipped, floats
// as their bits made to sort as numbers (-0 as 0, NaN above everything, as
// lakesql orders floats), decimals as 16 big-endian bytes, booleans as one
// byte, fixed-size binaries as they are, and strings and binaries with each
// 0x00 escaped as 0x00 0xff and ended by 0x00 0x00. An array's elements
// each follow a 0x01 and the array ends with 0x00; a struct's fields follow
// one another; a map is an array of key, value entries.

// NestedComparable reports whether values of type t can be compared,
// grouped and sorted: every type inside it must be one of the kinds the
// keys encode.
func NestedComparable(t arrow.DataType) error {
	switch t := StorageTypeOf(t).(type) {
	case *arrow.MapType:
		if err := NestedComparable(t.KeyType()); err != nil {
			return err
		}
		return NestedComparable(t.ItemType())
	case *arrow.ListType:
		return NestedComparable(t.Elem())
	case *arrow.StructType:
		for _, f := range t.Fields() {
			if err := NestedComparable(f.Type); err != nil {
				return err
			}
		}
		return nil
	}
	if KindOf(t) == KindUnsupported {
		return fmt.Errorf("cannot compare values of type %s", planner.TypeString(t))
	}
	return nil
}

// IsNestedType reports structs, arrays and maps.
func IsNestedType(t arrow.DataType) bool {
	switch StorageTypeOf(t).(type) {
	case *arrow.MapType, *arrow.ListType, *arrow.StructType:
		return true
	}
	return false
}

// NestedKeys returns the key of each value of arr, reusing dst; a NULL's
// key is {0x00}. The keys share one buffer.
func NestedKeys(dst [][]byte, arr arrow.Array) [][]byte {
	k := encodeKeyColumn(arr)
	out := dst[:0]
	for i := range arr.Len() {
		out = append(out, k.at(i))
	}
	return out
}

// keyColumn is the keys of a column: key i is data[off[i]:off[i+1]].
type keyColumn struct {
	data []byte
	off  []int
}

func (k keyColumn) at(i int) []byte { return k.data[k.off[i]:k.off[i+1]:k.off[i+1]] }

// keyWriter builds a keyColumn one key at a time.
type keyWriter struct{ keyColumn }

func newKeyWriter(n, size int) *keyWriter {
	w := &keyWriter{keyColumn{data: make([]byte, 0, size), off: make([]int, 1, n+1)}}
	return w
}

func (w *keyWriter) end() { w.off = append(w.off, len(w.data)) }

func (w *keyWriter) null() {
	w.data = append(w.data, 0)
	w.end()
}

// encodeKeyColumn encodes every value of arr, one loop per column: a
// nested column's children are encoded whole, then gathered per value.
func encodeKeyColumn(arr arrow.Array) keyColumn {
	arr = ExtensionStorage(arr)
	switch a := arr.(type) {
	case *array.Map:
		keys, items := encodeKeyColumn(a.Keys()), encodeKeyColumn(a.Items())
		var entries [][]byte
		return encodeLists(a, len(keys.data)+len(items.data), func(w *keyWriter, start, end int) {
			entries = entries[:0]
			for j := start; j < end; j++ {
				entries = append(entries, slices.Concat(keys.at(j), items.at(j)))
			}
			slices.SortFunc(entries, bytes.Compare)
			for _, e := range entries {
				w.data = append(append(w.data, 1), e...)
			}
		})
	case *array.List:
		elems := encodeKeyColumn(a.ListValues())
		return encodeLists(a, len(elems.data), func(w *keyWriter, start, end int) {
			for j := start; j < end; j++ {
				w.data = append(append(w.data, 1), elems.at(j)...)
			}
		})
	case *array.Struct:
		n := a.Len()
		fields := make([]keyColumn, a.NumField())
		size := n
		for f := range fields {
			fields[f] = encodeKeyColumn(a.Field(f))
			size += len(fields[f].data)
		}
		w := newKeyWriter(n, size)
		for i := range n {
			if a.IsNull(i) {
				w.null()
				continue
			}
			w.data = append(w.data, 1)
			for _, f := range fields {
				w.data = append(w.data, f.at(i)...)
			}
			w.end()
		}
		return w.keyColumn
	}
	return encodePrimitives(arr)
}

// listLike is an array or map column.
type listLike interface {
	arrow.Array
	ValueOffsets(i int) (int64, int64)
}

// encodeLists encodes array or map values: elements writes the elements
// (or entries) start to end, each after a 0x01.
func encodeLists(a listLike, size int, elements func(w *keyWriter, start, end int)) keyColumn {
	n := a.Len()
	w := newKeyWriter(n, size+3*n)
	for i := range n {
		if a.IsNull(i) {
			w.null()
			continue
		}
		w.data = append(w.data, 1)
		start, end := a.ValueOffsets(i)
		elements(w, int(start), int(end))
		w.data = append(w.data, 0)
		w.end()
	}
	return w.keyColumn
}

// encodePrimitives encodes a column of a primitive kind.
func encodePrimitives(arr arrow.Array) keyColumn {
	n := arr.Len()
	switch KindOf(arr.DataType()) {
	case KindNull:
		w := newKeyWriter(n, n)
		for range n {
			w.null()
		}
		return w.keyColumn
	case KindBool:
		a := arr.(*array.Boolean)
		return encodeFixedKeys(arr, 1, func(b []byte, i int) { b[0] = BoolByte(a.Value(i)) })
	case KindInt8:
		v := FixedValues[int8](arr)
		return encodeFixedKeys(arr, 1, func(b []byte, i int) { b[0] = uint8(v[i]) ^ 0x80 })
	case KindInt16:
		v := FixedValues[int16](arr)
		return encodeFixedKeys(arr, 2, func(b []byte, i int) { binary.BigEndian.PutUint16(b, uint16(v[i])^1<<15) })
	case KindInt32:
		v := FixedValues[int32](arr)
		return encodeFixedKeys(arr, 4, func(b []byte, i int) { binary.BigEndian.PutUint32(b, uint32(v[i])^1<<31) })
	case KindInt64:
		v := FixedValues[int64](arr)
		return encodeFixedKeys(arr, 8, func(b []byte, i int) { binary.BigEndian.PutUint64(b, uint64(v[i])^1<<63) })
	case KindFloat32:
		v := FixedValues[float32](arr)
		return encodeFixedKeys(arr, 8, func(b []byte, i int) { binary.BigEndian.PutUint64(b, floatKey(float64(v[i]))) })
	case KindFloat64:
		v := FixedValues[float64](arr)
		return encodeFixedKeys(arr, 8, func(b []byte, i int) { binary.BigEndian.PutUint64(b, floatKey(v[i])) })
	case KindDecimal:
		v := FixedValues[decimal128.Num](arr)
		return encodeFixedKeys(arr, 16, func(b []byte, i int) {
			binary.BigEndian.PutUint64(b, uint64(v[i].HighBits())^1<<63)
			binary.BigEndian.PutUint64(b[8:], v[i].LowBits())
		})
	case KindBytes:
		v := ArrayBytes(arr)
		if fsb, ok := arr.DataType().(*arrow.FixedSizeBinaryType); ok {
			return encodeFixedKeys(arr, fsb.ByteWidth, func(b []byte, i int) { copy(b, v.At(i)) })
		}
		w := newKeyWriter(n, len(v.data)+3*n)
		for i := range n {
			if arr.IsNull(i) {
				w.null()
				continue
			}
			w.data = append(w.data, 1)
			for _, c := range v.At(i) {
				if c == 0 {
					w.data = append(w.data, 0, 0xff)
				} else {
					w.data = append(w.data, c)
				}
			}
			w.data = append(w.data, 0, 0)
			w.end()
		}
		return w.keyColumn
	}
	panic(fmt.Sprintf("nested keys of %s", arr.DataType())) // NestedComparable refused it
}

// encodeFixedKeys encodes a column of fixed-width keys: put writes value
// i's width bytes.
func encodeFixedKeys(arr arrow.Array, width int, put func(b []byte, i int)) keyColumn {
	n := arr.Len()
	w := newKeyWriter(n, n*(1+width))
	for i := range n {
		if arr.IsNull(i) {
			w.null()
			continue
		}
		at := len(w.data)
		w.data = append(w.data, make([]byte, 1+width)...)
		w.data[at] = 1
		put(w.data[at+1:], i)
		w.end()
	}
	return w.keyColumn
}

// floatKey makes a float's bits sort as the numbers do: -0 is 0 and every
// NaN one NaN, above +Inf.
func floatKey(f float64) uint64 {
	switch {
	case f == 0:
		f = 0
	case f != f:
		return math.MaxUint64
	}
	bits := math.Float64bits(f)
	if bits>>63 == 1 {
		return ^bits
	}
	return bits | 1<<63
}

// BuildNested makes an array of type t from the keys of its values
// (NestedKeys); a value that is not valid is NULL whatever its key.
func BuildNested(mem memory.Allocator, t arrow.DataType, keys [][]byte, valid []bool) arrow.Array {
	keys = slices.Clone(keys)
	for i, ok := range valid {
		if !ok {
			keys[i] = nullKey
		}
	}
	return decodeKeyColumn(mem, t, keys)
}

var nullKey = []byte{0}

// decodeKeyColumn decodes one key per value into an array of type t.
func decodeKeyColumn(mem memory.Allocator, t arrow.DataType, keys [][]byte) arrow.Array {
	n := len(keys)
	validity, nulls := NewBuffer(mem, int(bitutil.BytesForBits(int64(n)))), 0
	for i, k := range keys {
		if k[0] == 0 {
			nulls++
		} else {
			bitutil.SetBit(validity.Bytes(), i)
		}
	}
	if nulls == 0 {
		validity.Release()
		validity = nil
	}
	switch st := StorageTypeOf(t).(type) {
	case *arrow.MapType:
		var ks, vs [][]byte
		offsets := decodeLists(mem, keys, func(b []byte) int {
			kl := keyLen(st.KeyType(), b)
			vl := keyLen(st.ItemType(), b[kl:])
			ks, vs = append(ks, b[:kl]), append(vs, b[kl:kl+vl])
			return kl + vl
		})
		kArr, vArr := decodeKeyColumn(mem, st.KeyType(), ks), decodeKeyColumn(mem, st.ItemType(), vs)
		defer kArr.Release()
		defer vArr.Release()
		entries := array.NewData(st.Elem(), len(ks), []*memory.Buffer{nil}, []arrow.ArrayData{kArr.Data(), vArr.Data()}, 0, 0)
		defer entries.Release()
		return nestedArray(t, n, validity, offsets, entries)
	case *arrow.ListType:
		var elems [][]byte
		offsets := decodeLists(mem, keys, func(b []byte) int {
			l := keyLen(st.Elem(), b)
			elems = append(elems, b[:l])
			return l
		})
		child := decodeKeyColumn(mem, st.Elem(), elems)
		defer child.Release()
		return nestedArray(t, n, validity, offsets, child.Data())
	case *arrow.StructType:
		fields := make([][][]byte, st.NumFields())
		for _, k := range keys {
			pos := 1
			for f := range fields {
				if k[0] == 0 {
					fields[f] = append(fields[f], nullKey)
					continue
				}
				l := keyLen(st.Field(f).Type, k[pos:])
				fields[f] = append(fields[f], k[pos:pos+l])
				pos += l
			}
		}
		kids := make([]arrow.ArrayData, len(fields))
		for f, fk := range fields {
			a := decodeKeyColumn(mem, st.Field(f).Type, fk)
			kids[f] = a.Data()
			defer a.Release()
		}
		return nestedArray(t, n, validity, nil, kids...)
	}
	return decodePrimitives(mem, t, keys, validity)
}

// decodeLists reads the elements of array or map keys, element reading one
// element and returning its length, and returns the offsets.
func decodeLists(mem memory.Allocator, keys [][]byte, element func(b []byte) int) *memory.Buffer {
	offsets := NewBuffer(mem, 4*(len(keys)+1))
	offs := arrow.GetData[int32](offsets.Bytes())
	count := 0
	for i, k := range keys {
		if k[0] != 0 {
			for pos := 1; k[pos] == 1; count++ {
				pos++
				pos += element(k[pos:])
			}
		}
		offs[i+1] = int32(count)
	}
	return offsets
}

// nestedArray wraps buffers and children into an array of type t.
func nestedArray(t arrow.DataType, n int, validity, offsets *memory.Buffer, children ...arrow.ArrayData) arrow.Array {
	nulls := 0
	if validity != nil {
		nulls = array.UnknownNullCount
	}
	buffers := []*memory.Buffer{validity}
	if offsets != nil {
		buffers = append(buffers, offsets)
	}
	data := array.NewData(t, n, buffers, children, nulls, 0)
	defer data.Release()
	for _, b := range buffers {
		if b != nil {
			b.Release()
		}
	}
	return array.MakeFromData(data)
}

// decodePrimitives decodes keys of a primitive kind.
func decodePrimitives(mem memory.Allocator, t arrow.DataType, keys [][]byte, validity *memory.Buffer) arrow.Array {
	n := len(keys)
	fixed := func(width int, put func(dst []byte, key []byte)) arrow.Array {
		buf := NewBuffer(mem, n*width)
		for i, k := range keys {
			if k[0] != 0 {
				put(buf.Bytes()[i*width:], k[1:])
			}
		}
		return MakeArray(t, n, validity, buf)
	}
	switch KindOf(t) {
	case KindNull:
		if validity != nil {
			validity.Release()
		}
		return NullArray(mem, t, n)
	case KindBool:
		buf := NewBuffer(mem, int(bitutil.BytesForBits(int64(n))))
		for i, k := range keys {
			if k[0] != 0 && k[1] != 0 {
				bitutil.SetBit(buf.Bytes(), i)
			}
		}
		return MakeArray(t, n, validity, buf)
	case KindInt8:
		return fixed(1, func(d, k []byte) { d[0] = k[0] ^ 0x80 })
	case KindInt16:
		return fixed(2, func(d, k []byte) { binary.LittleEndian.PutUint16(d, binary.BigEndian.Uint16(k)^1<<15) })
	case KindInt32:
		return fixed(4, func(d, k []byte) { binary.LittleEndian.PutUint32(d, binary.BigEndian.Uint32(k)^1<<31) })
	case KindInt64:
		return fixed(8, func(d, k []byte) { binary.LittleEndian.PutUint64(d, binary.BigEndian.Uint64(k)^1<<63) })
	case KindFloat32:
		return fixed(4, func(d, k []byte) {
			binary.LittleEndian.PutUint32(d, math.Float32bits(float32(floatFromKey(binary.BigEndian.Uint64(k)))))
		})
	case KindFloat64:
		return fixed(8, func(d, k []byte) {
			binary.LittleEndian.PutUint64(d, math.Float64bits(floatFromKey(binary.BigEndian.Uint64(k))))
		})
	case KindDecimal:
		return fixed(16, func(d, k []byte) {
			binary.LittleEndian.PutUint64(d, binary.BigEndian.Uint64(k[8:]))
			binary.LittleEndian.PutUint64(d[8:], binary.BigEndian.Uint64(k)^1<<63)
		})
	}
	if fsb, ok := StorageTypeOf(t).(*arrow.FixedSizeBinaryType); ok {
		return fixed(fsb.ByteWidth, func(d, k []byte) { copy(d, k[:fsb.ByteWidth]) })
	}
	offsets := NewBuffer(mem, 4*(n+1))
	offs := arrow.GetData[int32](offsets.Bytes())
	var data []byte
	for i, k := range keys {
		if k[0] != 0 {
			for pos := 1; k[pos] != 0 || k[pos+1] != 0; pos++ {
				data = append(data, k[pos])
				if k[pos] == 0 {
					pos++ // 0x00 0xff is an escaped 0x00
				}
			}
		}
		offs[i+1] = int32(len(data))
	}
	buf := NewBuffer(mem, len(data))
	copy(buf.Bytes(), data)
	return MakeArray(t, n, validity, offsets, buf)
}

// floatFromKey inverts floatKey.
func floatFromKey(k uint64) float64 {
	switch {
	case k == math.MaxUint64:
		return math.NaN()
	case k>>63 == 1:
		return math.Float64frombits(k &^ (1 << 63))
	}
	return math.Float64frombits(^k)
}

// keyLen is the length of the key of one value of type t at the start of b.
func keyLen(t arrow.DataType, b []byte) int {
	if b[0] == 0 {
		return 1
	}
	switch st := StorageTypeOf(t).(type) {
	case *arrow.MapType:
		return listKeyLen(b, func(b []byte) int {
			kl := keyLen(st.KeyType(), b)
			return kl + keyLen(st.ItemType(), b[kl:])
		})
	case *arrow.ListType:
		return listKeyLen(b, func(b []byte) int { return keyLen(st.Elem(), b) })
	case *arrow.StructType:
		pos := 1
		for _, f := range st.Fields() {
			pos += keyLen(f.Type, b[pos:])
		}
		return pos
	case *arrow.FixedSizeBinaryType:
		return 1 + st.ByteWidth
	}
	switch KindOf(t) {
	case KindBool, KindInt8:
		return 2
	case KindInt16:
		return 3
	case KindInt32:
		return 5
	case KindInt64, KindFloat32, KindFloat64:
		return 9
	case KindDecimal:
		return 17
	}
	pos := 1
	for b[pos] != 0 || b[pos+1] != 0 {
		if b[pos] == 0 {
			pos++
		}
		pos++
	}
	return pos + 2
}

// listKeyLen is the length of an array or map key, element giving the
// length of one element (or entry).
func listKeyLen(b []byte, element func(b []byte) int) int {
	pos := 1
	for b[pos] == 1 {
		pos++
		pos += element(b[pos:])
	}
	return pos + 1
}
