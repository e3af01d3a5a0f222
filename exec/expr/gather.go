package expr

import (
	"context"
	"math"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/compute"
	computeexec "github.com/apache/arrow-go/v18/arrow/compute/exec"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Take returns arr's values at rows, in order; row -1 gives NULL. Joins,
// sorts and set operations gather every output row, so the common layouts
// (fixed-width values, booleans, strings and binaries) have typed loops
// here: Arrow's generic take kernel costs several times more per row. Other
// layouts go to that kernel. A run of consecutive rows is a zero-copy slice.
func Take(ctx context.Context, mem memory.Allocator, arr arrow.Array, rows []int32) (arrow.Array, error) {
	if lo, ok := consecutive(rows); ok && lo+len(rows) <= arr.Len() {
		return array.NewSlice(arr, int64(lo), int64(lo+len(rows))), nil
	}
	if arr.DataType().ID() == arrow.NULL {
		return array.NewNull(len(rows)), nil // MakeArrayOfNull does not make these
	}
	if arr.NullN() == arr.Len() {
		// MakeArrayOfNull's arrays may lack value buffers.
		return NullArray(mem, arr.DataType(), len(rows)), nil
	}
	switch t := arr.DataType().(type) {
	case *arrow.DictionaryType:
		// Fixed-width by its indices; the dictionary comes along.
		if d, ok := arr.(*array.Dictionary); ok && t.IndexType.ID() == arrow.INT32 {
			return takeDictionary(mem, d, rows), nil
		}
	case *arrow.BooleanType:
		return gatherBools(mem, arr, rows), nil
	case *arrow.StringType, *arrow.BinaryType:
		if out, ok := gatherBinary(mem, arr, rows); ok {
			return out, nil
		}
	case arrow.FixedWidthDataType:
		if w := t.BitWidth(); w%8 == 0 && w > 0 {
			return gatherFixedWidth(mem, arr, rows, w/8), nil
		}
	}
	indices := indexArray(rows)
	defer indices.Release()
	return compute.TakeArray(computeexec.WithAllocator(ctx, mem), arr, indices)
}

// consecutive reports whether rows are lo, lo+1, …, none of them -1.
func consecutive(rows []int32) (lo int, ok bool) {
	if len(rows) == 0 || rows[0] < 0 {
		return 0, false
	}
	for i, r := range rows {
		if r != rows[0]+int32(i) {
			return 0, false
		}
	}
	return int(rows[0]), true
}

// gatherValidity is the validity bitmap of the gathered rows, nil when all
// are valid.
func gatherValidity(mem memory.Allocator, arr arrow.Array, rows []int32) *memory.Buffer {
	// Data.NullN may be unknown (-1); the array's counts the bits.
	var src []byte
	if arr.NullN() > 0 {
		src = arr.NullBitmapBytes()
	}
	off := arr.Data().Offset()
	var buf *memory.Buffer
	for i, r := range rows {
		if r >= 0 && (src == nil || bitutil.BitIsSet(src, off+int(r))) {
			continue
		}
		if buf == nil {
			buf = NewBuffer(mem, int(bitutil.BytesForBits(int64(len(rows)))))
			bitutil.SetBitsTo(buf.Bytes(), 0, int64(len(rows)), true)
		}
		bitutil.ClearBit(buf.Bytes(), i)
	}
	return buf
}

func gatherFixedWidth(mem memory.Allocator, arr arrow.Array, rows []int32, width int) arrow.Array {
	d := arr.Data()
	validity := gatherValidity(mem, arr, rows)
	values := NewBuffer(mem, len(rows)*width)
	src, dst := bufferBytes(d.Buffers()[1])[d.Offset()*width:], values.Bytes()
	switch width {
	case 1:
		gatherWords(dst, src, rows)
	case 2:
		gatherWords(wordsOf[uint16](dst), wordsOf[uint16](src), rows)
	case 4:
		gatherWords(wordsOf[uint32](dst), wordsOf[uint32](src), rows)
	case 8:
		gatherWords(wordsOf[uint64](dst), wordsOf[uint64](src), rows)
	case 16:
		gatherWords(wordsOf[[2]uint64](dst), wordsOf[[2]uint64](src), rows)
	default:
		for i, r := range rows {
			if r >= 0 {
				copy(dst[i*width:(i+1)*width], src[int(r)*width:])
			}
		}
	}
	return MakeArray(d.DataType(), len(rows), validity, values)
}

// wordsOf views b as values of T; Arrow buffers are 64-byte aligned and
// offsets keep values whole, so the view is aligned.
func wordsOf[T any](b []byte) []T {
	var zero T
	n := len(b) / int(unsafe.Sizeof(zero))
	if n == 0 {
		return nil
	}
	return unsafe.Slice((*T)(unsafe.Pointer(&b[0])), n)
}

// gatherWords copies src[r] to dst[i] for each row; -1 leaves a zero.
func gatherWords[T any](dst, src []T, rows []int32) {
	for i, r := range rows {
		if r >= 0 {
			dst[i] = src[r]
		}
	}
}

func gatherBools(mem memory.Allocator, arr arrow.Array, rows []int32) arrow.Array {
	d := arr.Data()
	validity := gatherValidity(mem, arr, rows)
	values := NewBuffer(mem, int(bitutil.BytesForBits(int64(len(rows)))))
	src, dst, off := d.Buffers()[1].Bytes(), values.Bytes(), d.Offset()
	for i, r := range rows {
		if r >= 0 && bitutil.BitIsSet(src, off+int(r)) {
			bitutil.SetBit(dst, i)
		}
	}
	return MakeArray(d.DataType(), len(rows), validity, values)
}

// gatherBinary gathers STRING or BINARY values: offsets first, then the
// bytes in one copy per row. It declines (false) when the result would
// overflow 32-bit offsets.
func gatherBinary(mem memory.Allocator, arr arrow.Array, rows []int32) (arrow.Array, bool) {
	d := arr.Data()
	srcOffsets := arrow.GetData[int32](bufferBytes(d.Buffers()[1]))[d.Offset():]
	srcData := bufferBytes(d.Buffers()[2])
	offsetsBuf := NewBuffer(mem, (len(rows)+1)*4)
	offsets := arrow.GetData[int32](offsetsBuf.Bytes())
	total := 0
	for i, r := range rows {
		offsets[i] = int32(total)
		if r >= 0 {
			total += int(srcOffsets[r+1] - srcOffsets[r])
			if total > math.MaxInt32 {
				offsetsBuf.Release()
				return nil, false
			}
		}
	}
	offsets[len(rows)] = int32(total)
	dataBuf := NewBuffer(mem, total)
	data := dataBuf.Bytes()
	for i, r := range rows {
		if r >= 0 {
			copy(data[offsets[i]:offsets[i+1]], srcData[srcOffsets[r]:srcOffsets[r+1]])
		}
	}
	validity := gatherValidity(mem, arr, rows)
	return MakeArray(d.DataType(), len(rows), validity, offsetsBuf, dataBuf), true
}

// indexArray wraps rows as an INT32 array without copying; negative numbers
// become NULL indices, which take turns into NULL values.
func indexArray(rows []int32) arrow.Array {
	var validity *memory.Buffer
	nulls := 0
	for i, r := range rows {
		if r >= 0 {
			continue
		}
		if validity == nil {
			validity = memory.NewBufferBytes(make([]byte, bitutil.BytesForBits(int64(len(rows)))))
			bitutil.SetBitsTo(validity.Bytes(), 0, int64(len(rows)), true)
		}
		bitutil.ClearBit(validity.Bytes(), i)
		nulls++
	}
	values := memory.NewBufferBytes(arrow.Int32Traits.CastToBytes(rows))
	data := array.NewData(arrow.PrimitiveTypes.Int32, len(rows), []*memory.Buffer{validity, values}, nil, nulls, 0)
	defer data.Release()
	return array.MakeFromData(data)
}
