package storage

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/iceberg-go"
	"github.com/parquet-go/parquet-go"
)

// Nested columns are written by shredding (Dremel's striping, the inverse
// of parquet_nested.go): each row is walked down the Arrow structure and
// every leaf column receives its values with repetition and definition
// levels; a NULL or empty list at some level gives each leaf under it one
// entry whose definition level stops there.

// shredNode is a node of a nested column's write schema.
type shredNode struct {
	optional bool // adds a definition level
	// list and map nodes repeat their child (maps: the key and value).
	list, isMap bool
	repLevel    int // lists and maps: the repetition level of their elements
	children    []*shredNode
	// leaves: the column index among the file's leaves, the value accessor
	// and the Iceberg field id (0 when unknown).
	leaf    int
	value   leafValuer
	fieldID int
	first   int // index of the first leaf under the node, relative to the column's
	end     int
}

// nestedSchema builds the Parquet node and the shredding plan of a nested
// Arrow type. it (may be nil) gives the Iceberg field ids; leaf counts the
// file's leaves so far; rep is the repetition level of the enclosing lists.
func nestedSchema(t arrow.DataType, it iceberg.Type, leaf *int, base, rep int) (parquet.Node, *shredNode, error) {
	n := &shredNode{first: *leaf - base}
	defer func() { n.end = *leaf - base }()
	switch t := t.(type) {
	case *arrow.StructType:
		var fields []iceberg.NestedField
		if st, ok := it.(*iceberg.StructType); ok && len(st.FieldList) == t.NumFields() {
			fields = st.FieldList
		}
		group := make(orderedGroup, t.NumFields())
		for i, f := range t.Fields() {
			var ft iceberg.Type
			var id int
			if fields != nil {
				ft, id = fields[i].Type, fields[i].ID
			}
			node, child, err := nestedField(f, ft, id, leaf, base, rep)
			if err != nil {
				return nil, nil, fmt.Errorf("field %s: %w", f.Name, err)
			}
			group[i] = orderedField{Node: node, name: f.Name}
			n.children = append(n.children, child)
		}
		return group, n, nil
	case *arrow.ListType:
		var et iceberg.Type
		var id int
		if lt, ok := it.(*iceberg.ListType); ok {
			et, id = lt.Element, lt.ElementID
		}
		n.list, n.repLevel = true, rep+1
		node, child, err := nestedField(t.ElemField(), et, id, leaf, base, rep+1)
		if err != nil {
			return nil, nil, fmt.Errorf("element: %w", err)
		}
		n.children = []*shredNode{child}
		return parquet.List(node), n, nil
	case *arrow.MapType:
		var kt, vt iceberg.Type
		var kid, vid int
		if mt, ok := it.(*iceberg.MapType); ok {
			kt, vt, kid, vid = mt.KeyType, mt.ValueType, mt.KeyID, mt.ValueID
		}
		n.isMap, n.repLevel = true, rep+1
		key, kn, err := nestedField(t.KeyField(), kt, kid, leaf, base, rep+1)
		if err != nil {
			return nil, nil, fmt.Errorf("key: %w", err)
		}
		val, vn, err := nestedField(t.ItemField(), vt, vid, leaf, base, rep+1)
		if err != nil {
			return nil, nil, fmt.Errorf("value: %w", err)
		}
		n.children = []*shredNode{kn, vn}
		return parquet.Map(key, val), n, nil
	}
	node, err := parquetNode(t)
	if err != nil {
		return nil, nil, err
	}
	if n.value, err = newLeafValuer(t); err != nil {
		return nil, nil, err
	}
	n.leaf = *leaf
	*leaf++
	return node, n, nil
}

// nestedField is nestedSchema for a field: optional unless the field is
// not nullable, with its field id.
func nestedField(f arrow.Field, it iceberg.Type, id int, leaf *int, base, rep int) (parquet.Node, *shredNode, error) {
	node, n, err := nestedSchema(f.Type, it, leaf, base, rep)
	if err != nil {
		return nil, nil, err
	}
	if n.value != nil {
		n.fieldID = id
	}
	n.optional = f.Nullable
	if f.Nullable {
		node = parquet.Optional(node)
	} else {
		node = parquet.Required(node)
	}
	if id != 0 {
		node = parquet.FieldID(node, id)
	}
	return node, n, nil
}

// shredder writes one nested column's rows to its leaves.
type shredder struct {
	root *shredNode
	base int               // file column index of the column's first leaf
	bufs [][]parquet.Value // per leaf of the column
}

