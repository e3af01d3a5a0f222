package exec

import (
	"bytes"
	"math/bits"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/lakesql/lakesql/exec/expr"
)

// keyColumn stores one key column of a groupTable: a typed value per group,
// and the current batch's column while rows are being looked up.
type keyColumn interface {
	// load makes arr the current batch's column.
	load(arr arrow.Array)
	// hash mixes the current column's row hashes into h.
	hash(h []uint64)
	// hashAt is what hash mixes in for one row.
	hashAt(row int) uint64
	// equal reports whether the current column's row equals group g's key.
	equal(row int, g int32) bool
	// add appends the current column's row as a new group's key.
	add(row int)
	// build returns the groups' keys as an array.
	build(mem memory.Allocator) arrow.Array
}

// typedKeys is a keyColumn of values of type T. NULL is a key value of its
// own, equal to itself.
type typedKeys[T any] struct {
	e        elem[T]
	t        arrow.DataType
	cur      []T
	curValid []byte
	vals     []T
	valid    []bool
}

// nullHash stands for NULL in key hashes.
const nullHash = 0x9e3779b97f4a7c15

func (k *typedKeys[T]) load(arr arrow.Array) {
	k.cur, k.curValid = k.e.values(k.cur, arr), nullMask(arr)
}

func (k *typedKeys[T]) hash(h []uint64) {
	for i, v := range k.cur {
		x := uint64(nullHash)
		if isValid(k.curValid, i) {
			x = k.e.hash(v)
		}
		h[i] = mix(h[i] ^ x)
	}
}

func (k *typedKeys[T]) hashAt(row int) uint64 {
	if !isValid(k.curValid, row) {
		return nullHash
	}
	return k.e.hash(k.cur[row])
}

func (k *typedKeys[T]) equal(row int, g int32) bool {
	if !isValid(k.curValid, row) {
		return !k.valid[g]
	}
	return k.valid[g] && k.e.compare(k.cur[row], k.vals[g]) == 0
}

func (k *typedKeys[T]) add(row int) {
	k.vals = append(k.vals, k.e.own(k.cur[row]))
	k.valid = append(k.valid, isValid(k.curValid, row))
}

func (k *typedKeys[T]) build(mem memory.Allocator) arrow.Array {
	return k.e.build(mem, k.t, k.vals, k.valid)
}

// bytesKeys is the keyColumn of STRING, BINARY and UUID keys. Grouping is
// the hot loop of an aggregation, so it reads the current batch's offsets
// and data in place rather than through a slice per row, and tests keys
// for equality rather than order.
type bytesKeys struct {
	t        arrow.DataType
	cur      *expr.BytesVec
	curValid []byte
	// codes, when the current column is a Dictionary array, are its rows'
	// indexes into cur, the dictionary.
	codes []int32
	vals  [][]byte
	valid []bool
}

func newBytesKeys(t arrow.DataType) keyColumn { return &bytesKeys{t: t} }

func (k *bytesKeys) load(arr arrow.Array) {
	k.curValid, k.codes = nullMask(arr), nil
	if d, ok := arr.(*array.Dictionary); ok {
		// The scan's dictionary-encoded keys (dictionary_keys.go) that
		// insertCoded could not take: read through their codes.
		k.codes = d.Indices().(*array.Int32).Int32Values()
		arr = d.Dictionary()
		if arr.Len() == 0 {
			k.cur = nil // every row is NULL
			return
		}
	}
	k.cur = expr.ArrayBytes(expr.ExtensionStorage(arr))
}

// at is the current column's value at row.
func (k *bytesKeys) at(row int) []byte {
	if k.codes != nil {
		return k.cur.At(int(k.codes[row]))
	}
	return k.cur.At(row)
}

func (k *bytesKeys) hash(h []uint64) {
	for i := range h {
		h[i] = mix(h[i] ^ k.hashAt(i))
	}
}

func (k *bytesKeys) hashAt(row int) uint64 {
	if !isValid(k.curValid, row) {
		return nullHash
	}
	return hashBytes(k.at(row))
}

func (k *bytesKeys) equal(row int, g int32) bool {
	if !isValid(k.curValid, row) {
		return !k.valid[g]
	}
	return k.valid[g] && bytes.Equal(k.at(row), k.vals[g])
}

func (k *bytesKeys) add(row int) {
	valid := isValid(k.curValid, row)
	var v []byte
	if valid {
		v = bytes.Clone(k.at(row))
	}
	k.vals = append(k.vals, v)
	k.valid = append(k.valid, valid)
}

func (k *bytesKeys) build(mem memory.Allocator) arrow.Array {
	return buildBytes(mem, k.t, k.vals, k.valid)
}

// groupTable assigns dense group ids (0, 1, … in order of first appearance)
// to the distinct keys of its rows. Keys are hashed column by column in typed
// loops; an open-addressing table maps hashes to group ids. Memory grows
// with the number of groups, not of rows.
type groupTable struct {
	cols  []keyColumn
	coded codedGroups // rows of dictionary-encoded keys (insertCoded)
	// slots hold group id + 1 in their low 32 bits (0: empty) and the
	// group's hash's high 32 bits above, so a probe skips unequal keys
	// without a second random memory access.
	slots   []uint64
	hashes  []uint64 // per group, to rehash
	scratch []uint64
}

