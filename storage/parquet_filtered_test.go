package storage

import (
	"context"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// keptValues renders the rows of arrs that pass preds, the reference the
// late-materialized read must match once the same filter is applied to it.
func keptValues(arrs []arrow.Array, preds []ColumnPredicate) [][]string {
	n := arrs[0].Len()
	keep := make([]bool, n)
	for i := range keep {
		keep[i] = true
	}
	for _, p := range preds {
		applyPredicate(arrs[p.Col], p, keep)
	}
	out := make([][]string, len(arrs))
	for c, a := range arrs {
		for i := range n {
			if keep[i] {
				out[c] = append(out[c], a.ValueStr(i))
			}
		}
	}
	return out
}

func TestReadRowGroupFiltered(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	cols := allTypesColumns()
	batch := allTypesBatch(mem, cols, 0, 3000)
	defer batch.Release()
	// Small pages so that runs of kept rows cross page boundaries.
	data, _ := writeParquet(t, cols, ParquetWriterOptions{RowGroupRows: 1200, PageBytes: 700}, batch)
	f := openBytes(t, data, "mem://filtered.parquet")
	rc := readColumnsOf(cols)
	full := readAll(t, f, rc, 256, mem)
	defer releaseAll(full)
	cases := []struct {
		name   string
		preds  []ColumnPredicate
		sparse bool
	}{
		{"int32 eq", []ColumnPredicate{{Col: 1, Op: OpEq, Values: []int64{(7 - 50) * 1000}}}, true},
		{"int64 in", []ColumnPredicate{{Col: 2, Op: OpEq, Values: []int64{(3 - 50) * 1_000_000_007, (2999 - 50) * 1_000_000_007, 5}}}, true},
		{"int32 range", []ColumnPredicate{{Col: 1, Op: OpGe, Values: []int64{100 * 1000}}, {Col: 1, Op: OpLt, Values: []int64{180 * 1000}}}, true},
		{"date and long", []ColumnPredicate{{Col: 5, Op: OpGt, Values: []int64{1000 * 400}}, {Col: 2, Op: OpLe, Values: []int64{1100 * 1_000_000_007}}}, true},
		{"timestamp dense", []ColumnPredicate{{Col: 7, Op: OpGt, Values: []int64{0}}}, false},
		{"none match", []ColumnPredicate{{Col: 2, Op: OpLt, Values: []int64{-1 << 62}}}, true},
		// Decimals stored as INT32 (9 digits) and INT64 (18) are compared
		// as unscaled integers and widened only at the kept rows (or at
		// every row when most pass); every 5th row is NULL.
		{"decimal32 range", []ColumnPredicate{{Col: 9, Op: OpGt, Values: []int64{100 * 12345}}, {Col: 9, Op: OpLe, Values: []int64{400 * 12345}}}, true},
		{"decimal64 in and decimal32", []ColumnPredicate{{Col: 10, Op: OpEq, Values: []int64{-7 * 12345, 10 * 12345, 2000 * 12345}}, {Col: 9, Op: OpGe, Values: []int64{0}}}, true},
		{"decimal64 dense", []ColumnPredicate{{Col: 10, Op: OpGt, Values: []int64{-100 * 12345}}}, false},
		// STRING equality and IN, after an integer range; NULL rows and
		// empty strings are in the column.
		{"string eq", []ColumnPredicate{{Col: 1, Op: OpGe, Values: []int64{0}}, {Col: 12, Op: OpEq, Strings: []string{"éxx"}}}, true},
		// Few rows left by the integer predicate: the strings are not
		// decoded whole to test them (the caller's filter does).
		{"string after a sparse integer predicate", []ColumnPredicate{{Col: 1, Op: OpEq, Values: []int64{(7 - 50) * 1000, (30 - 50) * 1000}}, {Col: 12, Op: OpEq, Strings: []string{"éééxxxxxxx"}}}, true},
		{"string in, empty string", []ColumnPredicate{{Col: 12, Op: OpEq, Strings: []string{"", "x", "ééxxxxx"}}}, true},
		{"string in, looked up", []ColumnPredicate{{Col: 12, Op: OpEq, Strings: []string{"a", "b", "c", "d", "e", "f", "g", "h", "éééxxxxxxxxxx", "xxx"}}}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			parts := make([][]arrow.Array, len(rc))
			sparse := false
			for rg := range f.NumRowGroups() {
				it, filtered, err := f.ReadRowGroupFiltered(context.Background(), rg, rc, nil, c.preds, 100, mem)
				if err != nil {
					t.Fatal(err)
				}
				sparse = sparse || filtered
				for {
					b, err := it.Next()
					if err != nil {
						t.Fatal(err)
					}
					if b == nil {
						break
					}
					for i := range rc {
						col := b.Column(i)
						col.Retain()
						parts[i] = append(parts[i], col)
					}
					b.Release()
				}
				it.Close()
			}
			if sparse != c.sparse {
				t.Errorf("late materialization used: %v, want %v", sparse, c.sparse)
			}
			got := make([]arrow.Array, len(rc))
			for i, p := range parts {
				if len(p) == 0 {
					got[i] = array.MakeArrayOfNull(mem, rc[i].Type, 0)
					continue
				}
				a, err := array.Concatenate(p, mem)
				if err != nil {
					t.Fatal(err)
				}
				releaseAll(p)
				got[i] = a
			}
			defer releaseAll(got)
			gotKept := keptValues(got, c.preds)
			want := keptValues(full, c.preds)
			if len(want[0]) == 0 && c.name != "none match" {
				t.Fatal("no row passes")
			}
			for i := range rc {
				if !slices.Equal(gotKept[i], want[i]) {
					t.Errorf("column %s:\n got %v\nwant %v", rc[i].Name, gotKept[i], want[i])
				}
			}
			if c.name == "none match" && got[0].Len() != 0 {
				t.Errorf("%d rows came back", got[0].Len())
			}
		})
	}
}

