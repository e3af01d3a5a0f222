package storage

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/compute"
	computeexec "github.com/apache/arrow-go/v18/arrow/compute/exec"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/parquet-go/parquet-go"
)

// Nested columns (structs, lists, maps) are read leaf by leaf. Each leaf
// column chunk is decoded by the flat decoders into one slot per level entry
// (NULL where the definition level stops short of the leaf), keeping its
// repetition and definition levels. The Arrow arrays are then assembled from
// the levels top-down (Dremel's record assembly): a node receives, for each
// leaf under it, the level entries that start each of its values, and
// passes its children the entries of their values. Only the leaves the
// wanted type names are read: a struct field dropped from the query's type
// costs no I/O.

// nestedNode is a node of the file schema matched to the Arrow type wanted.
type nestedNode struct {
	want arrow.DataType
	// validDef: the node's value is non-NULL at an entry whose definition
	// level reaches it.
	validDef byte
	// Lists and maps: an entry starts an element when its definition level
	// reaches elemDef and its repetition level is at most elemRep.
	elemDef, elemRep byte
	// children are the struct's fields (nil: the file lacks it), the list's
	// element, or the map's key and value.
	children []*nestedNode
	// first and end delimit the leaves under the node; first gives the
	// levels its values are read from.
	first, end int
	leaf       bool
}

// nestedLeaf is one leaf column chunk, decoded.
type nestedLeaf struct {
	col        *parquet.Column
	want       arrow.DataType // nil: only the levels are needed
	defs, reps []byte
	values     arrow.Array // one slot per level entry; nil when want is nil
}

// nestedReader matches a nested column to its wanted type and assembles it.
type nestedReader struct {
	f      *ParquetFile
	leaves []*nestedLeaf
	mem    memory.Allocator
}

func (r *nestedReader) release() {
	for _, l := range r.leaves {
		if l.values != nil {
			l.values.Release()
		}
	}
}

// readNested reads the top-level nested column c of row group rg as want.
func (f *ParquetFile) readNested(ctx context.Context, rg int, c *parquet.Column, want arrow.DataType, numRows int, mem memory.Allocator) (arrow.Array, error) {
	r := &nestedReader{f: f, mem: mem}
	defer r.release()
	root, err := r.match(c, want, false)
	if err != nil {
		return nil, err
	}
	chunks := f.file.RowGroups()[rg].ColumnChunks()
	for _, l := range r.leaves {
		if err := r.decodeLeaf(ctx, l, chunks[l.col.Index()]); err != nil {
			return nil, fmt.Errorf("column %s: %w", strings.Join(l.col.Path(), "."), err)
		}
	}
	// A row starts at each entry of repetition level 0.
	slots := make([][]int32, len(r.leaves))
	for i, l := range r.leaves {
		for e, rep := range l.reps {
			if rep == 0 {
				slots[i] = append(slots[i], int32(e))
			}
		}
		if len(slots[i]) != numRows {
			return nil, fmt.Errorf("column %s has %d rows, row group has %d", strings.Join(l.col.Path(), "."), len(slots[i]), numRows)
		}
	}
	return r.build(ctx, root, slots)
}

// match pairs the file node c with the wanted type. consumed says c's own
// repetition already made the list above (a legacy two-level list whose
// repeated field is the element).
func (r *nestedReader) match(c *parquet.Column, want arrow.DataType, consumed bool) (*nestedNode, error) {
	n := &nestedNode{want: want, first: len(r.leaves), validDef: byte(c.MaxDefinitionLevel())}
	defer func() { n.end = len(r.leaves) }()
	repeated := c.Repeated() && !consumed
	switch want := want.(type) {
	case *arrow.StructType:
		if c.Leaf() || repeated {
			return nil, fmt.Errorf("cannot read parquet column %s as %s", c.Name(), want)
		}
		for _, field := range want.Fields() {
			fc := r.childOf(c, field)
			if fc == nil {
				n.children = append(n.children, nil)
				continue
			}
			child, err := r.match(fc, field.Type, false)
			if err != nil {
				return nil, err
			}
			n.children = append(n.children, child)
		}
		if len(r.leaves) == n.first {
			// No field of the file is wanted: one leaf still gives the
			// struct's NULLs.
			r.leaves = append(r.leaves, &nestedLeaf{col: firstLeaf(c)})
		}
	case *arrow.ListType, *arrow.MapType:
		rep, elem, err := repeatedPart(c, repeated)
		if err != nil {
			return nil, err
		}
		if repeated {
			n.validDef-- // a bare repeated field is never NULL, only empty
		}
		n.elemDef, n.elemRep = byte(rep.MaxDefinitionLevel()), byte(rep.MaxRepetitionLevel())
		if lt, ok := want.(*arrow.ListType); ok {
			child, err := r.match(elem, lt.Elem(), elem == rep)
			if err != nil {
				return nil, err
			}
			n.children = []*nestedNode{child}
			break
		}
		mt := want.(*arrow.MapType)
		kv := rep.Columns()
		if rep.Leaf() || len(kv) != 2 {
			return nil, fmt.Errorf("parquet column %s is not a map of keys and values", c.Name())
		}
		for i, t := range []arrow.DataType{mt.KeyType(), mt.ItemType()} {
			child, err := r.match(kv[i], t, false)
			if err != nil {
				return nil, err
			}
			n.children = append(n.children, child)
		}
	default:
		if !c.Leaf() || repeated {
			return nil, fmt.Errorf("cannot read parquet column %s as %s", c.Name(), want)
		}
		n.leaf = true
		r.leaves = append(r.leaves, &nestedLeaf{col: c, want: want})
	}
	return n, nil
}

