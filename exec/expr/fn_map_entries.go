package expr

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"

	"github.com/lakesql/lakesql/planner"
)

func init() {
	scalarFns[planner.FnMapEntries] = scalarFn{1, 1, false, mapEntriesKernel}
	scalarFns[planner.FnMapFromEntries] = scalarFn{1, 1, false, mapFromEntriesKernel}
	scalarFns[planner.FnMapConcat] = scalarFn{1, -1, true, mapConcatKernel}
}

// retype is arr's data under type t, which lays it out alike (fields
// renamed, nullability changed).
func retype(arr arrow.ArrayData, t arrow.DataType) arrow.Array {
	d := array.NewData(t, arr.Len(), arr.Buffers(), arr.Children(), arr.NullN(), arr.Offset())
	defer d.Release()
	return array.MakeFromData(d)
}

// mapEntriesKernel reads a map as the array of its entries, sharing its
// offsets and data.
func mapEntriesKernel(_ *evaluator, c *planner.Call, ops []operand) (arrow.Array, error) {
	d := ops[0].arr.Data()
	entries := retype(d.Children()[0], c.T.(*arrow.ListType).Elem())
	defer entries.Release()
	out := array.NewData(c.T, d.Len(), d.Buffers()[:2], []arrow.ArrayData{entries.Data()}, d.NullN(), d.Offset())
	defer out.Release()
	return array.MakeFromData(out), nil
}

// mapFromEntriesKernel builds maps from arrays of (key, value) structs; a
// NULL entry or key, or a key twice in one array, is an error.
func mapFromEntriesKernel(ev *evaluator, c *planner.Call, ops []operand) (arrow.Array, error) {
	a := ops[0].arr.(*array.List)
	used, lo := usedElements(a, ev.n)
	defer used.Release()
	structs := used.(*array.Struct)
	entries := retype(structs.Data(), c.T.(*arrow.MapType).Elem())
	defer entries.Release()
	keys := NestedKeys(nil, structs.Field(0))
	seen := map[string]bool{}
	for i := range ev.n {
		if a.IsNull(i) {
			continue
		}
		start, end := a.ValueOffsets(i)
		for j := start - lo; j < end-lo; j++ {
			if structs.IsNull(int(j)) || keys[j][0] == 0 { // NULL keys are {0x00}
				return nil, fmt.Errorf("%s: a map key cannot be NULL", c)
			}
		}
		if !uniqueKeys(keys[start-lo:end-lo], seen) {
			return nil, fmt.Errorf("%s: map keys must be unique", c)
		}
	}
	return ev.gatherLists(c.T, ev.validity(ops[0]), entries, func(i int, dst []int32) []int32 {
		return appendElements(dst, a, i, int32(-lo))
	})
}

// uniqueKeys reports whether the encoded keys (NestedKeys) of one map
// differ from each other; seen is scratch space.
func uniqueKeys(keys [][]byte, seen map[string]bool) bool {
	clear(seen)
	for _, k := range keys {
		if seen[string(k)] {
			return false
		}
		seen[string(k)] = true
	}
	return true
}

// mapConcatKernel joins, row by row, the entries of maps of one type, a
// later value replacing an earlier one of the same key where it stood. A
// NULL map is skipped; the row is NULL when all are (DuckDB).
func mapConcatKernel(ev *evaluator, c *planner.Call, ops []operand) (arrow.Array, error) {
	maps, all, base, err := ev.concatElements(ops)
	if err != nil {
		return nil, err
	}
	defer releaseAll(maps, all)
	keys := NestedKeys(nil, all.(*array.Struct).Field(0))
	validity := ev.newBitmap()
	for i := range ev.n {
		for _, m := range maps {
			if m.IsValid(i) {
				bitutil.SetBit(validity.Bytes(), i)
			}
		}
	}
	at := map[string]int{} // a key's index in the row's entries
	return ev.gatherLists(c.T, validity, all, func(i int, dst []int32) []int32 {
		clear(at)
		first := len(dst)
		for k, m := range maps {
			if m.IsNull(i) {
				continue
			}
			start, end := m.ValueOffsets(i)
			for j := base[k] + int32(start); j < base[k]+int32(end); j++ {
				if p, ok := at[string(keys[j])]; ok {
					dst[first+p] = j
					continue
				}
				at[string(keys[j])] = len(dst) - first
				dst = append(dst, j)
			}
		}
		return dst
	})
}
