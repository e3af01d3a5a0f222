package exec

import (
	"fmt"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
)

// maxRowInColumns bounds the items of a row value compared with an IN
// subquery: a row's NULL columns are one bit each of a uint64.
const maxRowInColumns = 64

// rowSet holds the rows of the subquery of (a, b, …) IN (SELECT c, d, …)
// for the standard's row equality with three-valued logic, as row values
// compare elsewhere (planner/bind_row_value.go): a row equals x when every
// pair is equal, differs when some pair differs, and is unknown otherwise
// (a NULL on either side, no pair differing). x IN (…) is TRUE when some
// row equals x, looked up among the rows without NULLs on every column;
// else NULL when some row is unknown; else FALSE. A row with NULLs in the
// columns mr is unknown against an x with NULLs in mx exactly when the
// columns NULL in neither are equal: it is looked up in a table of the
// rows with NULLs in mr keyed on those columns, built when first needed.
type rowSet struct {
	width int
	rows  int
	// columns[b][c] encodes column c of the rows of batch b (the batch
	// itself may be reused by the operator that made it); a row's key on
	// some columns is their encodings one after the other, as encodeKeys
	// makes it.
	columns [][]*rowKeys
	masks   [][]uint64 // masks[b][r] has a bit set for each NULL column of row r of batch b
	groups  []uint64   // the distinct masks of the rows
	full    *keyTable  // the rows without NULLs, on every column
	partial map[[2]uint64]*keyTable
}

// rowMatch is x IN (…) for one row: FALSE, TRUE or NULL.
type rowMatch uint8

const (
	rowAbsent rowMatch = iota
	rowFound
	rowUnknown
)

func newRowSet(width int) (*rowSet, error) {
	if width > maxRowInColumns {
		return nil, fmt.Errorf("IN compares a row value of %d items; at most %d are supported", width, maxRowInColumns)
	}
	return &rowSet{width: width, full: newKeyTable(), partial: map[[2]uint64]*keyTable{}}, nil
}

// add takes in a batch of the subquery's rows.
func (s *rowSet) add(batch arrow.RecordBatch) error {
	n := int(batch.NumRows())
	if n == 0 {
		return nil
	}
	masks := nullMasks(batch.Columns(), n)
	columns := make([]*rowKeys, s.width)
	for c, col := range batch.Columns() {
		keys, err := encodeKeys([]arrow.Array{col}, n)
		if err != nil {
			return err
		}
		columns[c] = keys
	}
	for r, m := range masks {
		if m == 0 {
			s.full.insert(joinedKey(nil, columns, 0, r))
		}
		if !slices.Contains(s.groups, m) {
			s.groups = append(s.groups, m)
		}
	}
	s.columns = append(s.columns, columns)
	s.masks = append(s.masks, masks)
	s.rows += n
	return nil
}

// joinedKey appends to buf the key of row r on the columns outside u.
func joinedKey(buf []byte, columns []*rowKeys, u uint64, r int) []byte {
	for c, keys := range columns {
		if u&(1<<c) == 0 {
			buf = append(buf, keys.key(r)...)
		}
	}
	return buf
}

// match looks up each row of the operands xs (n rows).
func (s *rowSet) match(xs []arrow.Array, n int) ([]rowMatch, error) {
	out := make([]rowMatch, n)
	if s.rows == 0 {
		return out, nil
	}
	probe := map[uint64]*rowKeys{} // the operands' keys without the columns of a mask
	keysWithout := func(u uint64) (*rowKeys, error) {
		k, ok := probe[u]
		if !ok {
			var err error
			if k, err = encodeKeys(columnsOutside(xs, u), n); err != nil {
				return nil, err
			}
			probe[u] = k
		}
		return k, nil
	}
	for r, mx := range nullMasks(xs, n) {
		if mx == 0 {
			k, err := keysWithout(0)
			if err != nil {
				return nil, err
			}
			if s.full.find(k.key(r)) >= 0 {
				out[r] = rowFound
				continue
			}
		}
		for _, mr := range s.groups {
			if mr == 0 && mx == 0 {
				continue // the exact lookup above
			}
			t := s.table(mr, mx|mr)
			k, err := keysWithout(mx | mr)
			if err != nil {
				return nil, err
			}
			if t.find(k.key(r)) >= 0 {
				out[r] = rowUnknown
				break
			}
		}
	}
	return out, nil
}

// table returns the keys, on the columns outside u, of the rows whose NULL
// columns are mr.
func (s *rowSet) table(mr, u uint64) *keyTable {
	if t, ok := s.partial[[2]uint64{mr, u}]; ok {
		return t
	}
	t := newKeyTable()
	var buf []byte
	for b, columns := range s.columns {
		for r, m := range s.masks[b] {
			if m == mr {
				buf = joinedKey(buf[:0], columns, u, r)
				t.insert(buf)
			}
		}
	}
	s.partial[[2]uint64{mr, u}] = t
	return t
}

// nullMasks returns, for each of the n rows of cols, a bit per NULL column.
func nullMasks(cols []arrow.Array, n int) []uint64 {
	masks := make([]uint64, n)
	for c, col := range cols {
		valid := nullsOf(col)
		if valid.bits == nil {
			continue
		}
		for r := range masks {
			if valid.isNull(r) {
				masks[r] |= 1 << c
			}
		}
	}
	return masks
}

// columnsOutside returns the columns of cols whose bit is not set in u.
func columnsOutside(cols []arrow.Array, u uint64) []arrow.Array {
	var out []arrow.Array
	for c, col := range cols {
		if u&(1<<c) == 0 {
			out = append(out, col)
		}
	}
	return out
}