// shred appends the entries of row i of arr (the value of node n) to the
// leaves' buffers; rep and def are the levels reached above n.
func (s *shredder) shred(n *shredNode, arr arrow.Array, i, rep, def int) error {
	if n.optional {
		if arr.IsNull(i) {
			s.nulls(n, rep, def)
			return nil
		}
		def++
	} else if arr.IsNull(i) {
		return fmt.Errorf("NULL in a field declared NOT NULL")
	}
	switch a := arr.(type) {
	case *array.Struct:
		for k, c := range n.children {
			if err := s.shred(c, a.Field(k), i, rep, def); err != nil {
				return err
			}
		}
		return nil
	case *array.Map:
		start, end := a.ValueOffsets(i)
		if start == end {
			s.nulls(n, rep, def)
			return nil
		}
		for j := start; j < end; j++ {
			if err := s.shred(n.children[0], a.Keys(), int(j), rep, def+1); err != nil {
				return err
			}
			if err := s.shred(n.children[1], a.Items(), int(j), rep, def+1); err != nil {
				return err
			}
			rep = n.repLevel
		}
		return nil
	case *array.List:
		start, end := a.ValueOffsets(i)
		if start == end {
			s.nulls(n, rep, def)
			return nil
		}
		for j := start; j < end; j++ {
			if err := s.shred(n.children[0], a.ListValues(), int(j), rep, def+1); err != nil {
				return err
			}
			rep = n.repLevel
		}
		return nil
	}
	if n.value == nil {
		return fmt.Errorf("unexpected %s value", arr.DataType())
	}
	s.bufs[n.first] = append(s.bufs[n.first], n.value(arr, i).Level(rep, def, n.leaf))
	return nil
}

// nulls gives every leaf under n an entry stopping at definition level def.
func (s *shredder) nulls(n *shredNode, rep, def int) {
	for l := n.first; l < n.end; l++ {
		s.bufs[l] = append(s.bufs[l], parquet.NullValue().Level(rep, def, s.leafIndex(l)))
	}
}

// leafIndex is the file column index of the column's l-th leaf.
func (s *shredder) leafIndex(l int) int { return s.base + l }

// write shreds rows [lo, hi) of arr into the column's leaf writers.
func (s *shredder) write(writers []*parquet.ColumnWriter, arr arrow.Array, lo, hi int) error {
	for l := range s.bufs {
		s.bufs[l] = s.bufs[l][:0]
	}
	for i := lo; i < hi; i++ {
		if err := s.shred(s.root, arr, i, 0, 0); err != nil {
			return err
		}
	}
	for l, buf := range s.bufs {
		if _, err := writers[s.leafIndex(l)].WriteRowValues(buf); err != nil {
			return err
		}
	}
	return nil
}

// leafIDs lists the Iceberg field ids of the column's leaves in order.
func (n *shredNode) leafIDs(ids []int) []int {
	if n.value != nil {
		return append(ids, n.fieldID)
	}
	for _, c := range n.children {
		ids = c.leafIDs(ids)
	}
	return ids
}

// structLeaf is a leaf of a nested column reached through structs only (no
// list or map above it): Iceberg keeps its value and null counts and bounds
// as for a top-level column, so filters on s.a can prune files.
type structLeaf struct {
	path    []int // field indices from the column down
	fieldID int
	metrics *columnMetrics
}

// structLeaves lists the struct-only leaves of type t (with Iceberg type it
// naming their field ids) that have metrics.
func structLeaves(t arrow.DataType, it iceberg.Type, path []int) []structLeaf {
	st, ok := t.(*arrow.StructType)
	ist, ok2 := it.(*iceberg.StructType)
	if !ok || !ok2 || len(ist.FieldList) != st.NumFields() {
		return nil
	}
	var out []structLeaf
	for i, f := range st.Fields() {
		p := append(append([]int(nil), path...), i)
		if IsNested(f.Type) {
			out = append(out, structLeaves(f.Type, ist.FieldList[i].Type, p)...)
			continue
		}
		if m, err := newColumnMetrics(f.Type); err == nil {
			out = append(out, structLeaf{path: p, fieldID: ist.FieldList[i].ID, metrics: m})
		}
	}
	return out
}

// update adds rows [lo, hi) of the column arr to the leaf's metrics.
func (l structLeaf) update(mem memory.Allocator, arr arrow.Array, lo, hi int) {
	arr.Retain()
	for _, i := range l.path {
		child := WithParentNulls(mem, arr.(*array.Struct).Field(i), arr)
		arr.Release()
		arr = child
	}
	l.metrics.update(arr, lo, hi)
	arr.Release()
}
