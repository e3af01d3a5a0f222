package expr

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// gatherLists builds n arrays of type t from elements of elems: row
// appends to dst the indices into elems of row i's elements, and one Take
// gathers them all. Rows clear in validity (nil: none) are NULL and row is
// not called for them; gatherLists takes over validity.
func (ev *evaluator) gatherLists(t arrow.DataType, validity *memory.Buffer, elems arrow.Array, row func(i int, dst []int32) []int32) (arrow.Array, error) {
	offsets := NewBuffer(ev.mem, (ev.n+1)*arrow.Int32SizeBytes)
	offs := arrow.Int32Traits.CastFromBytes(offsets.Bytes())
	var rows []int32
	for i := range ev.n {
		offs[i] = int32(len(rows))
		if validity == nil || bitutil.BitIsSet(validity.Bytes(), i) {
			rows = row(i, rows)
		}
	}
	offs[ev.n] = int32(len(rows))
	taken, err := Take(ev.ctx, ev.mem, elems, rows)
	if err != nil {
		offsets.Release()
		if validity != nil {
			validity.Release()
		}
		return nil, err
	}
	defer taken.Release()
	return nestedArray(t, ev.n, validity, offsets, taken.Data()), nil
}

// appendElements appends the indices of list i's elements, plus base.
func appendElements(dst []int32, a array.ListLike, i int, base int32) []int32 {
	start, end := a.ValueOffsets(i)
	for j := start; j < end; j++ {
		dst = append(dst, base+int32(j))
	}
	return dst
}

// usedElements is the part of a's elements its n rows use, and where it
// starts: a batch may be a slice of a longer array, whose other elements
// need no work (such as keys). The caller releases it.
func usedElements(a array.ListLike, n int) (arrow.Array, int64) {
	var lo, hi int64
	if n > 0 {
		lo, _ = a.ValueOffsets(0)
		_, hi = a.ValueOffsets(n - 1)
	}
	return array.NewSlice(a.ListValues(), lo, hi), lo
}
