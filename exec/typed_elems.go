package exec

import (
	"bytes"
	"cmp"
	"fmt"
	"hash/maphash"
	"math"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakesql/lakesql/exec/expr"
	"github.com/lakesql/lakesql/planner"
)

// elem describes one physical kind of values for the typed loops of grouping,
// aggregation and sorting. T is the Go element type: the fixed-width types
// as stored, BOOLEAN unpacked to 0/1 bytes, strings and binaries as []byte.
type elem[T any] struct {
	// values views a batch's column; slots under NULLs hold unspecified
	// values. Kinds that must unpack the column (BOOLEAN, strings) fill dst,
	// grown when too small, so that a caller looping over batches reuses
	// one slice instead of allocating one per batch.
	values func(dst []T, arr arrow.Array) []T
	// compare is a total order: NaN sorts above all numbers and equals NaN.
	compare func(a, b T) int
	// hash agrees with compare: equal values (-0.0 and 0.0, NaNs) hash equally.
	hash func(v T) uint64
	// own returns a copy of v that does not point into the batch.
	own func(v T) T
	// build makes an array of type t from values and validity.
	build func(mem memory.Allocator, t arrow.DataType, vals []T, valid []bool) arrow.Array
}

// typedOps are the typed building blocks for one element kind; opsOf picks
// them by column type, so that callers need no type switch of their own.
type typedOps struct {
	newKeys     func(t arrow.DataType) keyColumn
	newSelector func(t arrow.DataType, replace func(c int) bool) accumulator
	// newPercentileDisc is percentile_disc at a fraction (aggregate_funcs_percentile.go).
	newPercentileDisc func(t arrow.DataType, fraction float64) accumulator
	comparator        func(a, b arrow.Array) func(i, j int) int
	// newSlots keeps one value per group (aggregate_funcs_by.go).
	newSlots func(t arrow.DataType) valueSlots
	// newList is array_agg or collect_list, of result type list, its
	// values ordered by order when given (aggregate_funcs_array_agg.go).
	newList func(list arrow.DataType, keepNulls bool, order []planner.AggOrder) accumulator
}

// withKeys replaces ops' key column with a specialized one.
func withKeys(ops typedOps, newKeys func(t arrow.DataType) keyColumn) typedOps {
	ops.newKeys = newKeys
	return ops
}

func opsFor[T any](e elem[T]) typedOps {
	return typedOps{
		newKeys: func(t arrow.DataType) keyColumn { return &typedKeys[T]{e: e, t: t} },
		newSelector: func(t arrow.DataType, replace func(int) bool) accumulator {
			return &selectAcc[T]{slots: slots[T]{e: e, t: t}, replace: replace}
		},
		newPercentileDisc: func(t arrow.DataType, fraction float64) accumulator {
			return &percentileDiscAcc[T]{e: e, t: t, fraction: fraction}
		},
		comparator: func(a, b arrow.Array) func(i, j int) int {
			va, vb := e.values(nil, a), e.values(nil, b)
			return func(i, j int) int { return e.compare(va[i], vb[j]) }
		},
		newSlots: func(t arrow.DataType) valueSlots { return &slots[T]{e: e, t: t} },
		newList: func(list arrow.DataType, keepNulls bool, order []planner.AggOrder) accumulator {
			return &listAcc[T]{e: e, t: list.(*arrow.ListType), keepNulls: keepNulls, order: order}
		},
	}
}

var (
	boolOps    = opsFor(elem[uint8]{unpackBools, cmp.Compare[uint8], hashInt[uint8], same[uint8], buildBools})
	int8Ops    = opsFor(fixedElem[int8](cmp.Compare[int8], hashInt[int8]))
	int16Ops   = opsFor(fixedElem[int16](cmp.Compare[int16], hashInt[int16]))
	int32Ops   = opsFor(fixedElem[int32](cmp.Compare[int32], hashInt[int32]))
	int64Ops   = opsFor(fixedElem[int64](cmp.Compare[int64], hashInt[int64]))
	float32Ops = opsFor(fixedElem[float32](compareFloat[float32], hashFloat[float32]))
	float64Ops = opsFor(fixedElem[float64](compareFloat[float64], hashFloat[float64]))
	decimalOps = opsFor(fixedElem[decimal128.Num](decimal128.Num.Cmp, hashDecimal))
	bytesOps   = withKeys(opsFor(elem[[]byte]{bytesValues, bytes.Compare, hashBytes, bytes.Clone, buildBytes}), newBytesKeys)
	nullOps    = opsFor(elem[uint8]{nullValues, cmp.Compare[uint8], hashInt[uint8], same[uint8], buildNulls})
)

