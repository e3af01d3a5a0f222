package exec

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakesql/lakesql/planner"
)

// TestPairStatisticsMerge folds (y, x) pairs into one state, and the same
// pairs split in two into two states that are then merged, as parallel
// workers' are: every statistic must agree, also for a group with one pair
// (NaN or NULL) and one without any. The values are large next to their
// spread, which a sum of squares would get wrong.
func TestPairStatisticsMerge(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	ctx := WithAllocator(context.Background(), mem)
	const rows, groups = 3000, 8 // group 7 gets no pair, group 6 one
	r := rand.New(rand.NewPCG(7, 8))
	b := array.NewStructBuilder(mem, arrow.StructOf(
		arrow.Field{Name: "y", Type: tDouble, Nullable: true}, arrow.Field{Name: "x", Type: tDouble, Nullable: true}))
	defer b.Release()
	ys, xs := b.FieldBuilder(0).(*array.Float64Builder), b.FieldBuilder(1).(*array.Float64Builder)
	gids := make([]int32, rows)
	for i := range gids {
		gids[i] = int32(r.IntN(6))
		if i == rows/3 {
			gids[i] = 6
		}
		b.Append(true)
		x := 1e9 + float64(r.IntN(100))
		switch nulls := r.IntN(8); {
		case i == rows/3 || nulls > 1:
			xs.Append(x)
			ys.Append(3*x + float64(r.IntN(50)))
		case nulls == 0: // y NULL
			xs.Append(x)
			ys.AppendNull()
		default: // x NULL
			xs.AppendNull()
			ys.Append(x)
		}
	}
	pairs := b.NewArray()
	defer pairs.Release()
	fns := []string{planner.AggCorr, planner.AggCovarPop, planner.AggCovarSamp, planner.AggRegrCount,
		planner.AggRegrAvgX, planner.AggRegrAvgY, planner.AggRegrSlope, planner.AggRegrIntercept,
		planner.AggRegrR2, planner.AggRegrSXX, planner.AggRegrSYY, planner.AggRegrSXY}
	for _, fn := range fns {
		want := checkMerge(t, ctx, fn, func() accumulator { return &comomentAcc{fn: fn} }, pairs, gids, groups)
		if want.IsValid(7) != (fn == planner.AggRegrCount) {
			t.Errorf("%s of no pairs: %v", fn, want.GetOneForMarshal(7))
		}
		want.Release()
	}
}

// checkMerge folds arg into one accumulator, and its two halves into two
// that are then merged, as parallel workers' are, and reports the groups
// whose results differ by more than rounding. It returns the one
// accumulator's result.
func checkMerge(t *testing.T, ctx context.Context, fn string, newAcc func() accumulator, arg arrow.Array, gids []int32, groups int) arrow.Array {
	t.Helper()
	mem := allocator(ctx)
	half := arg.Len() / 2
	first, second := array.NewSlice(arg, 0, int64(half)), array.NewSlice(arg, int64(half), int64(arg.Len()))
	defer first.Release()
	defer second.Release()
	identity := make([]int32, groups)
	for g := range identity {
		identity[g] = int32(g)
	}
	whole, a, o := newAcc(), newAcc(), newAcc()
	for _, step := range []error{
		whole.update(ctx, arg, gids, groups),
		a.update(ctx, first, gids[:half], groups),
		o.update(ctx, second, gids[half:], groups),
		a.(merger).merge(ctx, o, identity, groups),
	} {
		if step != nil {
			t.Fatal(step)
		}
	}
	want, got := whole.result(mem, groups), a.result(mem, groups)
	defer got.Release()
	for g := range groups {
		if w, v := want.GetOneForMarshal(g), got.GetOneForMarshal(g); !roughlyEqual(w, v) {
			t.Errorf("%s, group %d: one state %v, merged %v", fn, g, w, v)
		}
	}
	return want
}

// roughlyEqual reports whether two results are equal, NaN and NaN too,
// but for rounding.
func roughlyEqual(a, b any) bool {
	x, xok := a.(float64)
	y, yok := b.(float64)
	return a == b || xok && yok && (math.IsNaN(x) && math.IsNaN(y) || math.Abs(x-y) <= 1e-6*math.Abs(x))
}
