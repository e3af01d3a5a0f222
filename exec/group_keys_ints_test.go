package exec

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// TestGroupTableInts numbers integer keys (NULLs among them, runs of one
// key, the extremes of the type) as the general table does: the same
// group ids, key hashes and keys, and lookup finds only the keys inserted.
func TestGroupTableInts(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	r := rand.New(rand.NewPCG(3, 4))
	var batches []arrow.Array
	for b := range 4 {
		bld := array.NewInt32Builder(mem)
		if b == 1 {
			bld.AppendValues([]int32{math.MinInt32, math.MaxInt32, 0, 0}, nil)
		}
		for range 3000 {
			switch k := r.Int32N(2000) - 1000; {
			case k%97 == 0:
				bld.AppendNull()
			case k%5 == 0: // a run of one key
				bld.AppendValues([]int32{k, k, k}, nil)
			default:
				bld.Append(k)
			}
		}
		batches = append(batches, bld.NewArray())
		bld.Release()
	}
	defer func() {
		for _, b := range batches {
			b.Release()
		}
	}()
	ints, err := newGroupTable([]arrow.DataType{arrow.PrimitiveTypes.Int32})
	if err != nil {
		t.Fatal(err)
	}
	general, _ := newGroupTable([]arrow.DataType{arrow.PrimitiveTypes.Int32})
	if ints.ints == nil {
		t.Fatal("an integer key does not take the integer table")
	}
	general.ints = nil
	for i, b := range batches {
		got := slices.Clone(ints.insert([]arrow.Array{b}, nil))
		want := general.insert([]arrow.Array{b}, nil)
		if !slices.Equal(got, want) {
			t.Fatalf("batch %d: group ids differ from the general table's", i)
		}
	}
	if !slices.Equal(ints.hashes, general.hashes) {
		t.Fatal("group hashes differ from the general table's")
	}
	gotKeys, wantKeys := ints.build(mem), general.build(mem)
	defer gotKeys[0].Release()
	defer wantKeys[0].Release()
	if !array.Equal(gotKeys[0], wantKeys[0]) {
		t.Fatalf("keys %v, want %v", gotKeys[0], wantKeys[0])
	}
	probe := array.NewInt32Builder(mem)
	probe.AppendValues([]int32{5000, math.MaxInt32, -5000}, nil)
	probe.AppendNull()
	probeKeys := probe.NewArray()
	probe.Release()
	defer probeKeys.Release()
	got, _ := ints.lookup([]arrow.Array{probeKeys}, nil)
	want, _ := general.lookup([]arrow.Array{probeKeys}, nil)
	if !slices.Equal(got, want) || got[0] != -1 || got[1] < 0 || got[3] < 0 {
		t.Fatalf("lookup %v, want %v (absent, present, absent, the NULL group)", got, want)
	}
}