// childOf finds the file field of a wanted struct field: by field id when
// the file has ids, else by name.
func (r *nestedReader) childOf(c *parquet.Column, field arrow.Field) *parquet.Column {
	id := FieldIDOf(field)
	for _, fc := range c.Columns() {
		if len(r.f.byID) > 0 && id != 0 {
			if fc.ID() == id {
				return fc
			}
		} else if fc.Name() == field.Name {
			return fc
		}
	}
	return nil
}

func firstLeaf(c *parquet.Column) *parquet.Column {
	for !c.Leaf() && len(c.Columns()) > 0 {
		c = c.Columns()[0]
	}
	return c
}

// repeatedPart finds the repeated field of a list or map column and the
// field holding its elements, following the Parquet spec's
// backward-compatibility rules for lists.
func repeatedPart(c *parquet.Column, bare bool) (rep, elem *parquet.Column, err error) {
	if bare {
		return c, c, nil
	}
	kids := c.Columns()
	if c.Leaf() || len(kids) != 1 || !kids[0].Repeated() {
		return nil, nil, fmt.Errorf("parquet column %s is not a list or map", c.Name())
	}
	rep = kids[0]
	if rep.Leaf() || len(rep.Columns()) > 1 || rep.Name() == "array" || rep.Name() == c.Name()+"_tuple" {
		return rep, rep, nil
	}
	return rep, rep.Columns()[0], nil
}

// decodeLeaf reads every page of a leaf's chunk: its levels and, when
// wanted, its values.
func (r *nestedReader) decodeLeaf(ctx context.Context, l *nestedLeaf, chunk parquet.ColumnChunk) error {
	total := int(chunk.NumValues())
	var dec columnDecoder
	var valid *validity
	if l.want != nil {
		var err error
		if dec, err = newLeafDecoder(l.col, l.want, total, r.mem); err != nil {
			return err
		}
		valid = newValidity(l.col, total, r.mem)
	}
	fail := func(err error) error {
		if dec != nil {
			dec.release()
			valid.release()
		}
		return err
	}
	maxDef, maxRep := l.col.MaxDefinitionLevel(), l.col.MaxRepetitionLevel()
	l.defs, l.reps = make([]byte, 0, total), make([]byte, 0, total)
	pages := chunk.Pages()
	defer pages.Close()
	read := 0
	for {
		if err := ctx.Err(); err != nil {
			return fail(err)
		}
		p, err := pages.ReadPage()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return fail(err)
		}
		read++
		start, n := len(l.defs), int(p.NumValues())
		defs, reps := p.DefinitionLevels(), p.RepetitionLevels()
		switch {
		case start+n > total:
			err = fmt.Errorf("pages hold more than the chunk's %d values", total)
		case maxDef > 0 && len(defs) != n, maxRep > 0 && len(reps) != n:
			err = fmt.Errorf("page has %d definition and %d repetition levels for %d values", len(defs), len(reps), n)
		}
		if err == nil && dec != nil {
			numValid := valid.add(start, n, defs)
			err = dec.decodePage(p, pageRows{start: start, count: n, valid: numValid, defs: defs, maxDef: valid.maxDef})
		}
		if maxDef > 0 {
			l.defs = append(l.defs, defs...)
		} else {
			l.defs = append(l.defs, make([]byte, n)...)
		}
		if maxRep > 0 {
			l.reps = append(l.reps, reps...)
		} else {
			l.reps = append(l.reps, make([]byte, n)...)
		}
		parquet.Release(p)
		if err != nil {
			return fail(err)
		}
	}
	r.f.countPages(read, read)
	if len(l.defs) != total {
		return fail(fmt.Errorf("pages hold %d of the chunk's %d values", len(l.defs), total))
	}
	if dec != nil {
		bitmap, nulls := valid.finish()
		l.values = dec.finish(bitmap, nulls)
	}
	return nil
}

