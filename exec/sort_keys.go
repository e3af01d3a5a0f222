package exec

import (
	"context"
	"fmt"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakesql/lakesql/exec/expr"
	"github.com/lakesql/lakesql/planner"
)

// rowOrder compares row i of one set of key columns with row j of another
// (or the same) by the sort keys: negative when row i sorts first.
type rowOrder func(i, j int) int

// newRowOrder builds the comparator of rows of keysA against rows of keysB,
// each holding one column per sort key, with typed per-column comparisons.
func newRowOrder(keys []planner.SortKey, keysA, keysB []arrow.Array) (rowOrder, error) {
	cmps := make([]rowOrder, len(keys))
	for k, key := range keys {
		ops, err := opsOf(keysA[k].DataType())
		if err != nil {
			return nil, fmt.Errorf("ORDER BY %s: %w", key.Expr, err)
		}
		cmps[k] = withNulls(ops.comparator(keysA[k], keysB[k]), nullMask(keysA[k]), nullMask(keysB[k]), key)
	}
	if len(cmps) == 1 {
		return cmps[0], nil
	}
	return func(i, j int) int {
		for _, c := range cmps {
			if r := c(i, j); r != 0 {
				return r
			}
		}
		return 0
	}, nil
}

// withNulls adds the key's direction and NULL placement to a value comparison.
func withNulls(values func(i, j int) int, validA, validB []byte, key planner.SortKey) rowOrder {
	nullFirst := 1
	if key.NullsFirst {
		nullFirst = -1
	}
	sign := 1
	if key.Desc {
		sign = -1
	}
	return func(i, j int) int {
		a, b := isValid(validA, i), isValid(validB, j)
		switch {
		case a && b:
			return sign * values(i, j)
		case a:
			return -nullFirst
		case b:
			return nullFirst
		}
		return 0
	}
}

// evalSortKeys evaluates the sort key expressions over batch.
func evalSortKeys(ctx context.Context, keys []planner.SortKey, batch arrow.RecordBatch, mem memory.Allocator) ([]arrow.Array, error) {
	cols := make([]arrow.Array, len(keys))
	for i, k := range keys {
		col, err := expr.Eval(ctx, k.Expr, batch, mem)
		if err != nil {
			expr.ReleaseArrays(cols)
			return nil, fmt.Errorf("ORDER BY %s: %w", k.Expr, err)
		}
		cols[i] = col
	}
	return cols, nil
}

// sortedRows returns the permutation that sorts batch by keys; rows with
// equal keys keep their order.
func sortedRows(ctx context.Context, keys []planner.SortKey, batch arrow.RecordBatch, mem memory.Allocator) ([]int32, error) {
	cols, err := evalSortKeys(ctx, keys, batch, mem)
	if err != nil {
		return nil, err
	}
	defer expr.ReleaseArrays(cols)
	order, err := newRowOrder(keys, cols, cols)
	if err != nil {
		return nil, err
	}
	perm := make([]int32, batch.NumRows())
	for i := range perm {
		perm[i] = int32(i)
	}
	slices.SortStableFunc(perm, func(a, b int32) int { return order(int(a), int(b)) })
	return perm, nil
}

// gatherRows returns the rows of batch at idx, in that order.
func gatherRows(ctx context.Context, batch arrow.RecordBatch, idx []int32) (arrow.RecordBatch, error) {
	cols := make([]arrow.Array, batch.NumCols())
	defer expr.ReleaseArrays(cols)
	for c := range cols {
		col, err := expr.Take(ctx, allocator(ctx), batch.Column(c), idx)
		if err != nil {
			return nil, err
		}
		cols[c] = col
	}
	return array.NewRecordBatch(batch.Schema(), cols, int64(len(idx))), nil
}

// concatBatches concatenates batches of one schema into one batch.
func concatBatches(mem memory.Allocator, schema *arrow.Schema, batches []arrow.RecordBatch) (arrow.RecordBatch, error) {
	cols := make([]arrow.Array, schema.NumFields())
	defer expr.ReleaseArrays(cols)
	rows := int64(0)
	for _, b := range batches {
		rows += b.NumRows()
	}
	for c := range cols {
		if len(batches) == 0 { // an empty input, e.g. no groups to sort
			cols[c] = expr.NullArray(mem, schema.Field(c).Type, 0)
			continue
		}
		parts := make([]arrow.Array, len(batches))
		for i, b := range batches {
			parts[i] = b.Column(c)
		}
		col, err := array.Concatenate(parts, mem)
		if err != nil {
			return nil, err
		}
		cols[c] = col
	}
	return array.NewRecordBatch(schema, cols, rows), nil
}

func releaseBatches(batches []arrow.RecordBatch) {
	for _, b := range batches {
		if b != nil {
			b.Release()
		}
	}
}