// opsOf returns the typed operations for values of type t.
func opsOf(t arrow.DataType) (typedOps, error) {
	switch expr.KindOf(t) {
	case expr.KindNull:
		return nullOps, nil
	case expr.KindBool:
		return boolOps, nil
	case expr.KindInt8:
		return int8Ops, nil
	case expr.KindInt16:
		return int16Ops, nil
	case expr.KindInt32:
		return int32Ops, nil
	case expr.KindInt64:
		return int64Ops, nil
	case expr.KindFloat32:
		return float32Ops, nil
	case expr.KindFloat64:
		return float64Ops, nil
	case expr.KindDecimal:
		return decimalOps, nil
	case expr.KindBytes:
		return bytesOps, nil
	}
	if expr.IsNestedType(t) && expr.NestedComparable(t) == nil {
		return nestedOps, nil
	}
	return typedOps{}, fmt.Errorf("cannot group or order values of type %s", planner.TypeString(t))
}

func fixedElem[T expr.FixedWidth](compare func(a, b T) int, hash func(T) uint64) elem[T] {
	return elem[T]{
		values:  func(_ []T, arr arrow.Array) []T { return expr.FixedValues[T](expr.ExtensionStorage(arr)) },
		compare: compare,
		hash:    hash,
		own:     same[T],
		build:   buildFixed[T],
	}
}

func same[T any](v T) T { return v }

func compareFloat[T expr.Float](a, b T) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	case a == b:
		return 0
	case a != a && b != b:
		return 0
	case a != a:
		return 1 // NaN sorts above all numbers
	}
	return -1
}

// mix is the murmur3 64-bit finalizer: it spreads every input bit over the
// whole hash, which the power-of-two hash table needs.
func mix(x uint64) uint64 {
	x ^= x >> 33
	x *= 0xff51afd7ed558ccd
	x ^= x >> 33
	x *= 0xc4ceb9fe1a85ec53
	x ^= x >> 33
	return x
}

func hashInt[T expr.Signed | ~uint8](v T) uint64 { return mix(uint64(v)) }

func hashFloat[T expr.Float](v T) uint64 {
	f := float64(v)
	switch {
	case f == 0:
		f = 0 // -0.0 groups with 0.0
	case f != f:
		f = math.NaN()
	}
	return mix(math.Float64bits(f))
}

func hashDecimal(v decimal128.Num) uint64 {
	return mix(v.LowBits() ^ mix(uint64(v.HighBits())))
}

var bytesSeed = maphash.MakeSeed()

func hashBytes(v []byte) uint64 { return maphash.Bytes(bytesSeed, v) }

// unpackBools views a BOOLEAN column as 0/1 bytes.
func unpackBools(dst []uint8, arr arrow.Array) []uint8 {
	d := arr.Data()
	bits, off := d.Buffers()[1].Bytes(), d.Offset()
	out := grow(dst[:0], d.Len())
	for i := range out {
		out[i] = expr.BoolByte(bitutil.BitIsSet(bits, off+i))
	}
	return out
}

func nullValues(dst []uint8, arr arrow.Array) []uint8 {
	out := grow(dst[:0], arr.Len())
	clear(out)
	return out
}

// bytesValues views a STRING, BINARY or UUID column as byte slices into
// the array's buffers.
func bytesValues(dst [][]byte, arr arrow.Array) [][]byte {
	v := expr.ArrayBytes(expr.ExtensionStorage(arr))
	out := grow(dst[:0], arr.Len())
	for i := range out {
		out[i] = v.At(i)
	}
	return out
}

