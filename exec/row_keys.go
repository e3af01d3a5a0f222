package exec

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/bitutil"

	"github.com/lakesql/lakesql/exec/expr"
	"github.com/lakesql/lakesql/planner"
)

// rowKeys holds one byte string per row that encodes the row's key columns,
// so that keys of any number of columns and of any type are hashed and
// compared as a whole by a Go map. Two rows have equal encodings exactly when
// their keys are equal in SQL, with 0.0 = -0.0 and NaN = NaN (as in DuckDB),
// and, for set operations, NULL = NULL.
type rowKeys struct {
	data    []byte
	offsets []int32 // row i is data[offsets[i]:offsets[i+1]]
	hasNull []bool  // rows with a NULL in some key column
}

func (k *rowKeys) key(i int) []byte { return k.data[k.offsets[i]:k.offsets[i+1]] }

// nulls is an array's validity for per-row tests in typed loops.
type nulls struct {
	bits []byte // nil when the array has no NULLs
	off  int
}

func nullsOf(arr arrow.Array) nulls {
	if expr.KindOf(arr.DataType()) == expr.KindNull {
		return nulls{bits: make([]byte, bitutil.BytesForBits(int64(arr.Len())))}
	}
	if arr.NullN() == 0 {
		return nulls{}
	}
	return nulls{bits: arr.NullBitmapBytes(), off: arr.Data().Offset()}
}

func (v nulls) isNull(i int) bool { return v.bits != nil && !bitutil.BitIsSet(v.bits, v.off+i) }

// encodeKeys encodes the rows of cols, which all have the same length.
//
// Every value is preceded by a validity byte, so a NULL encodes as itself and
// equals only another NULL; joins and IN, where NULL matches nothing, skip the
// rows flagged in hasNull. A NULL's value bytes are zero. Each column is
// encoded in its own typed loop: a fixed-width value as its bytes, a string
// or binary value as its length, then its bytes; a struct, array or map
// as the binary value of its key (expr.NestedKeys).
func encodeKeys(cols []arrow.Array, n int) (*rowKeys, error) {
	cols, release, err := nestedKeyColumns(cols)
	if err != nil {
		return nil, err
	}
	defer release()
	sizes := make([]int32, n+1) // sizes[i+1] is row i's length, then prefix sums
	for _, c := range cols {
		if err := addKeySizes(expr.ExtensionStorage(c), sizes[1:]); err != nil {
			return nil, err
		}
	}
	for i := 1; i <= n; i++ {
		sizes[i] += sizes[i-1]
	}
	k := &rowKeys{data: make([]byte, sizes[n]), offsets: sizes, hasNull: make([]bool, n)}
	cursor := append([]int32(nil), sizes[:n]...)
	for _, c := range cols {
		k.encodeColumn(expr.ExtensionStorage(c), cursor)
	}
	return k, nil
}

// addKeySizes adds the encoded size of each value of arr to sizes.
func addKeySizes(arr arrow.Array, sizes []int32) error {
	if w := keyWidth(arr.DataType()); w >= 0 {
		for i := range sizes {
			sizes[i] += 1 + int32(w)
		}
		return nil
	}
	if expr.KindOf(arr.DataType()) != expr.KindBytes {
		return fmt.Errorf("cannot compare values of type %s for equality", planner.TypeString(arr.DataType()))
	}
	b, valid := expr.ArrayBytes(arr), nullsOf(arr)
	for i := range sizes {
		sizes[i] += 1 + 4
		if !valid.isNull(i) {
			sizes[i] += int32(len(b.At(i)))
		}
	}
	return nil
}

// keyWidth is the encoded width of a fixed-width value, or -1 for variable
// width and unsupported types.
func keyWidth(t arrow.DataType) int {
	switch expr.KindOf(t) {
	case expr.KindNull:
		return 0
	case expr.KindBool:
		return 1
	case expr.KindBytes:
		if fsb, ok := expr.StorageTypeOf(t).(*arrow.FixedSizeBinaryType); ok {
			return fsb.ByteWidth // also UUID, stored as 16 bytes
		}
		return -1
	case expr.KindUnsupported:
		return -1
	}
	return t.(arrow.FixedWidthDataType).Bytes()
}

