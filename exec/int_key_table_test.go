package exec

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestIntKeyTable numbers keys as a map does — repeats, zero, the int64
// extremes and keys that collide in the low bits — and finds only those
// inserted.
func TestIntKeyTable(t *testing.T) {
	r := rand.New(rand.NewPCG(17, 18))
	keys := []int64{0, -1, 1, math.MinInt64, math.MaxInt64, 0, 1 << 40, 2 << 40, 3 << 40}
	for range 5000 {
		keys = append(keys, r.Int64N(3000)-1500)
	}
	tab := newIntKeyTable(4) // grows several times
	want := map[int64]int32{}
	for _, k := range keys {
		id, added := tab.insert(k)
		old, seen := want[k]
		switch {
		case seen && (added || id != old):
			t.Fatalf("insert(%d) again: id %d added %v, want %d", k, id, added, old)
		case !seen && (!added || id != int32(len(want))):
			t.Fatalf("insert(%d): id %d added %v, want %d added", k, id, added, len(want))
		}
		want[k] = id
	}
	for k := int64(-2000); k < 2000; k++ {
		id, ok := tab.find(k)
		if w, seen := want[k]; ok != seen || ok && id != w {
			t.Fatalf("find(%d) = %d %v, want %d %v", k, id, ok, w, seen)
		}
	}
	if _, ok := tab.find(4 << 40); ok {
		t.Fatal("found a key never inserted")
	}
}
