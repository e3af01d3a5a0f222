package storage

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/compute"
	computeexec "github.com/apache/arrow-go/v18/arrow/compute/exec"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/parquet-go/parquet-go"
)

// CompareOp is the comparison of a ColumnPredicate.
type CompareOp int

const (
	OpEq CompareOp = iota // column = any of Values (IN when several)
	OpLt
	OpLe
	OpGt
	OpGe
)

// ColumnPredicate is a necessary condition on one integer-backed column
// (INT, LONG, DATE, TIMESTAMP as micro- or nanoseconds): a row can only be
// wanted when its value compares to Values[0] (for OpEq: equals one of
// Values). Rows whose value is NULL never match.
type ColumnPredicate struct {
	Col    int // position in the cols of ReadRowGroupFiltered
	Op     CompareOp
	Values []int64
}

// FilterableType reports whether ColumnPredicate can test columns of t.
func FilterableType(t arrow.DataType) bool {
	switch t.ID() {
	case arrow.INT32, arrow.INT64, arrow.DATE32, arrow.TIMESTAMP:
		return true
	}
	return false
}

// sparseFraction: late materialization only pays when at most 1/sparseFraction
// of a row group's rows survive the predicates; above, every column is
// decoded whole and the filter above the scan drops the rest.
const sparseFraction = 8

// ReadRowGroupFiltered is ReadRowGroup with late materialization: it decodes
// the predicates' columns first and, when few rows can match, decodes the
// other columns only at those rows. The rows it drops cannot satisfy preds;
// the rows it returns still need the query's filter. filtered reports
// whether rows were dropped (row positions then no longer follow the file).
func (f *ParquetFile) ReadRowGroupFiltered(ctx context.Context, rg int, cols []ReadColumn, preds []ColumnPredicate, batchSize int, mem memory.Allocator) (it RecordIterator, filtered bool, err error) {
	if len(preds) == 0 || rg < 0 || rg >= f.NumRowGroups() || batchSize <= 0 {
		it, err = f.ReadRowGroup(ctx, rg, cols, batchSize, mem)
		return it, false, err
	}
	numRows := int(f.RowGroupNumRows(rg))
	arrays := make([]arrow.Array, len(cols))
	release := func() {
		for _, a := range arrays {
			if a != nil {
				a.Release()
			}
		}
	}
	keep := make([]bool, numRows)
	for i := range keep {
		keep[i] = true
	}
	for _, p := range preds {
		if p.Col < 0 || p.Col >= len(cols) {
			release()
			return nil, false, fmt.Errorf("read row group %d of %s: predicate on column %d of %d", rg, f.path, p.Col, len(cols))
		}
		if arrays[p.Col] == nil {
			arr, err := f.readColumnChunk(ctx, rg, cols[p.Col], numRows, mem)
			if err != nil {
				release()
				return nil, false, err
			}
			arrays[p.Col] = arr
		}
		applyPredicate(arrays[p.Col], p, keep)
	}
	var runs [][2]int // [start, end) of kept rows
	kept := 0
	for i := 0; i < numRows; {
		if !keep[i] {
			i++
			continue
		}
		j := i + 1
		for j < numRows && keep[j] {
			j++
		}
		runs = append(runs, [2]int{i, j})
		kept += j - i
		i = j
	}
	fields := make([]arrow.Field, len(cols))
	for i, col := range cols {
		fields[i] = arrow.Field{Name: col.Name, Type: col.Type, Nullable: true}
	}
	if kept*sparseFraction > numRows {
		// Dense: decode the rest whole, as ReadRowGroup does.
		var rest []int
		for i := range cols {
			if arrays[i] == nil {
				rest = append(rest, i)
			}
		}
		err := f.eachColumn(rest, func(i int) error {
			var err error
			arrays[i], err = f.readColumnChunk(ctx, rg, cols[i], numRows, mem)
			return err
		})
		if err != nil {
			release()
			return nil, false, err
		}
		return &sliceIterator{schema: arrow.NewSchema(fields, nil), arrays: arrays, numRows: int64(numRows), batchSize: int64(batchSize)}, false, nil
	}
	var indices arrow.Array
	if kept > 0 {
		b := array.NewInt32Builder(mem)
		b.Reserve(kept)
		for _, r := range runs {
			for i := r[0]; i < r[1]; i++ {
				b.UnsafeAppend(int32(i))
			}
		}
		indices = b.NewArray()
		b.Release()
		defer indices.Release()
	}
	var rest []int
	for i, col := range cols {
		if arrays[i] == nil {
			rest = append(rest, i)
			continue
		}
		full := arrays[i]
		if kept == 0 {
			arrays[i] = array.MakeArrayOfNull(mem, col.Type, 0)
		} else {
			arrays[i], err = compute.TakeArray(computeexec.WithAllocator(ctx, mem), full, indices)
		}
		full.Release()
		if err != nil {
			arrays[i] = nil
			release()
			return nil, false, err
		}
	}
	err = f.eachColumn(rest, func(i int) error {
		var err error
		arrays[i], err = f.readColumnRuns(ctx, rg, cols[i], runs, kept, mem)
		return err
	})
	if err != nil {
		release()
		return nil, false, err
	}
	return &sliceIterator{schema: arrow.NewSchema(fields, nil), arrays: arrays, numRows: int64(kept), batchSize: int64(batchSize)}, true, nil
}