// encodeColumn writes arr's value for each row at cursor[row] and advances
// the cursors.
func (k *rowKeys) encodeColumn(arr arrow.Array, cursor []int32) {
	valid := nullsOf(arr)
	for i := range cursor {
		if valid.isNull(i) {
			k.hasNull[i] = true
		} else {
			k.data[cursor[i]] = 1
		}
		cursor[i]++
	}
	switch expr.KindOf(arr.DataType()) {
	case expr.KindNull:
	case expr.KindBool:
		encodeBools(k.data, arr, valid, cursor)
	case expr.KindFloat32:
		encodeFixed(k.data, expr.FixedValues[float32](arr), valid, cursor, 4, func(b []byte, v float32) {
			binary.LittleEndian.PutUint32(b, math.Float32bits(canonicalFloat(v)))
		})
	case expr.KindFloat64:
		encodeFixed(k.data, expr.FixedValues[float64](arr), valid, cursor, 8, func(b []byte, v float64) {
			binary.LittleEndian.PutUint64(b, math.Float64bits(canonicalFloat(v)))
		})
	case expr.KindBytes:
		encodeBytes(k.data, expr.ArrayBytes(arr), valid, cursor, keyWidth(arr.DataType()) < 0)
	default:
		encodeRaw(k.data, arr, valid, cursor)
	}
}

// canonicalFloat maps -0 to 0 and every NaN to one NaN, so that values SQL
// considers equal encode alike.
func canonicalFloat[T float32 | float64](v T) T {
	switch {
	case v == 0:
		return 0
	case v != v:
		return T(math.NaN())
	}
	return v
}

func encodeBools(data []byte, arr arrow.Array, valid nulls, cursor []int32) {
	d := arr.Data()
	bits, off := d.Buffers()[1].Bytes(), d.Offset()
	for i := range cursor {
		if !valid.isNull(i) {
			data[cursor[i]] = expr.BoolByte(bitutil.BitIsSet(bits, off+i))
		}
		cursor[i]++
	}
}

// encodeFixed writes each non-NULL value with put, which fills width bytes.
func encodeFixed[T float32 | float64](data []byte, vals []T, valid nulls, cursor []int32, width int32, put func([]byte, T)) {
	for i, v := range vals {
		if !valid.isNull(i) {
			put(data[cursor[i]:], v)
		}
		cursor[i] += width
	}
}

// encodeRaw copies the bytes of integer, date, time, timestamp and decimal
// values, whose equality is equality of their bytes.
func encodeRaw(data []byte, arr arrow.Array, valid nulls, cursor []int32) {
	d := arr.Data()
	w := keyWidth(arr.DataType())
	raw := d.Buffers()[1].Bytes()[d.Offset()*w:]
	for i := range cursor {
		if !valid.isNull(i) {
			copy(data[cursor[i]:cursor[i]+int32(w)], raw[i*w:(i+1)*w])
		}
		cursor[i] += int32(w)
	}
}

// encodeBytes writes strings and binaries as length and bytes (variable
// width) or as bytes (fixed-size binary such as UUID).
func encodeBytes(data []byte, b *expr.BytesVec, valid nulls, cursor []int32, withLength bool) {
	for i := range cursor {
		if withLength {
			if !valid.isNull(i) {
				binary.LittleEndian.PutUint32(data[cursor[i]:], uint32(len(b.At(i))))
			}
			cursor[i] += 4
		}
		if valid.isNull(i) {
			if !withLength {
				cursor[i] += int32(b.Width())
			}
			continue
		}
		cursor[i] += int32(copy(data[cursor[i]:], b.At(i)))
	}
}

// keyTable numbers distinct keys densely, in order of first insertion.
type keyTable struct {
	ids map[string]int32
}

func newKeyTable() *keyTable { return &keyTable{ids: make(map[string]int32)} }

// insert returns key's number, adding it if it is new.
func (t *keyTable) insert(key []byte) (id int32, added bool) {
	if id, ok := t.ids[string(key)]; ok {
		return id, false
	}
	id = int32(len(t.ids))
	t.ids[string(key)] = id
	return id, true
}

// find returns key's number, or -1 when the key is absent.
func (t *keyTable) find(key []byte) int32 {
	if id, ok := t.ids[string(key)]; ok {
		return id
	}
	return -1
}

func (t *keyTable) len() int { return len(t.ids) }
