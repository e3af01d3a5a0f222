package storage

import (
	"context"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

type pageTally struct{ total, read int }

func (p *pageTally) CountPages(total, read int) { p.total += total; p.read += read }

// idRange keeps the pages whose id bounds meet [lo, hi].
func idRange(lo, hi int64) func(stats func(int) PageStats) bool {
	return func(stats func(int) PageStats) bool {
		st := stats(0)
		return !st.HasBounds || (st.Min.(int64) <= hi && st.Max.(int64) >= lo)
	}
}

func TestRowRangesFromPageIndex(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	batch := layoutBatch(mem, 0, 100_000)
	defer batch.Release()
	b, _ := writeParquet(t, layoutColumns(), ParquetWriterOptions{}, batch)
	f := openBytes(t, b, "pages.parquet")
	rc := readColumnsOf(layoutColumns())
	for _, c := range []struct {
		lo, hi int64
		want   []RowRange
	}{
		{45_000, 45_010, []RowRange{{40_000, 60_000}}},
		{19_999, 20_000, []RowRange{{0, 40_000}}},
		{-5, -1, nil},
		{0, 1 << 40, []RowRange{{0, 100_000}}},
	} {
		got, ok := f.RowRanges(0, rc[:1], idRange(c.lo, c.hi))
		if !ok || !slices.Equal(got, c.want) {
			t.Errorf("id in [%d, %d]: ranges %v (ok %v), want %v", c.lo, c.hi, got, ok, c.want)
		}
	}
	// A column the file lacks is all NULL: its page stats say so.
	missing := ReadColumn{FieldID: 99, Name: "gone", Type: arrow.PrimitiveTypes.Int64}
	got, ok := f.RowRanges(0, []ReadColumn{missing}, func(stats func(int) PageStats) bool {
		st := stats(0)
		return st.Nulls != st.Rows
	})
	if !ok || len(got) != 0 {
		t.Errorf("missing column: ranges %v (ok %v), want none", got, ok)
	}
}

// Reads restricted to row ranges decode only the pages holding them, in
// every column, even where a column's pages do not line up with the others'.
func TestReadRowGroupRanges(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	batch := layoutBatch(mem, 0, 100_000)
	defer batch.Release()
	// Small pages by bytes: note's pages end at other rows than id's.
	b, _ := writeParquet(t, layoutColumns(), ParquetWriterOptions{PageBytes: 64 << 10}, batch)
	f := openBytes(t, b, "pages.parquet")
	rc := readColumnsOf(layoutColumns())
	ranges := []RowRange{{3_000, 3_100}, {40_000, 40_001}, {77_777, 81_234}}
	for _, preds := range [][]ColumnPredicate{nil, {{Col: 0, Op: OpGe, Values: []int64{81_000}}}} {
		var tally pageTally
		f.SetPageCounter(&tally)
		it, filtered, err := f.ReadRowGroupFiltered(context.Background(), 0, rc, ranges, preds, 1000, mem)
		if err != nil {
			t.Fatal(err)
		}
		if !filtered {
			t.Error("rows were dropped but filtered is false")
		}
		var want []int64
		for _, r := range ranges {
			for i := r.Start; i < r.End; i++ {
				if preds == nil || i >= 81_000 {
					want = append(want, int64(i))
				}
			}
		}
		var got []int64
		for {
			rb, err := it.Next()
			if err != nil {
				t.Fatal(err)
			}
			if rb == nil {
				break
			}
			ids := rb.Column(0).(*array.Int64)
			for i := range ids.Len() {
				id := int(ids.Value(i))
				got = append(got, ids.Value(i))
				cat, note := rb.Column(1), rb.Column(2).(*array.String)
				if cat.IsNull(i) != (id%11 == 0) || note.Value(i) != batch.Column(2).(*array.String).Value(id) {
					t.Fatalf("row %d read with other rows' values", id)
				}
			}
			rb.Release()
		}
		it.Close()
		if !slices.Equal(got, want) {
			t.Fatalf("preds %v: read %d rows, want %d", preds, len(got), len(want))
		}
		if tally.read == 0 || tally.read*2 > tally.total {
			t.Errorf("preds %v: %d of %d pages read, want under half", preds, tally.read, tally.total)
		}
	}
}
