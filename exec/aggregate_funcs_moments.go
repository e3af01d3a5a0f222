package exec

import (
	"context"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakesql/lakesql/exec/expr"
	"github.com/lakesql/lakesql/planner"
)

// momentsAcc computes skewness, kurtosis and kurtosis_pop of DOUBLE values
// from the sums of the second, third and fourth powers of the distances
// from the mean, updated one value at a time (Terriberry's extension of
// Welford's variance) and merged with Pébay's formulas. DuckDB sums the
// powers of the values themselves, which cancel when the values are large
// compared with their spread; so the last digits can differ from DuckDB's,
// the rules for NULL and NaN do not.
type momentsAcc struct {
	fn     string
	states []moments
}

type moments struct {
	n          int64
	mean       float64
	m2, m3, m4 float64 // sums of the 2nd, 3rd and 4th powers of the distances from the mean
}

func (a *momentsAcc) update(_ context.Context, arg arrow.Array, gids []int32, groups int) error {
	a.states = grow(a.states, groups)
	vals, valid := expr.FixedValues[float64](arg), nullMask(arg)
	for i, g := range gids {
		if !isValid(valid, i) {
			continue
		}
		s := &a.states[g]
		before := float64(s.n)
		s.n++
		n := float64(s.n)
		delta := vals[i] - s.mean
		dn := delta / n
		dn2 := dn * dn
		term := delta * dn * before
		s.mean += dn
		s.m4 += term*dn2*(n*n-3*n+3) + 6*dn2*s.m2 - 4*dn*s.m3
		s.m3 += term*dn*(n-2) - 3*dn*s.m2
		s.m2 += term
	}
	return nil
}

func (a *momentsAcc) result(mem memory.Allocator, groups int) arrow.Array {
	a.states = grow(a.states, groups)
	out, valid := make([]float64, groups), make([]bool, groups)
	for g := range a.states[:groups] {
		out[g], valid[g] = a.states[g].shape(a.fn)
	}
	return buildFixed(mem, planner.TypeDouble, out, valid)
}

// shape is function fn of the values, false for NULL, with DuckDB's rules:
// skewness needs 3 values and is NaN when they are all equal; kurtosis
// needs 4, kurtosis_pop 2, and both are NULL when the values are all equal.
func (s *moments) shape(fn string) (float64, bool) {
	n := float64(s.n)
	m2, m3, m4 := s.m2/n, s.m3/n, s.m4/n
	switch fn {
	case planner.AggSkewness:
		switch {
		case s.n <= 2:
			return 0, false
		case m2 <= 0:
			return math.NaN(), true
		}
		return math.Sqrt(n*(n-1)) / (n - 2) * m3 / math.Sqrt(m2*m2*m2), true
	case planner.AggKurtosis:
		if s.n <= 3 || m2 <= 0 {
			return 0, false
		}
		return (n - 1) * ((n+1)*m4/(m2*m2) - 3*(n-1)) / ((n - 2) * (n - 3)), true
	}
	if s.n <= 1 || m2 <= 0 { // kurtosis_pop
		return 0, false
	}
	return m4/(m2*m2) - 3, true
}

// merge combines two groups' moments (combine).
func (a *momentsAcc) merge(_ context.Context, other accumulator, gmap []int32, groups int) error {
	o := other.(*momentsAcc)
	a.states, o.states = grow(a.states, groups), grow(o.states, len(gmap))
	mergeStates(a.states, o.states, gmap)
	return nil
}

func (s *moments) count() int64 { return s.n }

// combine adds b's values to s's with Pébay's formulas for the
// arbitrary-order moments of two sets.
func (s *moments) combine(b moments) {
	na, nb := float64(s.n), float64(b.n)
	n := na + nb
	d := b.mean - s.mean
	d2 := d * d
	s.m4 += b.m4 + d2*d2*na*nb*(na*na-na*nb+nb*nb)/(n*n*n) +
		6*d2*(na*na*b.m2+nb*nb*s.m2)/(n*n) + 4*d*(na*b.m3-nb*s.m3)/n
	s.m3 += b.m3 + d2*d*na*nb*(na-nb)/(n*n) + 3*d*(na*b.m2-nb*s.m2)/n
	s.m2 += b.m2 + d2*na*nb/n
	s.mean = (na*s.mean + nb*b.mean) / n
	s.n += b.n
}

// combinedState is a group's state that another's combines into: the
// statistics of values counted by count.
type combinedState[T any] interface {
	*T
	count() int64
	combine(T)
}

// mergeStates folds the per-group states from of another accumulator into
// into: group i of from into group gmap[i] (none when negative). A state
// without values leaves the other as it is.
func mergeStates[T any, P combinedState[T]](into, from []T, gmap []int32) {
	for i, g := range gmap {
		switch {
		case g < 0 || P(&from[i]).count() == 0:
		case P(&into[g]).count() == 0:
			into[g] = from[i]
		default:
			P(&into[g]).combine(from[i])
		}
	}
}
