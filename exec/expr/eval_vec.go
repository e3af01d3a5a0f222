package expr

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// view is a typed, random-access view of an operand's values. Kernels that are
// not on the hottest paths (bytes, decimals) are written once against it.
type view[T any] interface {
	At(i int) T
}

// vec views a fixed-width operand: the array's value slice, or one constant.
// Values under NULL slots are unspecified; kernels consult validity separately.
type vec[T any] struct {
	vals    []T
	c       T
	isConst bool
}

func (v *vec[T]) At(i int) T {
	if v.isConst {
		return v.c
	}
	return v.vals[i]
}

// fixedWidth are the Go element types of the fixed-width Arrow arrays lakesql
// computes on. DATE is read as int32, TIME and TIMESTAMP as int64; uint8
// holds unpacked BOOLEANs.
type FixedWidth interface {
	uint8 | int8 | int16 | int32 | int64 | float32 | float64 | decimal128.Num | arrow.MonthDayNanoInterval
}

// fixedVec views a non-NULL fixed-width operand as elements of T.
func fixedVec[T FixedWidth](o operand) *vec[T] {
	if o.lit != nil {
		return &vec[T]{c: o.lit.Value.(T), isConst: true}
	}
	return &vec[T]{vals: FixedValues[T](ExtensionStorage(o.arr))}
}

// fixedValues returns the value slice of a fixed-width array.
func FixedValues[T FixedWidth](arr arrow.Array) []T {
	d := arr.Data()
	if d.Len() == 0 {
		return nil // an empty array may have no value buffer
	}
	return arrow.GetData[T](d.Buffers()[1].Bytes())[d.Offset() : d.Offset()+d.Len()]
}

// boolVec views a non-NULL BOOLEAN operand as 0/1 bytes so that booleans share
// the ordered kernels (FALSE < TRUE).
func boolVec(o operand, n int) *vec[uint8] {
	if o.lit != nil {
		return &vec[uint8]{c: BoolByte(o.lit.Value.(bool)), isConst: true}
	}
	d := o.arr.Data()
	bits, off := d.Buffers()[1].Bytes(), d.Offset()
	vals := make([]uint8, n)
	for i := range vals {
		vals[i] = BoolByte(bitutil.BitIsSet(bits, off+i))
	}
	return &vec[uint8]{vals: vals}
}

func BoolByte(b bool) uint8 {
	if b {
		return 1
	}
	return 0
}

// bytesVec views a STRING, BINARY or fixed-size binary (UUID) operand.
type BytesVec struct {
	offsets []int32 // variable width: len n+1, absolute offsets into data
	width   int     // fixed width, when offsets is nil
	data    []byte
	c       []byte
	isConst bool
}

// Data, Offsets and Width give the vector's layout to kernels outside this
// package that read it in place (join and grouping keys).
func (v *BytesVec) Data() []byte { return v.data }

// Offsets are the absolute offsets of variable-width values into Data, nil
// for fixed-width values.
func (v *BytesVec) Offsets() []int32 { return v.offsets }

// Width is the width of fixed-width values.
func (v *BytesVec) Width() int { return v.width }

// At is the i-th value.
func (v *BytesVec) At(i int) []byte {
	switch {
	case v.isConst:
		return v.c
	case v.offsets != nil:
		return v.data[v.offsets[i]:v.offsets[i+1]]
	default:
		return v.data[i*v.width : (i+1)*v.width]
	}
}

// newBytesVec views a non-NULL byte-like operand.
func newBytesVec(o operand) *BytesVec {
	if o.lit != nil {
		switch v := o.lit.Value.(type) {
		case string:
			return &BytesVec{c: []byte(v), isConst: true}
		default:
			return &BytesVec{c: v.([]byte), isConst: true}
		}
	}
	return ArrayBytes(ExtensionStorage(o.arr))
}

// arrayBytes views a STRING, BINARY or FIXED_SIZE_BINARY array.
func ArrayBytes(arr arrow.Array) *BytesVec {
	d := arr.Data()
	off, n := d.Offset(), d.Len()
	if fsb, ok := d.DataType().(*arrow.FixedSizeBinaryType); ok {
		return &BytesVec{width: fsb.ByteWidth, data: bufferBytes(d.Buffers()[1])[off*fsb.ByteWidth:]}
	}
	return &BytesVec{
		offsets: arrow.GetData[int32](bufferBytes(d.Buffers()[1]))[off : off+n+1],
		data:    bufferBytes(d.Buffers()[2]),
	}
}

// bufferBytes tolerates the nil buffers Arrow allows for empty arrays.
func bufferBytes(b *memory.Buffer) []byte {
	if b == nil {
		return nil
	}
	return b.Bytes()
}

// boolBits returns the validity and value bitmaps of a BOOLEAN operand with
// bit 0 at row 0; valid is nil when every row is valid.
func (ev *evaluator) boolBits(o operand) (valid, data []byte) {
	nbytes := int(bitutil.BytesForBits(int64(ev.n)))
	if o.lit != nil {
		data = make([]byte, nbytes)
		if o.lit.Value == nil {
			return make([]byte, nbytes), data
		}
		if o.lit.Value.(bool) {
			fill(data, 0xff)
		}
		return nil, data
	}
	d := o.arr.Data()
	data = AlignedBits(d.Buffers()[1].Bytes(), d.Offset(), ev.n)
	if o.arr.NullN() > 0 {
		valid = AlignedBits(d.Buffers()[0].Bytes(), d.Offset(), ev.n)
	}
	return valid, data
}

// alignedBits returns n bits of bm starting at bit off, re-based to bit 0
// (copying only when off is not byte-aligned).
func AlignedBits(bm []byte, off, n int) []byte {
	if off%8 == 0 {
		return bm[off/8 : off/8+int(bitutil.BytesForBits(int64(n)))]
	}
	out := make([]byte, bitutil.BytesForBits(int64(n)))
	bitutil.CopyBitmap(bm, off, n, out, 0)
	return out
}

func fill(b []byte, v byte) {
	for i := range b {
		b[i] = v
	}
}
