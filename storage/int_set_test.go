package storage

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestIntSet checks membership through the bitmap (narrow ranges, negative
// values, the range's edges) and through the sorted search (wide ranges,
// the int64 extremes) against slices.Contains.
func TestIntSet(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 16))
	for _, span := range []int64{10, 1000, maxBitmapRange - 1, maxBitmapRange * 4, math.MaxInt64} {
		values := []int64{-span / 2}
		for range 50 {
			values = append(values, r.Int64N(span)-span/2)
		}
		if span == math.MaxInt64 {
			values = append(values, math.MinInt64, math.MaxInt64)
		}
		s := newIntSet(values)
		if bitmap := s.bits != nil; bitmap != (span < maxBitmapRange) {
			t.Errorf("span %d: bitmap %v", span, bitmap)
		}
		probes := append(slices.Clone(values), math.MinInt64, math.MaxInt64, 0, -1, span, -span)
		for range 1000 {
			probes = append(probes, r.Int64N(span)-span/2)
		}
		for _, v := range probes {
			if got, want := s.has(v), slices.Contains(values, v); got != want {
				t.Fatalf("span %d: has(%d) = %v, want %v", span, v, got, want)
			}
		}
	}
}
