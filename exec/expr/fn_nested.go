package expr

import (
	"fmt"
	"maps"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/storage"
)

// Kernels of the struct, array and map functions (planner/bind_nested.go).
// Element reads gather: each row's element position is computed, then one
// Take builds the result, NULL where the position is -1.

func init() {
	maps.Copy(scalarFns, map[string]scalarFn{
		planner.FnGetField:      {2, 2, false, getFieldKernel},
		planner.FnSubscript:     {2, 2, false, subscriptKernel(false)},
		planner.FnElementAt:     {2, 2, false, subscriptKernel(true)},
		planner.FnSize:          {1, 1, false, sizeKernel},
		planner.FnArrayContains: {2, 2, false, arrayContainsKernel},
		planner.FnMapKeys:       {1, 1, false, mapPartKernel},
		planner.FnMapValues:     {1, 1, false, mapPartKernel},
		planner.FnMakeArray:     {0, -1, true, makeArrayKernel},
		planner.FnMakeStruct:    {0, -1, true, makeStructKernel},
		planner.FnMakeMap:       {0, -1, true, makeMapKernel},
		planner.FnSplit:         {2, 2, false, splitKernel},
		planner.FnStringSplit:   {2, 2, false, splitKernel},
	})
}

// getFieldKernel reads a struct's field; a NULL struct gives NULL.
func getFieldKernel(ev *evaluator, c *planner.Call, ops []operand) (arrow.Array, error) {
	s := ops[0].arr.(*array.Struct)
	name := ops[1].lit.Value.(string)
	idx, ok := s.DataType().(*arrow.StructType).FieldIdx(name)
	if !ok {
		return nil, fmt.Errorf("%s: no field %s", c, name)
	}
	return storage.WithParentNulls(ev.mem, s.Field(idx), s), nil
}

// intAt reads row i of an integer operand (BIGINT, as the binder casts).
func intAt(o operand, i int) (int64, bool) {
	if o.lit != nil {
		return o.lit.Value.(int64), true
	}
	a := o.arr.(*array.Int64)
	return a.Value(i), a.IsValid(i)
}

// subscriptKernel reads an array element (0-based, or 1-based and from the
// end when negative for element_at) or a map value by key.
func subscriptKernel(oneBased bool) func(ev *evaluator, c *planner.Call, ops []operand) (arrow.Array, error) {
	return func(ev *evaluator, c *planner.Call, ops []operand) (arrow.Array, error) {
		rows := make([]int32, ev.n)
		switch a := ops[0].arr.(type) {
		case *array.List:
			for i := range rows {
				rows[i] = -1
				idx, ok := intAt(ops[1], i)
				if !ok || a.IsNull(i) {
					continue
				}
				start, end := a.ValueOffsets(i)
				switch {
				case oneBased && idx == 0:
					return nil, fmt.Errorf("element_at: array indices start at 1, got 0")
				case oneBased && idx < 0:
					idx += end - start
				case oneBased:
					idx--
				}
				if idx >= 0 && idx < end-start {
					rows[i] = int32(start + idx)
				}
			}
			return Take(ev.ctx, ev.mem, a.ListValues(), rows)
		case *array.Map:
			probe, err := ev.materialize(ops[1])
			if err != nil {
				return nil, err
			}
			defer probe.Release()
			match := matcher(a.Keys(), probe)
			for i := range rows {
				rows[i] = -1
				if a.IsNull(i) || probe.IsNull(i) {
					continue
				}
				start, end := a.ValueOffsets(i)
				for j := start; j < end; j++ {
					if match(int(j), i) {
						rows[i] = int32(j)
						break
					}
				}
			}
			return Take(ev.ctx, ev.mem, a.Items(), rows)
		}
		return nil, fmt.Errorf("%s: cannot index %s", c, ops[0].t)
	}
}

// matcher compares element j of values with row i of probe (of the same
// type; neither NULL).
func matcher(values, probe arrow.Array) func(j, i int) bool {
	switch v := values.(type) {
	case *array.String:
		p := probe.(*array.String)
		return func(j, i int) bool { return v.Value(j) == p.Value(i) }
	case *array.Int32:
		p := probe.(*array.Int32)
		return func(j, i int) bool { return v.Value(j) == p.Value(i) }
	case *array.Int64:
		p := probe.(*array.Int64)
		return func(j, i int) bool { return v.Value(j) == p.Value(i) }
	}
	return func(j, i int) bool {
		return array.SliceEqual(values, int64(j), int64(j+1), probe, int64(i), int64(i+1))
	}
}

