package storage

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"sort"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/compute"
	computeexec "github.com/apache/arrow-go/v18/arrow/compute/exec"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
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
// (INT, LONG, DATE, TIMESTAMP as micro- or nanoseconds, DECIMAL of at most
// 18 digits as its unscaled value): a row can only be
// wanted when its value compares to Values[0] (for OpEq: equals one of
// Values). On a STRING column, Strings replaces Values: the value equals
// one of them (Op is OpEq). Rows whose value is NULL never match.
type ColumnPredicate struct {
	Col     int // position in the cols of ReadRowGroupFiltered
	Op      CompareOp
	Values  []int64
	Strings []string
	// in is the set of Values when NewInPredicate made p: built once,
	// not per row group.
	in *intSet
}

// NewInPredicate is col IN (values) for long lists of values (a join's
// build keys, in any order, repeats allowed), looked up in a set built
// once.
func NewInPredicate(col int, values []int64) ColumnPredicate {
	p := ColumnPredicate{Col: col, Op: OpEq, Values: values}
	if len(values) > 0 {
		in := newIntSet(values)
		p.in = &in
	}
	return p
}

// FilterableType reports whether ColumnPredicate can test columns of t.
func FilterableType(t arrow.DataType) bool {
	switch t.ID() {
	case arrow.INT32, arrow.INT64, arrow.DATE32, arrow.TIMESTAMP:
		return true
	case arrow.DECIMAL128:
		return t.(*arrow.Decimal128Type).Precision <= maxInt64Digits
	}
	return false
}

// maxInt64Digits is the most decimal digits an unscaled value stored in an
// int64 can have.
const maxInt64Digits = 18

// sparseFraction: late materialization only pays when at most 1/sparseFraction
// of a row group's rows survive the predicates; above, every column is
// decoded whole and the filter above the scan drops the rest.
const sparseFraction = 8