// readColumnRuns decodes the rows of a column chunk that fall in runs
// (sorted, disjoint [start, end) ranges holding kept rows in total).
func (f *ParquetFile) readColumnRuns(ctx context.Context, rg int, col ReadColumn, runs [][2]int, kept int, mem memory.Allocator) (arrow.Array, error) {
	c, err := f.column(col)
	if err != nil {
		return nil, err
	}
	if c == nil {
		return array.MakeArrayOfNull(mem, col.Type, kept), nil
	}
	if kept == 0 {
		return array.MakeArrayOfNull(mem, col.Type, 0), nil
	}
	dec, err := newColumnDecoder(c, col.Type, kept, mem)
	if err != nil {
		return nil, fmt.Errorf("read column %s of %s: %w", col.Name, f.path, err)
	}
	pages := f.file.RowGroups()[rg].ColumnChunks()[c.Index()].Pages()
	defer pages.Close()
	valid := newValidity(c, kept, mem)
	fail := func(err error) (arrow.Array, error) {
		valid.release()
		dec.release()
		return nil, fmt.Errorf("read column %s of %s: %w", col.Name, f.path, err)
	}
	row, out, ri := 0, 0, 0
	var sel []int32
	for ri < len(runs) {
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
		n := int(p.NumRows())
		sel = sel[:0]
		for ri < len(runs) && runs[ri][0] < row+n {
			s, e := max(runs[ri][0], row), min(runs[ri][1], row+n)
			for i := s; i < e; i++ {
				sel = append(sel, int32(i-row))
			}
			if runs[ri][1] > row+n {
				break // the run goes on in the next page
			}
			ri++
		}
		if len(sel) > 0 {
			if err := decodePageSelected(p, dec, valid, out, kept, sel); err != nil {
				parquet.Release(p)
				return fail(err)
			}
			out += len(sel)
		}
		row += n
		parquet.Release(p)
	}
	if out != kept {
		return fail(fmt.Errorf("column chunk has %d of the %d rows wanted", out, kept))
	}
	bitmap, nulls := valid.finish()
	return dec.finish(bitmap, nulls), nil
}

// applyPredicate clears keep[i] for the rows of arr that fail p.
func applyPredicate(arr arrow.Array, p ColumnPredicate, keep []bool) {
	switch a := arr.(type) {
	case *array.Int64:
		applyCompare(a.Int64Values(), arr, p, keep)
	case *array.Int32:
		applyCompare(a.Int32Values(), arr, p, keep)
	case *array.Date32:
		applyCompare(a.Date32Values(), arr, p, keep)
	case *array.Timestamp:
		applyCompare(a.TimestampValues(), arr, p, keep)
	}
	// Other types are not filtered (FilterableType keeps them out).
}

func applyCompare[T ~int32 | ~int64](vals []T, arr arrow.Array, p ColumnPredicate, keep []bool) {
	if len(p.Values) == 0 {
		return
	}
	nulls := arr.NullN() > 0
	v0 := p.Values[0]
	for i, x := range vals {
		if !keep[i] {
			continue
		}
		if nulls && arr.IsNull(i) {
			keep[i] = false
			continue
		}
		y := int64(x)
		var ok bool
		switch p.Op {
		case OpEq:
			ok = y == v0
			for _, v := range p.Values[1:] {
				ok = ok || y == v
			}
		case OpLt:
			ok = y < v0
		case OpLe:
			ok = y <= v0
		case OpGt:
			ok = y > v0
		case OpGe:
			ok = y >= v0
		default:
			ok = true
		}
		keep[i] = ok
	}
}