// sizeKernel counts the elements of arrays or the entries of maps.
func sizeKernel(ev *evaluator, _ *planner.Call, ops []operand) (arrow.Array, error) {
	a := ops[0].arr.(array.ListLike)
	buf := NewBuffer(ev.mem, ev.n*arrow.Int32SizeBytes)
	out := arrow.Int32Traits.CastFromBytes(buf.Bytes())
	for i := range out {
		start, end := a.ValueOffsets(i)
		out[i] = int32(end - start)
	}
	return MakeArray(planner.TypeInt, ev.n, ev.validity(ops[0]), buf), nil
}

// arrayContainsKernel is TRUE when the array holds the value, NULL when it
// does not but holds a NULL (which might be it), as in SQL's IN.
func arrayContainsKernel(ev *evaluator, _ *planner.Call, ops []operand) (arrow.Array, error) {
	a := ops[0].arr.(*array.List)
	probe, err := ev.materialize(ops[1])
	if err != nil {
		return nil, err
	}
	defer probe.Release()
	elems := a.ListValues()
	match := matcher(elems, probe)
	b := array.NewBooleanBuilder(ev.mem)
	defer b.Release()
	b.Reserve(ev.n)
	for i := range ev.n {
		if a.IsNull(i) || probe.IsNull(i) {
			b.AppendNull()
			continue
		}
		start, end := a.ValueOffsets(i)
		found, sawNull := false, false
		for j := start; j < end && !found; j++ {
			if elems.IsNull(int(j)) {
				sawNull = true
			} else {
				found = match(int(j), i)
			}
		}
		if !found && sawNull {
			b.AppendNull()
		} else {
			b.UnsafeAppend(found)
		}
	}
	return b.NewArray(), nil
}

// mapPartKernel returns a map's keys or values as arrays, sharing the map's
// offsets and child data.
func mapPartKernel(_ *evaluator, c *planner.Call, ops []operand) (arrow.Array, error) {
	m := ops[0].arr.(*array.Map)
	part := m.Keys()
	if c.Fn == planner.FnMapValues {
		part = m.Items()
	}
	d := m.Data()
	out := array.NewData(c.T, d.Len(), d.Buffers()[:2], []arrow.ArrayData{part.Data()}, d.NullN(), d.Offset())
	defer out.Release()
	return array.MakeFromData(out), nil
}

// interleave gathers row i of each of arrs in turn: the values of
// array(a, b) are a[0], b[0], a[1], b[1], ….
func (ev *evaluator) interleave(t arrow.DataType, ops []operand) (arrow.Array, error) {
	if len(ops) == 0 {
		return NullArray(ev.mem, t, 0), nil
	}
	arrs := make([]arrow.Array, len(ops))
	defer func() {
		for _, a := range arrs {
			if a != nil {
				a.Release()
			}
		}
	}()
	for i, o := range ops {
		a, err := ev.materialize(o)
		if err != nil {
			return nil, err
		}
		arrs[i] = a
	}
	all, err := array.Concatenate(arrs, ev.mem)
	if err != nil {
		return nil, err
	}
	defer all.Release()
	rows := make([]int32, 0, len(ops)*ev.n)
	for i := range ev.n {
		for k := range ops {
			rows = append(rows, int32(k*ev.n+i))
		}
	}
	return Take(ev.ctx, ev.mem, all, rows)
}

// evenOffsets are the offsets of n lists of k elements each.
func (ev *evaluator) evenOffsets(k int) *memory.Buffer {
	buf := NewBuffer(ev.mem, (ev.n+1)*arrow.Int32SizeBytes)
	offs := arrow.Int32Traits.CastFromBytes(buf.Bytes())
	for i := range offs {
		offs[i] = int32(i * k)
	}
	return buf
}