// ReadRowGroupFiltered is ReadRowGroup restricted to the rows that can
// match. ranges (from RowRanges; nil: every row) are the rows the page index
// keeps: pages outside them are not decoded. Within them, late
// materialization decodes the predicates' columns first and, when few rows
// can match, decodes the other columns only at those rows. The rows it
// drops cannot satisfy preds or the filter RowRanges was given; the rows it
// returns still need the query's filter. filtered reports whether rows were
// dropped (row positions then no longer follow the file).
func (f *ParquetFile) ReadRowGroupFiltered(ctx context.Context, rg int, cols []ReadColumn, ranges []RowRange, preds []ColumnPredicate, batchSize int, mem memory.Allocator) (it RecordIterator, filtered bool, err error) {
	if (len(preds) == 0 && ranges == nil) || rg < 0 || rg >= f.NumRowGroups() || batchSize <= 0 {
		it, err = f.ReadRowGroup(ctx, rg, cols, batchSize, mem)
		return it, false, err
	}
	releaseChunks, err := f.prefetchChunks(rg, cols)
	defer releaseChunks()
	if err != nil {
		return nil, false, err
	}
	numRows := int(f.RowGroupNumRows(rg))
	scope := ranges
	if scope == nil {
		scope = []RowRange{{0, numRows}}
	}
	inScope := 0
	for _, r := range scope {
		inScope += r.End - r.Start
	}
	arrays := make([]arrow.Array, len(cols))
	release := func() {
		for _, a := range arrays {
			if a != nil {
				a.Release()
			}
		}
	}
	// readScope decodes column i at the rows of scope; a predicate's
	// column as its unscaled integers when it is a decimal stored as
	// INT32 or INT64 (unscaled[i] is then set): the predicate compares
	// those, and only the kept rows are widened to 16-byte decimals.
	// A STRING predicate's column is read as dictionary codes (coded[i]):
	// the predicate tests each dictionary value once, and only the kept
	// rows are turned into strings.
	unscaled, coded := make([]bool, len(cols)), make([]bool, len(cols))
	readScope := func(i int) error {
		col := cols[i]
		if slices.ContainsFunc(preds, func(p ColumnPredicate) bool { return p.Col == i }) && f.unscaledDecimal(col) {
			col.Type, unscaled[i] = arrow.PrimitiveTypes.Int64, true
		}
		if slices.ContainsFunc(preds, func(p ColumnPredicate) bool { return p.Col == i && len(p.Strings) > 0 }) && !col.Dictionary {
			col.Dictionary, coded[i] = true, true
		}
		var err error
		if ranges == nil {
			arrays[i], err = f.readColumnChunk(ctx, rg, col, numRows, mem)
		} else {
			arrays[i], err = f.readColumnRuns(ctx, rg, col, scope, inScope, mem)
		}
		return err
	}
	// widen turns the unscaled and coded columns into the decimals and
	// strings the caller wants.
	widen := func() {
		for i, u := range unscaled {
			if u {
				unscaledArr := arrays[i]
				arrays[i] = decimalsFromUnscaled(unscaledArr.(*array.Int64), cols[i].Type.(*arrow.Decimal128Type), mem)
				unscaledArr.Release()
			}
		}
		for i, c := range coded {
			if d, ok := arrays[i].(*array.Dictionary); ok && c {
				arrays[i] = DictionaryValues(d, mem)
				d.Release()
			}
		}
	}
	keep := make([]bool, inScope)
	for i := range keep {
		keep[i] = true
	}
	for _, p := range preds {
		if p.Col < 0 || p.Col >= len(cols) {
			release()
			return nil, false, fmt.Errorf("read row group %d of %s: predicate on column %d of %d", rg, f.path, p.Col, len(cols))
		}
		if arrays[p.Col] == nil {
			if len(p.Strings) > 0 && sparse(keep) {
				// Few rows are left: decoding every string to drop
				// some of them costs more than decoding the column at
				// those rows, and the query's filter tests them there.
				continue
			}
			if err := readScope(p.Col); err != nil {
				release()
				return nil, false, err
			}
		}
		applyPredicate(arrays[p.Col], p, keep)
	}
	// runs are the kept rows of the row group; kept positions index scope.
	// A run starts at a kept row after a dropped one: counting those
	// sizes runs at once.
	starts := 0
	for i, k := range keep {
		if k && (i == 0 || !keep[i-1]) {
			starts++
		}
	}
	runs := make([]RowRange, 0, starts+len(scope))
	kept, pos := 0, 0
	for _, r := range scope {
		for i := r.Start; i < r.End; {
			if !keep[pos+i-r.Start] {
				i++
				continue
			}
			j := i + 1
			for j < r.End && keep[pos+j-r.Start] {
				j++
			}
			runs = append(runs, RowRange{i, j})
			kept += j - i
			i = j
		}
		pos += r.End - r.Start
	}
	var rest []int
	for i := range cols {
		if arrays[i] == nil {
			rest = append(rest, i)
		}
	}
	if kept*sparseFraction > inScope {
		// Dense: decode the rest at every row of scope; the filter above
		// drops the others.
		if err := f.eachColumn(rest, readScope); err != nil {
			release()
			return nil, false, err
		}
		widen()
		return &sliceIterator{schema: arraysSchema(cols, arrays), arrays: arrays, numRows: int64(inScope), batchSize: int64(batchSize)}, inScope < numRows, nil
	}
	var indices arrow.Array
	if kept > 0 {
		b := array.NewInt32Builder(mem)
		b.Reserve(kept)
		for i, k := range keep {
			if k {
				b.UnsafeAppend(int32(i))
			}
		}
		indices = b.NewArray()
		b.Release()
		defer indices.Release()
	}
	for i := range cols {
		if arrays[i] == nil {
			continue
		}
		full := arrays[i]
		if kept == 0 {
			arrays[i] = array.MakeArrayOfNull(mem, full.DataType(), 0)
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
	widen()
	return &sliceIterator{schema: arraysSchema(cols, arrays), arrays: arrays, numRows: int64(kept), batchSize: int64(batchSize)}, true, nil
}

// readColumnRuns decodes the rows of a column chunk that fall in runs
// (sorted, disjoint ranges holding kept rows in total). With an offset
// index, pages holding none of those rows are skipped unread.
func (f *ParquetFile) readColumnRuns(ctx context.Context, rg int, col ReadColumn, runs []RowRange, kept int, mem memory.Allocator) (arrow.Array, error) {
	c, err := f.column(col)
	if err != nil {
		return nil, err
	}
	if c == nil {
		return missingColumn(col, kept, mem)
	}
	if kept == 0 {
		return array.MakeArrayOfNull(mem, col.Type, 0), nil
	}
	if nestedColumn(c, col.Type) {
		// Record assembly needs whole pages of levels: the chunk is read
		// whole and the runs' rows taken from it.
		return f.takeRuns(ctx, rg, col, runs, kept, mem)
	}
	dec, err := f.newChunkDecoder(rg, c, col, kept, mem)
	if err != nil {
		return nil, fmt.Errorf("read column %s of %s: %w", col.Name, f.path, err)
	}
	chunk := f.file.RowGroups()[rg].ColumnChunks()[c.Index()]
	firsts := pageFirstRows(chunk)
	pages := chunk.Pages()
	defer pages.Close()
	valid := newValidity(c, kept, mem)
	fail := func(err error) (arrow.Array, error) {
		valid.release()
		dec.release()
		return nil, fmt.Errorf("read column %s of %s: %w", col.Name, f.path, err)
	}
	row, out, ri, read := 0, 0, 0, 0
	var sel []int32
	for ri < len(runs) {
		if err := ctx.Err(); err != nil {
			return fail(err)
		}
		if firsts != nil {
			// Jump to the page holding the next wanted row.
			j := max(0, sort.Search(len(firsts), func(j int) bool { return firsts[j] > runs[ri].Start })-1)
			if firsts[j] > row {
				if err := pages.SeekToRow(int64(firsts[j])); err != nil {
					return fail(err)
				}
				row = firsts[j]
			}
		}
		p, err := pages.ReadPage()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return fail(err)
		}
		read++
		n := int(p.NumRows())
		wanted, next := rowsInPage(runs, ri, row, n)
		switch {
		case wanted == n:
			err = decodePage(p, dec, valid, out, kept)
		case wanted > 0:
			sel = pageOffsets(sel[:0], runs[ri:min(next+1, len(runs))], row, n)
			err = decodePageSelected(p, dec, valid, out, kept, sel)
		}
		parquet.Release(p)
		if err != nil {
			return fail(err)
		}
		out += wanted
		row += n
		ri = next
	}
	f.countPages(max(len(firsts), read), read)
	if out != kept {
		return fail(fmt.Errorf("column chunk has %d of the %d rows wanted", out, kept))
	}
	bitmap, nulls := valid.finish()
	return dec.finish(bitmap, nulls), nil
}

// rowsInPage counts the rows of the page [row, row+n) that runs, from
// runs[ri] on, select, and returns the index of the first run the page does
// not finish.
func rowsInPage(runs []RowRange, ri, row, n int) (wanted, next int) {
	for next = ri; next < len(runs) && runs[next].Start < row+n; next++ {
		wanted += min(runs[next].End, row+n) - max(runs[next].Start, row)
		if runs[next].End > row+n {
			break // the run goes on in the next page
		}
	}
	return wanted, next
}

// pageOffsets appends to sel the offsets in the page [row, row+n) of the
// rows that runs select. A page the runs cover whole is decoded without
// them.
func pageOffsets(sel []int32, runs []RowRange, row, n int) []int32 {
	for _, r := range runs {
		for i := max(r.Start, row); i < min(r.End, row+n); i++ {
			sel = append(sel, int32(i-row))
		}
	}
	return sel
}

// takeRuns reads a whole column chunk and keeps the rows of runs.
func (f *ParquetFile) takeRuns(ctx context.Context, rg int, col ReadColumn, runs []RowRange, kept int, mem memory.Allocator) (arrow.Array, error) {
	full, err := f.readColumnChunk(ctx, rg, col, int(f.RowGroupNumRows(rg)), mem)
	if err != nil {
		return nil, err
	}
	defer full.Release()
	b := array.NewInt32Builder(mem)
	defer b.Release()
	b.Reserve(kept)
	for _, r := range runs {
		for i := r.Start; i < r.End; i++ {
			b.UnsafeAppend(int32(i))
		}
	}
	indices := b.NewArray()
	defer indices.Release()
	return compute.TakeArray(computeexec.WithAllocator(ctx, mem), full, indices)
}

// pageFirstRows returns the first row of each page of a chunk from its
// offset index (loading it lets the page reader seek), or nil without one.
func pageFirstRows(chunk parquet.ColumnChunk) []int {
	fc, ok := chunk.(*parquet.FileColumnChunk)
	if !ok {
		return nil
	}
	oi, err := fc.OffsetIndex()
	if err != nil || oi.NumPages() == 0 {
		return nil
	}
	firsts := make([]int, oi.NumPages())
	for j := range firsts {
		firsts[j] = int(oi.FirstRowIndex(j))
	}
	if firsts[0] != 0 || !slices.IsSorted(firsts) {
		return nil
	}
	return firsts
}

// sparse reports whether at most 1/sparseFraction of keep is set, when
// late materialization decodes the other columns only at the kept rows.
func sparse(keep []bool) bool {
	kept := 0
	for _, k := range keep {
		if k {
			kept++
		}
	}
	return kept*sparseFraction <= len(keep)
}

// unscaledDecimal reports whether col is a DECIMAL the file stores as INT32
// or INT64, whose unscaled values a ColumnPredicate compares directly.
func (f *ParquetFile) unscaledDecimal(col ReadColumn) bool {
	if _, ok := col.Type.(*arrow.Decimal128Type); !ok {
		return false
	}
	c, err := f.column(col)
	if err != nil || c == nil || !c.Leaf() {
		return false
	}
	_, _, isDecimal := fileDecimal(c)
	kind := c.Type().Kind()
	return isDecimal && (kind == parquet.Int32 || kind == parquet.Int64)
}

// decimalsFromUnscaled is unscaled as decimals of type t, NULLs kept.
func decimalsFromUnscaled(unscaled *array.Int64, t *arrow.Decimal128Type, mem memory.Allocator) arrow.Array {
	n := unscaled.Len()
	buf := memory.NewResizableBuffer(mem)
	buf.Resize(n * arrow.Decimal128SizeBytes)
	nums := arrow.Decimal128Traits.CastFromBytes(buf.Bytes())
	for i, v := range unscaled.Int64Values() {
		nums[i] = decimal128.FromI64(v)
	}
	var validity *memory.Buffer
	if unscaled.NullN() > 0 {
		validity = memory.NewResizableBuffer(mem)
		validity.Resize(int(bitutil.BytesForBits(int64(n))))
		bitutil.CopyBitmap(unscaled.NullBitmapBytes(), unscaled.Data().Offset(), n, validity.Bytes(), 0)
		defer validity.Release()
	}
	data := array.NewData(t, n, []*memory.Buffer{validity, buf}, nil, unscaled.NullN(), 0)
	defer data.Release()
	buf.Release()
	return array.MakeFromData(data)
}

// applyPredicate clears keep[i] for the rows of arr that fail p.
func applyPredicate(arr arrow.Array, p ColumnPredicate, keep []bool) {
	if a, ok := arr.(*array.String); ok && len(p.Strings) > 0 {
		applyStringsIn(a, p.Strings, keep)
		return
	}
	if d, ok := arr.(*array.Dictionary); ok && len(p.Strings) > 0 {
		applyStringsInDictionary(d, p.Strings, keep)
		return
	}
	if len(p.Values) == 0 {
		return
	}
	in := p.in
	if in == nil && p.Op == OpEq && len(p.Values) > 8 {
		// A long IN list (a join's build keys, see exec's dynamic
		// filters) is looked up, not scanned.
		s := newIntSet(p.Values)
		in = &s
	}
	switch a := arr.(type) {
	case *array.Int64:
		applyCompare(a.Int64Values(), 0, arr, p, in, keep)
	case *array.Int32:
		applyCompare(a.Int32Values(), 0, arr, p, in, keep)
	case *array.Date32:
		applyCompare(a.Date32Values(), 0, arr, p, in, keep)
	case *array.Timestamp:
		applyCompare(a.TimestampValues(), 0, arr, p, in, keep)
	case *array.Decimal128:
		// At most 18 digits (FilterableType): the low word is the
		// value. It is compared a cache-sized block at a time.
		nums := a.Values()
		var block [1024]int64
		for base := 0; base < len(nums); base += len(block) {
			unscaled := block[:min(len(block), len(nums)-base)]
			for i := range unscaled {
				unscaled[i] = int64(nums[base+i].LowBits())
			}
			applyCompare(unscaled, base, arr, p, in, keep)
		}
	}
	// Other types are not filtered (FilterableType keeps them out).
}

// applyStringsIn clears keep[i] where row i of arr, still kept, is NULL or
// none of values. A few values are compared one by one, more looked up.
func applyStringsIn(arr *array.String, values []string, keep []bool) {
	var set map[string]struct{}
	if len(values) > 8 {
		set = make(map[string]struct{}, len(values))
		for _, v := range values {
			set[v] = struct{}{}
		}
	}
	for i, k := range keep {
		if !k {
			continue
		}
		if arr.IsNull(i) {
			keep[i] = false
			continue
		}
		v := arr.Value(i)
		if set != nil {
			_, keep[i] = set[v]
		} else {
			keep[i] = slices.Contains(values, v)
		}
	}
}

// applyStringsInDictionary is applyStringsIn on dictionary codes: each
// dictionary value is tested once, each row looks its code up.
func applyStringsInDictionary(arr *array.Dictionary, values []string, keep []bool) {
	dict, ok := arr.Dictionary().(*array.String)
	if !ok {
		return // not a STRING column: left to the query's filter
	}
	match := make([]bool, dict.Len())
	for i := range match {
		match[i] = true
	}
	applyStringsIn(dict, values, match)
	codes := arr.Indices().(*array.Int32).Int32Values()
	for i, k := range keep {
		if k {
			keep[i] = arr.IsValid(i) && match[codes[i]]
		}
	}
}

// applyCompare clears keep[base+i] where vals[i], row base+i of arr, fails
// p (looked up in in, when p has a long IN list). Each comparison is one
// loop without branches on the operator; NULL rows are cleared after.
func applyCompare[T ~int32 | ~int64](vals []T, base int, arr arrow.Array, p ColumnPredicate, in *intSet, keep []bool) {
	keep = keep[base : base+len(vals)]
	v0 := p.Values[0]
	switch {
	case in != nil:
		for i, x := range vals {
			if keep[i] {
				keep[i] = in.has(int64(x))
			}
		}
	case p.Op == OpEq:
		for i, x := range vals {
			if keep[i] {
				keep[i] = slices.Contains(p.Values, int64(x))
			}
		}
	case p.Op == OpLt:
		for i, x := range vals {
			keep[i] = keep[i] && int64(x) < v0
		}
	case p.Op == OpLe:
		for i, x := range vals {
			keep[i] = keep[i] && int64(x) <= v0
		}
	case p.Op == OpGt:
		for i, x := range vals {
			keep[i] = keep[i] && int64(x) > v0
		}
	case p.Op == OpGe:
		for i, x := range vals {
			keep[i] = keep[i] && int64(x) >= v0
		}
	}
	if arr.NullN() > 0 {
		for i := range keep {
			if arr.IsNull(base + i) {
				keep[i] = false
			}
		}
	}
}

// intSet answers membership in a set of integers: a bitmap over their range
// when that is at most maxBitmapRange wide (a join's keys usually are), else
// a binary search of the sorted values.
type intSet struct {
	lo     int64
	bits   []uint64 // nil: search sorted
	sorted []int64
}

// maxBitmapRange bounds the bitmap of an intSet to 8 MiB: the keys of a
// join's build side over a table of up to 64 million rows.
const maxBitmapRange = 1 << 26

// newIntSet builds the set of values (not empty); a bitmap needs only
// their bounds, so the values are copied and sorted only for a search.
func newIntSet(values []int64) intSet {
	lo, hi := slices.Min(values), slices.Max(values)
	if span := uint64(hi) - uint64(lo); span >= maxBitmapRange {
		sorted := slices.Clone(values)
		slices.Sort(sorted)
		return intSet{sorted: slices.Compact(sorted)}
	}
	s := intSet{lo: lo, bits: make([]uint64, (uint64(hi)-uint64(lo))/64+1)}
	for _, v := range values {
		d := uint64(v) - uint64(lo)
		s.bits[d/64] |= 1 << (d % 64)
	}
	return s
}

func (s intSet) has(v int64) bool {
	if s.bits == nil {
		_, found := slices.BinarySearch(s.sorted, v)
		return found
	}
	d := uint64(v) - uint64(s.lo)
	return d/64 < uint64(len(s.bits)) && s.bits[d/64]&(1<<(d%64)) != 0
}
