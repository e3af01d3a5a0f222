package exec

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakesql/lakesql/planner"
)

// TestMomentsMergeAndShift checks skewness, kurtosis and kurtosis_pop: a
// merged state agrees with one state, and shifting every value by 1e9
// changes nothing but rounding (sums of powers of the values lose every
// digit there). Group 5 has 2 values, group 6 3 equal ones, group 7 none.
func TestMomentsMergeAndShift(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	ctx := WithAllocator(context.Background(), mem)
	const rows, groups = 4000, 8
	r := rand.New(rand.NewPCG(3, 4))
	gids := make([]int32, rows)
	vals := make([]float64, rows)
	valid := make([]bool, rows)
	for i := range gids {
		gids[i], vals[i], valid[i] = int32(r.IntN(5)), float64(r.IntN(100)*r.IntN(10)), r.IntN(9) > 0
		switch {
		case i < 2:
			gids[i], valid[i] = 5, true
		case i < 5:
			gids[i], vals[i], valid[i] = 6, 7, true
		}
	}
	build := func(shift float64) *array.Float64 {
		b := array.NewFloat64Builder(mem)
		defer b.Release()
		for i, v := range vals {
			if valid[i] {
				b.Append(v + shift)
			} else {
				b.AppendNull()
			}
		}
		return b.NewFloat64Array()
	}
	plain, shifted := build(0), build(1e9)
	defer plain.Release()
	defer shifted.Release()
	for _, fn := range []string{planner.AggSkewness, planner.AggKurtosis, planner.AggKurtosisPop} {
		newAcc := func() accumulator { return &momentsAcc{fn: fn} }
		want := checkMerge(t, ctx, fn, newAcc, plain, gids, groups)
		moved := checkMerge(t, ctx, fn, newAcc, shifted, gids, groups)
		for g := range groups {
			if w, m := want.GetOneForMarshal(g), moved.GetOneForMarshal(g); !roughlyEqual(w, m) {
				t.Errorf("%s, group %d: %v, shifted by 1e9 %v", fn, g, w, m)
			}
		}
		for g, null := range map[int]bool{5: fn != planner.AggKurtosisPop, 6: fn != planner.AggSkewness, 7: true} {
			if want.IsNull(g) != null {
				t.Errorf("%s, group %d: %v", fn, g, want.GetOneForMarshal(g))
			}
		}
		want.Release()
		moved.Release()
	}
}