func makeArrayKernel(ev *evaluator, c *planner.Call, ops []operand) (arrow.Array, error) {
	lt := c.T.(*arrow.ListType)
	elems, err := ev.interleave(lt.Elem(), ops)
	if err != nil {
		return nil, err
	}
	defer elems.Release()
	offsets := ev.evenOffsets(len(ops))
	defer offsets.Release()
	data := array.NewData(lt, ev.n, []*memory.Buffer{nil, offsets}, []arrow.ArrayData{elems.Data()}, 0, 0)
	defer data.Release()
	return array.MakeFromData(data), nil
}

// makeStructKernel builds named_struct('a', x, 'b', y, …).
func makeStructKernel(ev *evaluator, c *planner.Call, ops []operand) (arrow.Array, error) {
	st := c.T.(*arrow.StructType)
	kids := make([]arrow.ArrayData, 0, st.NumFields())
	defer func() {
		for _, k := range kids {
			k.Release()
		}
	}()
	for k := 1; k < len(ops); k += 2 {
		a, err := ev.materialize(ops[k])
		if err != nil {
			return nil, err
		}
		kids = append(kids, a.Data())
		a.Data().Retain()
		a.Release()
	}
	data := array.NewData(st, ev.n, []*memory.Buffer{nil}, kids, 0, 0)
	defer data.Release()
	return array.MakeFromData(data), nil
}

// makeMapKernel builds map(k1, v1, k2, v2, …); a NULL key is an error.
func makeMapKernel(ev *evaluator, c *planner.Call, ops []operand) (arrow.Array, error) {
	mt := c.T.(*arrow.MapType)
	var keyOps, valOps []operand
	for k := 0; k < len(ops); k += 2 {
		keyOps, valOps = append(keyOps, ops[k]), append(valOps, ops[k+1])
	}
	keys, err := ev.interleave(mt.KeyType(), keyOps)
	if err != nil {
		return nil, err
	}
	defer keys.Release()
	if keys.NullN() > 0 {
		return nil, fmt.Errorf("%s: a map key cannot be NULL", c)
	}
	if m := len(keyOps); m > 1 {
		// Row i's keys are keys[i*m : (i+1)*m].
		encoded, seen := NestedKeys(nil, keys), map[string]bool{}
		for i := range ev.n {
			if !uniqueKeys(encoded[i*m:(i+1)*m], seen) {
				return nil, fmt.Errorf("%s: map keys must be unique", c)
			}
		}
	}
	vals, err := ev.interleave(mt.ItemType(), valOps)
	if err != nil {
		return nil, err
	}
	defer vals.Release()
	entries := array.NewData(mt.Elem(), keys.Len(), []*memory.Buffer{nil}, []arrow.ArrayData{keys.Data(), vals.Data()}, 0, 0)
	defer entries.Release()
	offsets := ev.evenOffsets(len(keyOps))
	defer offsets.Release()
	data := array.NewData(mt, ev.n, []*memory.Buffer{nil, offsets}, []arrow.ArrayData{entries}, 0, 0)
	defer data.Release()
	return array.MakeFromData(data), nil
}

// splitKernel splits a string around the matches of a pattern (RE2 syntax),
// keeping empty parts, as Spark's split does; string_split around a plain
// separator, as DuckDB's does (an empty one splits into characters).
func splitKernel(ev *evaluator, c *planner.Call, ops []operand) (arrow.Array, error) {
	s, pattern := newBytesVec(ops[0]), newBytesVec(ops[1])
	validity := ev.validity(ops...)
	if validity != nil {
		defer validity.Release()
	}
	b := array.NewListBuilderWithField(ev.mem, c.T.(*arrow.ListType).ElemField())
	defer b.Release()
	parts := b.ValueBuilder().(*array.StringBuilder)
	var cache regexpCache
	for i := range ev.n {
		if validity != nil && !bitutil.BitIsSet(validity.Bytes(), i) {
			b.AppendNull()
			continue
		}
		var pieces []string
		if c.Fn == planner.FnStringSplit {
			pieces = strings.Split(string(s.At(i)), string(pattern.At(i)))
		} else {
			re, err := cache.get(pattern.At(i))
			if err != nil {
				return nil, wrapError(c, err)
			}
			pieces = re.Split(string(s.At(i)), -1)
		}
		b.Append(true)
		for _, p := range pieces {
			parts.Append(p)
		}
	}
	return b.NewArray(), nil
}