// newGroupTable returns a table for keys of the given column types.
func newGroupTable(types []arrow.DataType) (*groupTable, error) {
	g := &groupTable{slots: make([]uint64, 1024)}
	for _, t := range types {
		ops, err := opsOf(t)
		if err != nil {
			return nil, err
		}
		g.cols = append(g.cols, ops.newKeys(t))
	}
	return g, nil
}

// reserve makes room for n groups in an empty table.
func (g *groupTable) reserve(n int) {
	if len(g.hashes) > 0 {
		return
	}
	g.hashes = make([]uint64, 0, n)
	g.slots = make([]uint64, max(len(g.slots), 1<<bits.Len(uint(2*n))))
}

// len is the number of groups so far.
func (g *groupTable) len() int { return len(g.hashes) }

// insert looks up the key of every row of keys (one array per key column),
// adding new groups, and returns the rows' group ids in gids (reused when
// large enough).
func (g *groupTable) insert(keys []arrow.Array, gids []int32) []int32 {
	if coded, ok := g.insertCoded(keys, gids); ok {
		return coded
	}
	n := keys[0].Len()
	gids = grow(gids[:0], n)
	h := g.hashKeys(keys)
	for row := range n {
		// Rows of one key often come together (tables sorted or clustered
		// by it, as TPC-H's lineitem by l_orderkey): the previous row's
		// group is tried before the table.
		if row > 0 && h[row] == h[row-1] && g.equal(row, gids[row-1]) {
			gids[row] = gids[row-1]
			continue
		}
		gids[row] = g.find(row, h[row])
	}
	return gids
}

// hashKeys makes keys (one array per key column) the current rows and
// returns their hashes, valid until the table's next use.
func (g *groupTable) hashKeys(keys []arrow.Array) []uint64 {
	g.scratch = grow(g.scratch[:0], keys[0].Len())
	h := g.scratch
	clear(h)
	for c, col := range g.cols {
		col.load(keys[c])
		col.hash(h)
	}
	return h
}

// load makes keys (one array per key column) the current rows, for
// hashRow, without hashing them.
func (g *groupTable) load(keys []arrow.Array) {
	for c, col := range g.cols {
		col.load(keys[c])
	}
}

// hashRow is the hash hashKeys gives row of the current rows.
func (g *groupTable) hashRow(row int) uint64 {
	var h uint64
	for _, col := range g.cols {
		h = mix(h ^ col.hashAt(row))
	}
	return h
}

// find returns the group of row, whose key hashes to h, adding it if new.
func (g *groupTable) find(row int, h uint64) int32 {
	id, pos := g.probe(row, h)
	if id < 0 {
		return g.add(row, h, pos)
	}
	return id
}

// probe returns the group of row, whose key hashes to h, or -1 and the
// empty slot where it would go.
func (g *groupTable) probe(row int, h uint64) (int32, uint64) {
	mask := uint64(len(g.slots) - 1)
	tag := h &^ 0xffffffff
	for pos := h & mask; ; pos = (pos + 1) & mask {
		slot := g.slots[pos]
		if slot == 0 {
			return -1, pos
		}
		if id := int32(slot) - 1; slot&^0xffffffff == tag && g.equal(row, id) {
			return id, pos
		}
	}
}

// lookup is insert without adding groups: a row whose key the table does
// not hold gets group -1. It also returns the rows' key hashes, valid until
// the table's next use.
func (g *groupTable) lookup(keys []arrow.Array, gids []int32) ([]int32, []uint64) {
	n := keys[0].Len()
	gids = grow(gids[:0], n)
	h := g.hashKeys(keys)
	for row := range n {
		gids[row], _ = g.probe(row, h[row])
	}
	return gids, h
}

// slotOf is the slot value of group id with hash h.
func slotOf(id int, h uint64) uint64 { return h&^0xffffffff | uint64(id+1) }

func (g *groupTable) equal(row int, id int32) bool {
	for _, col := range g.cols {
		if !col.equal(row, id) {
			return false
		}
	}
	return true
}

func (g *groupTable) add(row int, h uint64, pos uint64) int32 {
	id := int32(len(g.hashes))
	for _, col := range g.cols {
		col.add(row)
	}
	g.hashes = append(g.hashes, h)
	g.slots[pos] = slotOf(int(id), h)
	if 2*len(g.hashes) > len(g.slots) {
		g.rehash()
	}
	return id
}

// rehash doubles the slots, keeping the load factor at most one half so
// that probe sequences stay short.
func (g *groupTable) rehash() {
	g.slots = make([]uint64, 2*len(g.slots))
	mask := uint64(len(g.slots) - 1)
	for id, h := range g.hashes {
		pos := h & mask
		for g.slots[pos] != 0 {
			pos = (pos + 1) & mask
		}
		g.slots[pos] = slotOf(id, h)
	}
}

// build returns the key columns, one value per group.
func (g *groupTable) build(mem memory.Allocator) []arrow.Array {
	out := make([]arrow.Array, len(g.cols))
	for i, col := range g.cols {
		out[i] = col.build(mem)
	}
	return out
}
