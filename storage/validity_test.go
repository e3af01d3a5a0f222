package storage

import (
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// TestValidityAddMatchesLevels fills a bitmap page by page, with pages of
// odd sizes so that they start inside bitmap bytes, and checks every bit
// and the counts against the definition levels.
func TestValidityAddMatchesLevels(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 50 {
		const maxDef = 2
		numRows := rng.IntN(300)
		defs := make([]byte, numRows)
		for i := range defs {
			defs[i] = byte(rng.IntN(maxDef + 1))
			if trial%5 == 0 {
				defs[i] = maxDef // no NULLs at all
			}
		}
		v := &validity{maxDef: maxDef, buf: memory.NewResizableBuffer(memory.DefaultAllocator)}
		v.buf.Resize(int(bitutil.BytesForBits(int64(numRows))))
		v.bits = v.buf.Bytes()
		for start := 0; start < numRows; {
			n := min(numRows-start, 1+rng.IntN(40))
			want := 0
			for _, d := range defs[start : start+n] {
				if d == maxDef {
					want++
				}
			}
			if got := v.add(start, n, defs[start:start+n]); got != want {
				t.Fatalf("trial %d: add(%d, %d) = %d valid, want %d", trial, start, n, got, want)
			}
			start += n
		}
		nulls := 0
		for i, d := range defs {
			if bitutil.BitIsSet(v.bits, i) != (d == maxDef) {
				t.Fatalf("trial %d: row %d: bit %v for level %d", trial, i, bitutil.BitIsSet(v.bits, i), d)
			}
			if d != maxDef {
				nulls++
			}
		}
		if v.nulls != nulls {
			t.Fatalf("trial %d: %d nulls counted, want %d", trial, v.nulls, nulls)
		}
	}
}
