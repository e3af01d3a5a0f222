package expr

import (
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// castNested converts an array, map or struct value by converting its
// elements, keys and values, or fields (by name when both structs have the
// same names, as DuckDB matches them, else by position): each child is
// cast as a column of its own length.
func (ev *evaluator) castNested(src arrow.Array, to arrow.DataType, try bool) (arrow.Array, error) {
	d := src.Data()
	switch t := to.(type) {
	case *arrow.ListType:
		if a, ok := src.(*array.List); ok {
			elems, offsets, err := ev.castChildRange(a, a.ListValues(), t.Elem(), try)
			if err != nil {
				return nil, err
			}
			return ev.rebuild(t, d, offsets, elems), nil
		}
	case *arrow.MapType:
		if a, ok := src.(*array.Map); ok {
			keys, offsets, err := ev.castChildRange(a, a.Keys(), t.KeyType(), try)
			if err != nil {
				return nil, err
			}
			defer keys.Release()
			vals, valOffsets, err := ev.castChildRange(a, a.Items(), t.ItemType(), try)
			if err != nil {
				offsets.Release()
				return nil, err
			}
			valOffsets.Release()
			defer vals.Release()
			entries := array.NewData(t.Elem(), keys.Len(), []*memory.Buffer{nil}, []arrow.ArrayData{keys.Data(), vals.Data()}, 0, 0)
			defer entries.Release()
			return ev.rebuild(t, d, offsets, array.MakeFromData(entries)), nil
		}
	case *arrow.StructType:
		if a, ok := src.(*array.Struct); ok && a.NumField() == t.NumFields() {
			from := fieldOrder(a.DataType().(*arrow.StructType), t)
			kids := make([]arrow.ArrayData, t.NumFields())
			for i := range kids {
				sub := &evaluator{ctx: ev.ctx, mem: ev.mem, n: a.Len()}
				k, err := sub.castArray(a.Field(from[i]), t.Field(i).Type, try)
				if err != nil {
					for _, done := range kids[:i] {
						done.Release()
					}
					return nil, fmt.Errorf("field %s: %w", t.Field(i).Name, err)
				}
				kids[i] = k.Data()
				kids[i].Retain()
				k.Release()
			}
			validity := ev.validityFrom(d)
			out := array.NewData(t, d.Len(), []*memory.Buffer{validity}, kids, d.NullN(), 0)
			for _, k := range kids {
				k.Release()
			}
			if validity != nil {
				validity.Release()
			}
			defer out.Release()
			return array.MakeFromData(out), nil
		}
	}
	return nil, fmt.Errorf("cannot cast %s to %s", src.DataType(), to)
}

// fieldOrder gives, for each field of to, the field of from it is cast
// from: the one of its name when from has every name of to once, ignoring
// case ({'b': 1, 'a': 2} into STRUCT<a, b>), else the one at its position.
func fieldOrder(from, to *arrow.StructType) []int {
	order := make([]int, to.NumFields())
	byName := make(map[string]int, from.NumFields())
	for i, f := range from.Fields() {
		byName[strings.ToLower(f.Name)] = i
	}
	named := len(byName) == from.NumFields()
	for i, f := range to.Fields() {
		j, ok := byName[strings.ToLower(f.Name)]
		named = named && ok
		order[i] = j
	}
	if !named {
		for i := range order {
			order[i] = i
		}
	}
	return order
}

// castChildRange casts the part of child the rows of a list-like array use
// and returns it with offsets rebased to it.
func (ev *evaluator) castChildRange(a array.ListLike, child arrow.Array, to arrow.DataType, try bool) (arrow.Array, *memory.Buffer, error) {
	n := a.Len()
	var first, last int64
	if n > 0 {
		first, _ = a.ValueOffsets(0)
		_, last = a.ValueOffsets(n - 1)
	}
	part := array.NewSlice(child, first, last)
	defer part.Release()
	sub := &evaluator{ctx: ev.ctx, mem: ev.mem, n: part.Len()}
	cast, err := sub.castArray(part, to, try)
	if err != nil {
		return nil, nil, err
	}
	buf := NewBuffer(ev.mem, (n+1)*arrow.Int32SizeBytes)
	offs := arrow.Int32Traits.CastFromBytes(buf.Bytes())
	for i := range n {
		start, end := a.ValueOffsets(i)
		offs[i], offs[i+1] = int32(start-first), int32(end-first)
	}
	return cast, buf, nil
}

// rebuild makes a list or map of type t with src's validity (moved to
// offset 0), new offsets and child; it releases offsets and child.
func (ev *evaluator) rebuild(t arrow.DataType, src arrow.ArrayData, offsets *memory.Buffer, child arrow.Array) arrow.Array {
	defer offsets.Release()
	defer child.Release()
	validity := ev.validityFrom(src)
	if validity != nil {
		defer validity.Release()
	}
	data := array.NewData(t, src.Len(), []*memory.Buffer{validity, offsets}, []arrow.ArrayData{child.Data()}, src.NullN(), 0)
	defer data.Release()
	return array.MakeFromData(data)
}

// validityFrom copies src's validity bitmap to offset 0; nil without NULLs.
func (ev *evaluator) validityFrom(src arrow.ArrayData) *memory.Buffer {
	if src.NullN() == 0 {
		return nil
	}
	validity := NewBuffer(ev.mem, int(bitutil.BytesForBits(int64(src.Len()))))
	bitutil.CopyBitmap(src.Buffers()[0].Bytes(), src.Offset(), src.Len(), validity.Bytes(), 0)
	return validity
}
