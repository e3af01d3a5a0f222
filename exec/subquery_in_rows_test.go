package exec

import (
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// TestRowSetMatchesRowEquality checks rowSet against the standard's row
// comparison evaluated pair by pair, on random rows of three small
// columns with NULLs, the subquery's rows in several batches.
func TestRowSetMatchesRowEquality(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	const width = 3
	value := func() *int64 {
		if rng.IntN(4) == 0 {
			return nil
		}
		v := int64(rng.IntN(3))
		return &v
	}
	rows := func(n int) [][width]*int64 {
		out := make([][width]*int64, n)
		for i := range out {
			for c := range width {
				out[i][c] = value()
			}
		}
		return out
	}
	columns := func(rs [][width]*int64) []arrow.Array {
		cols := make([]arrow.Array, width)
		for c := range width {
			b := array.NewInt64Builder(memory.DefaultAllocator)
			for _, r := range rs {
				if r[c] == nil {
					b.AppendNull()
				} else {
					b.Append(*r[c])
				}
			}
			cols[c] = b.NewArray()
		}
		return cols
	}
	// want is x IN (set) pair by pair: TRUE for an equal row, NULL for a
	// row no pair of which differs, FALSE otherwise.
	want := func(x [width]*int64, set [][width]*int64) rowMatch {
		out := rowAbsent
		for _, r := range set {
			equal, unknown := true, false
			for c := range width {
				switch {
				case x[c] == nil || r[c] == nil:
					unknown = true
				case *x[c] != *r[c]:
					equal = false
				}
			}
			switch {
			case equal && !unknown:
				return rowFound
			case equal:
				out = rowUnknown
			}
		}
		return out
	}
	for round := range 50 {
		set, err := newRowSet(width)
		if err != nil {
			t.Fatal(err)
		}
		var all [][width]*int64
		for range rng.IntN(4) {
			rs := rows(rng.IntN(6))
			all = append(all, rs...)
			fields := make([]arrow.Field, width)
			for c := range fields {
				fields[c] = arrow.Field{Name: string(rune('a' + c)), Type: arrow.PrimitiveTypes.Int64, Nullable: true}
			}
			batch := array.NewRecordBatch(arrow.NewSchema(fields, nil), columns(rs), int64(len(rs)))
			if err := set.add(batch); err != nil {
				t.Fatal(err)
			}
		}
		xs := rows(20)
		got, err := set.match(columns(xs), len(xs))
		if err != nil {
			t.Fatal(err)
		}
		for i, x := range xs {
			if w := want(x, all); got[i] != w {
				t.Fatalf("round %d: row %d: got %d, want %d", round, i, got[i], w)
			}
		}
	}
}
