package exec

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// codedGroups numbers the rows of batches whose key columns are all
// Dictionary arrays (the scan's dictionary-encoded string keys, see
// dictionary_keys.go) without reading their strings: a row's codes, one
// per key column, index a table of group ids built for the batch's
// dictionaries. Each combination of codes is looked up in the groupTable
// once, at its first row; every other row is an array lookup. The batches
// of one Parquet column chunk share its dictionary, so the table is kept
// until a batch brings other dictionaries (the next chunk).
type codedGroups struct {
	// dicts are the dictionaries the table is for, one per key column,
	// held so that no other dictionary can take their address.
	dicts []arrow.ArrayData
	// sizes are each key column's number of codes: its dictionary's
	// length, plus one code that stands for NULL.
	sizes []int32
	// gids is the group of each combination of codes, -1 until its first
	// row; combination = ((c0·size1 + c1)·size2 + c2)….
	gids  []int32
	combo []int32 // scratch: each row's combination
}

// maxCodeCombinations bounds the table of a batch's dictionaries (256 KiB
// of group ids): beyond it, as with millions of distinct keys in a chunk,
// rows take the groupTable's general path, which reads dictionary keys
// through their codes.
const maxCodeCombinations = 1 << 16

// insertCoded is insert for a batch whose key columns are all Dictionary
// arrays with int32 codes whose combinations are few; ok is false for any
// other batch, which the caller then numbers row by row.
func (g *groupTable) insertCoded(keys []arrow.Array, gids []int32) (_ []int32, ok bool) {
	c := &g.coded
	if !c.prepare(keys) {
		return gids, false
	}
	combo := c.combinations(keys)
	gids = grow(gids[:0], len(combo))
	loaded := false // the key columns are read only for new combinations
	for row, k := range combo {
		id := c.gids[k]
		if id < 0 {
			if !loaded {
				g.load(keys)
				loaded = true
			}
			id = g.find(row, g.hashRow(row))
			c.gids[k] = id
		}
		gids[row] = id
	}
	return gids, true
}

// prepare makes the table the one for keys' dictionaries, reporting false
// when keys are not all dictionary arrays or have too many combinations.
func (c *codedGroups) prepare(keys []arrow.Array) bool {
	same := len(c.dicts) == len(keys)
	for i, k := range keys {
		d, ok := k.(*array.Dictionary)
		if !ok || d.DataType().(*arrow.DictionaryType).IndexType.ID() != arrow.INT32 {
			return false
		}
		same = same && c.dicts[i] == d.Data().Dictionary()
	}
	if same {
		return true
	}
	c.dicts, c.sizes = c.dicts[:0], c.sizes[:0]
	total := 1
	for _, k := range keys {
		dict := k.Data().Dictionary()
		size := dict.Len() + 1
		if total *= size; total > maxCodeCombinations {
			c.dicts = c.dicts[:0] // the next batch checks again
			return false
		}
		c.dicts = append(c.dicts, dict)
		c.sizes = append(c.sizes, int32(size))
	}
	c.gids = grow(c.gids[:0], total)[:total]
	for i := range c.gids {
		c.gids[i] = -1
	}
	return true
}

// combinations computes each row's combination of codes, column by column.
func (c *codedGroups) combinations(keys []arrow.Array) []int32 {
	n := keys[0].Len()
	c.combo = grow(c.combo[:0], n)[:n]
	combo := c.combo
	for i, k := range keys {
		codes := k.(*array.Dictionary).Indices().(*array.Int32).Int32Values()
		size, null := c.sizes[i], c.sizes[i]-1
		valid := nullMask(k)
		if i == 0 {
			size = 0 // the first column starts the combinations
		}
		if valid == nil {
			for r, code := range codes {
				combo[r] = combo[r]*size + code
			}
			continue
		}
		for r, code := range codes {
			if !isValid(valid, r) {
				code = null
			}
			combo[r] = combo[r]*size + code
		}
	}
	return combo
}
