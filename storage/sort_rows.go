package storage

import (
	"context"
	"fmt"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/compute"
	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/table"
)

// sortKey is one field of a table's sort order, resolved to a column.
type sortKey struct {
	col        int
	transform  iceberg.Transform
	descending bool
	nullsFirst bool
}

// sortKeysOf resolves a table sort order against the written columns.
func sortKeysOf(order table.SortOrder, schema *iceberg.Schema) ([]sortKey, error) {
	var keys []sortKey
	fields := schema.Fields()
	for _, f := range order.Fields() {
		col := slices.IndexFunc(fields, func(c iceberg.NestedField) bool { return c.ID == f.SourceID() })
		if col < 0 {
			return nil, fmt.Errorf("sort order field %d is not a column of the table", f.SourceID())
		}
		keys = append(keys, sortKey{col: col, transform: f.Transform,
			descending: f.Direction == table.SortDESC, nullsFirst: f.NullOrder == table.NullsFirst})
	}
	return keys, nil
}

// sortColumn holds one sort key's values for every row of a batch: integer
// keys where the transform is plain arithmetic (fastKeys), Iceberg literals
// otherwise (nil for NULL).
type sortColumn struct {
	key   sortKey
	ints  []int64
	valid arrow.Array // validity of ints' rows
	lits  []iceberg.Literal
}

func (c *sortColumn) compare(a, b int) int {
	var an, bn bool
	if c.ints != nil {
		an, bn = c.valid.IsNull(a), c.valid.IsNull(b)
	} else {
		an, bn = c.lits[a] == nil, c.lits[b] == nil
	}
	switch {
	case an && bn:
		return 0
	case an != bn:
		if an == c.key.nullsFirst {
			return -1
		}
		return 1
	}
	var r int
	if c.ints != nil {
		r = cmpOrdered(c.ints[a], c.ints[b])
	} else {
		r, _ = compareLiterals(c.lits[a], c.lits[b])
	}
	if c.key.descending {
		r = -r
	}
	return r
}

// sortRows returns batch ordered by keys (stable); the caller releases both.
func sortRows(ctx context.Context, batch arrow.RecordBatch, keys []sortKey) (arrow.RecordBatch, error) {
	n := int(batch.NumRows())
	cols := make([]sortColumn, len(keys))
	for i, k := range keys {
		src := batch.Column(k.col)
		cols[i].key = k
		if ints, ok := fastKeys(k.transform, src); ok {
			cols[i].ints, cols[i].valid = ints, src
			continue
		}
		cols[i].lits = make([]iceberg.Literal, n)
		for row := range n {
			lit, err := LiteralAt(src, row)
			if err != nil {
				return nil, fmt.Errorf("sort rows: %w", err)
			}
			if lit == nil {
				continue
			}
			out := k.transform.Apply(iceberg.Optional[iceberg.Literal]{Valid: true, Val: lit})
			if out.Valid {
				cols[i].lits[row] = out.Val
			}
		}
	}
	perm := make([]int64, n)
	for i := range perm {
		perm[i] = int64(i)
	}
	slices.SortStableFunc(perm, func(a, b int64) int {
		for i := range cols {
			if r := cols[i].compare(int(a), int(b)); r != 0 {
				return r
			}
		}
		return 0
	})
	idx := array.NewInt64Builder(compute.GetAllocator(ctx))
	defer idx.Release()
	idx.AppendValues(perm, nil)
	indices := idx.NewArray()
	defer indices.Release()
	out, err := compute.TakeArray(ctx, array.NewStructData(array.RecordToStructArray(batch).Data()), indices)
	if err != nil {
		return nil, fmt.Errorf("sort rows: %w", err)
	}
	defer out.Release()
	return array.RecordFromStructArray(out.(*array.Struct), batch.Schema()), nil
}