// validityBuffer packs valid into a bitmap; nil when every value is valid.
func validityBuffer(mem memory.Allocator, valid []bool) *memory.Buffer {
	allValid := true
	for _, v := range valid {
		allValid = allValid && v
	}
	if allValid {
		return nil
	}
	buf := expr.NewBuffer(mem, int(bitutil.BytesForBits(int64(len(valid)))))
	for i, v := range valid {
		if v {
			bitutil.SetBit(buf.Bytes(), i)
		}
	}
	return buf
}

func buildFixed[T expr.FixedWidth](mem memory.Allocator, t arrow.DataType, vals []T, valid []bool) arrow.Array {
	var zero T
	buf := expr.NewBuffer(mem, len(vals)*int(unsafe.Sizeof(zero)))
	copy(arrow.GetData[T](buf.Bytes()), vals)
	return expr.MakeArray(t, len(vals), validityBuffer(mem, valid), buf)
}

func buildBools(mem memory.Allocator, t arrow.DataType, vals []uint8, valid []bool) arrow.Array {
	buf := expr.NewBuffer(mem, int(bitutil.BytesForBits(int64(len(vals)))))
	for i, v := range vals {
		if v != 0 {
			bitutil.SetBit(buf.Bytes(), i)
		}
	}
	return expr.MakeArray(t, len(vals), validityBuffer(mem, valid), buf)
}

// buildBytes makes a variable-width (offsets and data) or, for UUIDs, a
// fixed-width binary array.
func buildBytes(mem memory.Allocator, t arrow.DataType, vals [][]byte, valid []bool) arrow.Array {
	if fsb, ok := expr.StorageTypeOf(t).(*arrow.FixedSizeBinaryType); ok {
		data := expr.NewBuffer(mem, len(vals)*fsb.ByteWidth) // NULL slots take their width too
		for i, v := range vals {
			copy(data.Bytes()[i*fsb.ByteWidth:], v)
		}
		return expr.MakeArray(t, len(vals), validityBuffer(mem, valid), data)
	}
	offsets := expr.NewBuffer(mem, (len(vals)+1)*4)
	offs := arrow.GetData[int32](offsets.Bytes())
	for i, v := range vals {
		offs[i+1] = offs[i] + int32(len(v))
	}
	data := expr.NewBuffer(mem, int(offs[len(vals)]))
	for i, v := range vals {
		copy(data.Bytes()[offs[i]:], v)
	}
	return expr.MakeArray(t, len(vals), validityBuffer(mem, valid), offsets, data)
}

func buildNulls(mem memory.Allocator, t arrow.DataType, vals []uint8, _ []bool) arrow.Array {
	return expr.NullArray(mem, t, len(vals))
}

// nullMask returns an array's validity bitmap re-based to bit 0, or nil when
// no value is NULL.
func nullMask(arr arrow.Array) []byte {
	if arr.NullN() == 0 {
		return nil
	}
	if arr.DataType().ID() == arrow.NULL {
		return make([]byte, bitutil.BytesForBits(int64(arr.Len())))
	}
	return expr.AlignedBits(arr.NullBitmapBytes(), arr.Data().Offset(), arr.Len())
}

// isValid reads a nullMask.
func isValid(mask []byte, i int) bool { return mask == nil || bitutil.BitIsSet(mask, i) }

// grow extends s with zero values to length n. Per-group state grows by a
// batch of new groups at a time: doubling the capacity keeps the copies
// few (append grew it through a temporary slice). Past a million values
// it grows by a quarter, so that a large state does not overshoot the
// memory limit by its own size in one step.
func grow[T any](s []T, n int) []T {
	if n <= len(s) {
		return s
	}
	if c := cap(s); n > c {
		next := 2 * c
		if c > 1<<20 {
			next = c + c/4
		}
		t := make([]T, n, max(n, next))
		copy(t, s)
		return t
	}
	old := len(s)
	s = s[:n]
	clear(s[old:])
	return s
}
