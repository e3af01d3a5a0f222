package exec

import (
	"context"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakesql/lakesql/exec/expr"
	"github.com/lakesql/lakesql/planner"
)

// comomentAcc computes the two-argument statistics of (y, x) pairs: corr,
// covar_pop, covar_samp and the regr_* functions. Its argument is a struct
// of y and x as DOUBLE (planner.bindPairStatistic); a row where either is
// NULL is skipped, as is a NULL struct row. Every function
// reads the same state, updated as Welford's variance is (varianceAcc):
// the means, the squared distances from them and the co-moment, which
// stay accurate when the values are large compared with their spread. The
// plain sums are kept too, because DuckDB computes regr_avgx, regr_avgy
// and regr_intercept's averages from them.
type comomentAcc struct {
	fn     string
	states []comoment
}

type comoment struct {
	n            int64
	meanX, meanY float64
	m2X, m2Y     float64 // sums of squared distances from the means
	c            float64 // sum of the products of the distances: the co-moment
	sumX, sumY   float64
}

func (a *comomentAcc) update(_ context.Context, arg arrow.Array, gids []int32, groups int) error {
	a.states = grow(a.states, groups)
	st := arg.(*array.Struct)
	ys, xs := expr.FixedValues[float64](st.Field(0)), expr.FixedValues[float64](st.Field(1))
	rowValid, yValid, xValid := nullMask(st), nullMask(st.Field(0)), nullMask(st.Field(1))
	for i, g := range gids {
		if !isValid(rowValid, i) || !isValid(yValid, i) || !isValid(xValid, i) {
			continue
		}
		s, x, y := &a.states[g], xs[i], ys[i]
		s.n++
		n := float64(s.n)
		dx, dy := x-s.meanX, y-s.meanY
		s.meanX += dx / n
		s.meanY += dy / n
		s.m2X += dx * (x - s.meanX)
		s.m2Y += dy * (y - s.meanY)
		s.c += dx * (y - s.meanY)
		s.sumX += x
		s.sumY += y
	}
	return nil
}

func (a *comomentAcc) result(mem memory.Allocator, groups int) arrow.Array {
	a.states = grow(a.states, groups)
	if a.fn == planner.AggRegrCount {
		counts := make([]int64, groups)
		for g, s := range a.states[:groups] {
			counts[g] = s.n
		}
		return buildFixed(mem, planner.TypeBigint, counts, nil)
	}
	out, valid := make([]float64, groups), make([]bool, groups)
	for g := range a.states[:groups] {
		out[g], valid[g] = a.states[g].statistic(a.fn)
	}
	return buildFixed(mem, planner.TypeDouble, out, valid)
}

// statistic is function fn of the pairs, false for NULL, with DuckDB's
// rules: NULL without pairs; covar_samp NULL for one pair; corr and
// regr_slope NaN where a variance is 0 (one pair has none), and
// regr_intercept NULL there; regr_r2 NULL when x's variance is 0, else 1
// when y's is.
func (s *comoment) statistic(fn string) (float64, bool) {
	if s.n == 0 {
		return 0, false
	}
	n := float64(s.n)
	varPop := func(m2 float64) float64 {
		if s.n > 1 {
			return m2 / n
		}
		return 0
	}
	covPop := s.c / n
	slope := func() float64 {
		if v := varPop(s.m2X); v != 0 {
			return covPop / v
		}
		return math.NaN()
	}
	corr := func() float64 {
		if d := math.Sqrt(varPop(s.m2X)) * math.Sqrt(varPop(s.m2Y)); d != 0 {
			return covPop / d
		}
		return math.NaN()
	}
	switch fn {
	case planner.AggCovarPop:
		return covPop, true
	case planner.AggCovarSamp:
		return s.c / (n - 1), s.n > 1
	case planner.AggRegrAvgX:
		return s.sumX / n, true
	case planner.AggRegrAvgY:
		return s.sumY / n, true
	case planner.AggRegrSXX:
		return n * varPop(s.m2X), true
	case planner.AggRegrSYY:
		return n * varPop(s.m2Y), true
	case planner.AggRegrSXY:
		return n * covPop, true
	case planner.AggRegrSlope:
		return slope(), true
	case planner.AggRegrIntercept:
		b := slope()
		return s.sumY/n - b*(s.sumX/n), !math.IsNaN(b)
	case planner.AggRegrR2:
		switch {
		case varPop(s.m2X) == 0:
			return 0, false
		case varPop(s.m2Y) == 0:
			return 1, true
		}
		r := corr()
		return r * r, true
	}
	return corr(), true // corr
}

// merge combines two groups' states (combine).
func (a *comomentAcc) merge(_ context.Context, other accumulator, gmap []int32, groups int) error {
	o := other.(*comomentAcc)
	a.states, o.states = grow(a.states, groups), grow(o.states, len(gmap))
	mergeStates(a.states, o.states, gmap)
	return nil
}

func (s *comoment) count() int64 { return s.n }

// combine adds b's values to s's, as Chan, Golub and LeVeque combine
// parallel variances, and as DuckDB combines its co-moments.
func (s *comoment) combine(b comoment) {
	na, nb := float64(s.n), float64(b.n)
	n := na + nb
	dx, dy := b.meanX-s.meanX, b.meanY-s.meanY
	s.m2X += b.m2X + dx*dx*na*nb/n
	s.m2Y += b.m2Y + dy*dy*na*nb/n
	s.c += b.c + dx*dy*na*nb/n
	s.meanX = (na*s.meanX + nb*b.meanX) / n
	s.meanY = (na*s.meanY + nb*b.meanY) / n
	s.n += b.n
	s.sumX += b.sumX
	s.sumY += b.sumY
}