func TestApplyStringsIn(t *testing.T) {
	b := array.NewStringBuilder(memory.DefaultAllocator)
	b.AppendValues([]string{"DE", "", "US", "de", "DE", "FR"}, []bool{true, true, true, true, false, true})
	arr := b.NewStringArray()
	defer arr.Release()
	many := []string{"x1", "x2", "x3", "x4", "x5", "x6", "x7", "x8", "US", ""}
	for _, c := range []struct {
		values []string
		keep   []bool
		want   []bool
	}{
		{[]string{"DE"}, []bool{true, true, true, true, true, true}, []bool{true, false, false, false, false, false}},
		{[]string{"", "FR"}, []bool{true, true, true, true, true, false}, []bool{false, true, false, false, false, false}},
		{many, []bool{true, true, true, true, true, true}, []bool{false, true, true, false, false, false}},
	} {
		keep := slices.Clone(c.keep)
		applyStringsIn(arr, c.values, keep)
		if !slices.Equal(keep, c.want) {
			t.Errorf("IN %q: kept %v, want %v", c.values, keep, c.want)
		}
	}
}

// TestRowsInPage checks the selection of one page [10, 20) by runs: rows
// counted, the first run the page leaves unfinished, and the offsets.
func TestRowsInPage(t *testing.T) {
	runs := []RowRange{{0, 2}, {8, 12}, {14, 15}, {18, 25}, {30, 31}}
	cases := []struct {
		ri, row, n, wanted, next int
		offsets                  []int32
	}{
		{1, 10, 10, 5, 3, []int32{0, 1, 4, 8, 9}}, // run 3 goes on after the page
		{3, 20, 5, 5, 4, nil},                     // covered whole: no offsets needed
		{4, 25, 5, 0, 4, nil},                     // no run reaches the page
		{4, 30, 5, 1, 5, []int32{0}},              // the last run ends in the page
	}
	for _, c := range cases {
		wanted, next := rowsInPage(runs, c.ri, c.row, c.n)
		if wanted != c.wanted || next != c.next {
			t.Errorf("rowsInPage(runs, %d, %d, %d) = %d, %d; want %d, %d", c.ri, c.row, c.n, wanted, next, c.wanted, c.next)
		}
		if wanted == c.n || wanted == 0 {
			continue
		}
		if got := pageOffsets(nil, runs[c.ri:min(next+1, len(runs))], c.row, c.n); !slices.Equal(got, c.offsets) {
			t.Errorf("pageOffsets for page %d+%d = %v, want %v", c.row, c.n, got, c.offsets)
		}
	}
}
