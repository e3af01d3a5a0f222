package exec

import (
	"context"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakesql/lakesql/exec/expr"
	"github.com/lakesql/lakesql/planner"
)

// varianceAcc computes var_samp, var_pop, stddev_samp and stddev_pop of
// DOUBLE values with Welford's online algorithm, which stays accurate when
// the values are large compared with their spread (sum of squares would not).
type varianceAcc struct {
	fn     string
	counts []int64
	means  []float64
	m2     []float64 // sum of squared distances from the mean
}

func (a *varianceAcc) update(_ context.Context, arg arrow.Array, gids []int32, groups int) error {
	a.counts = grow(a.counts, groups)
	a.means = grow(a.means, groups)
	a.m2 = grow(a.m2, groups)
	vals, valid := expr.FixedValues[float64](arg), nullMask(arg)
	for i, g := range gids {
		if !isValid(valid, i) {
			continue
		}
		a.counts[g]++
		delta := vals[i] - a.means[g]
		a.means[g] += delta / float64(a.counts[g])
		a.m2[g] += delta * (vals[i] - a.means[g])
	}
	return nil
}

func (a *varianceAcc) result(mem memory.Allocator, groups int) arrow.Array {
	a.counts = grow(a.counts, groups)
	a.m2 = grow(a.m2, groups)
	out := make([]float64, groups)
	valid := make([]bool, groups)
	sample := a.fn == planner.AggVarSamp || a.fn == planner.AggStddevSamp
	for g := range out {
		n := a.counts[g]
		if sample {
			n--
		}
		if n <= 0 {
			continue
		}
		valid[g] = true
		out[g] = a.m2[g] / float64(n)
		if a.fn == planner.AggStddevSamp || a.fn == planner.AggStddevPop {
			out[g] = math.Sqrt(out[g])
		}
	}
	return buildFixed(mem, planner.TypeDouble, out, valid)
}

// merge combines two groups' counts, means and squared distances as Chan,
// Golub and LeVeque do for parallel variance.
func (a *varianceAcc) merge(_ context.Context, other accumulator, gmap []int32, groups int) error {
	o := other.(*varianceAcc)
	a.counts, a.means, a.m2 = grow(a.counts, groups), grow(a.means, groups), grow(a.m2, groups)
	o.counts, o.means, o.m2 = grow(o.counts, len(gmap)), grow(o.means, len(gmap)), grow(o.m2, len(gmap))
	for i, g := range gmap {
		if g < 0 {
			continue
		}
		nb := o.counts[i]
		if nb == 0 {
			continue
		}
		na := a.counts[g]
		n := na + nb
		delta := o.means[i] - a.means[g]
		a.means[g] += delta * float64(nb) / float64(n)
		a.m2[g] += o.m2[i] + delta*delta*float64(na)*float64(nb)/float64(n)
		a.counts[g] = n
	}
	return nil
}