// build assembles node n; slots[l] lists, for each leaf l under n, the
// entries starting each of n's values.
func (r *nestedReader) build(ctx context.Context, n *nestedNode, slots [][]int32) (arrow.Array, error) {
	if n.leaf {
		idx := array.NewInt32Data(array.NewData(arrow.PrimitiveTypes.Int32, len(slots[n.first]),
			[]*memory.Buffer{nil, memory.NewBufferBytes(arrow.Int32Traits.CastToBytes(slots[n.first]))}, nil, 0, 0))
		defer idx.Release()
		return compute.TakeArray(computeexec.WithAllocator(ctx, r.mem), r.leaves[n.first].values, idx)
	}
	length := len(slots[n.first])
	bitmap, nulls := r.validity(n, slots[n.first])
	defer func() {
		if bitmap != nil {
			bitmap.Release()
		}
	}()
	switch want := n.want.(type) {
	case *arrow.StructType:
		kids, err := r.buildAll(ctx, n.children, want.Fields(), slots, length)
		if err != nil {
			return nil, err
		}
		return newStruct(want, length, bitmap, nulls, kids), nil
	}
	// Lists and maps: the entries starting elements, per leaf, and the
	// offsets of each value's elements.
	elems := make([][]int32, len(slots))
	for l := n.first; l < n.end; l++ {
		leaf := r.leaves[l]
		for e, rep := range leaf.reps {
			if rep <= n.elemRep && leaf.defs[e] >= n.elemDef {
				elems[l] = append(elems[l], int32(e))
			}
		}
	}
	offsets := memory.NewResizableBuffer(r.mem)
	offsets.Resize((length + 1) * arrow.Int32SizeBytes)
	defer offsets.Release()
	offs := arrow.Int32Traits.CastFromBytes(offsets.Bytes())
	starts, j := elems[n.first], 0
	for k, s := range slots[n.first] {
		for j < len(starts) && starts[j] < s {
			j++
		}
		offs[k] = int32(j)
	}
	offs[length] = int32(len(starts))
	switch want := n.want.(type) {
	case *arrow.ListType:
		elem, err := r.build(ctx, n.children[0], elems)
		if err != nil {
			return nil, err
		}
		defer elem.Release()
		data := array.NewData(want, length, []*memory.Buffer{bitmap, offsets}, []arrow.ArrayData{elem.Data()}, nulls, 0)
		defer data.Release()
		return array.NewListData(data), nil
	case *arrow.MapType:
		entryType := want.Elem().(*arrow.StructType)
		kids, err := r.buildAll(ctx, n.children, entryType.Fields(), elems, len(starts))
		if err != nil {
			return nil, err
		}
		entries := newStruct(entryType, len(starts), nil, 0, kids)
		defer entries.Release()
		data := array.NewData(want, length, []*memory.Buffer{bitmap, offsets}, []arrow.ArrayData{entries.Data()}, nulls, 0)
		defer data.Release()
		return array.NewMapData(data), nil
	}
	return nil, fmt.Errorf("cannot assemble %s", n.want)
}

// buildAll builds the children of a struct (or map entry) of length rows;
// a child the file lacks is all NULL.
func (r *nestedReader) buildAll(ctx context.Context, nodes []*nestedNode, fields []arrow.Field, slots [][]int32, length int) ([]arrow.Array, error) {
	kids := make([]arrow.Array, len(nodes))
	for i, c := range nodes {
		var err error
		if c == nil {
			kids[i] = array.MakeArrayOfNull(r.mem, fields[i].Type, length)
		} else if kids[i], err = r.build(ctx, c, slots); err != nil {
			for _, k := range kids[:i] {
				k.Release()
			}
			return nil, err
		}
	}
	return kids, nil
}

// newStruct makes a struct array of kids, which it releases.
func newStruct(t *arrow.StructType, length int, bitmap *memory.Buffer, nulls int, kids []arrow.Array) arrow.Array {
	data := make([]arrow.ArrayData, len(kids))
	for i, k := range kids {
		data[i] = k.Data()
	}
	d := array.NewData(t, length, []*memory.Buffer{bitmap}, data, nulls, 0)
	for _, k := range kids {
		k.Release()
	}
	defer d.Release()
	return array.NewStructData(d)
}

// validity is the bitmap of node n's values starting at entries slots of
// its first leaf, nil when none is NULL.
func (r *nestedReader) validity(n *nestedNode, slots []int32) (*memory.Buffer, int) {
	defs := r.leaves[n.first].defs
	nulls := 0
	for _, s := range slots {
		if defs[s] < n.validDef {
			nulls++
		}
	}
	if nulls == 0 {
		return nil, 0
	}
	buf := zeroedBuffer(r.mem, int(bitutil.BytesForBits(int64(len(slots)))))
	bits := buf.Bytes()
	for k, s := range slots {
		if defs[s] >= n.validDef {
			bitutil.SetBit(bits, k)
		}
	}
	return buf, nulls
}
