package exec

import (
	"context"
	"fmt"
	"math/bits"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakesql/lakesql/exec/expr"
	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/value"
)

// accumulator computes one aggregate for every group. Its state is a typed
// slice indexed by group id, so that a batch is folded in with one loop and
// no per-row boxing.
type accumulator interface {
	// update folds row i of arg (nil for count(*)) into group gids[i];
	// groups is the number of groups so far.
	update(ctx context.Context, arg arrow.Array, gids []int32, groups int) error
	// result returns the aggregate of groups 0 … groups-1.
	result(mem memory.Allocator, groups int) arrow.Array
}

// newAccumulator returns the accumulator of an aggregate call. The binder
// has cast the argument to the type the accumulator reads (aggregateArg).
func newAccumulator(call *planner.AggCall) (accumulator, error) {
	acc, err := newPlainAccumulator(call)
	if err != nil || !call.Distinct {
		return acc, err
	}
	return newDistinctAcc(call.Arg.Type(), acc, call.Fn == planner.AggArrayAgg)
}

func newPlainAccumulator(call *planner.AggCall) (accumulator, error) {
	if planner.IsPairStatistic(call.Fn) {
		return &comomentAcc{fn: call.Fn}, nil
	}
	switch call.Fn {
	case planner.AggCount:
		return &countAcc{}, nil
	case planner.AggCountIf:
		return &countAcc{onlyTrue: true}, nil
	case planner.AggSum:
		return newSumAcc(call.Arg.Type(), call.T)
	case planner.AggAvg:
		return newAvgAcc(call.Arg.Type())
	case planner.AggMin, planner.AggBoolAnd:
		return newSelector(call.Arg.Type(), func(c int) bool { return c < 0 })
	case planner.AggMax, planner.AggBoolOr:
		return newSelector(call.Arg.Type(), func(c int) bool { return c > 0 })
	case planner.AggAnyValue:
		return newSelector(call.Arg.Type(), func(int) bool { return false })
	case planner.AggVarSamp, planner.AggVarPop, planner.AggStddevSamp, planner.AggStddevPop:
		return &varianceAcc{fn: call.Fn}, nil
	case planner.AggSkewness, planner.AggKurtosis, planner.AggKurtosisPop:
		return &momentsAcc{fn: call.Fn}, nil
	case planner.AggPercentileCont:
		return &percentileContAcc{fraction: call.Fraction}, nil
	case planner.AggStringAgg:
		if len(call.Order) > 0 {
			return &orderedStringAggAcc{sep: call.Separator, order: call.Order}, nil
		}
		return &stringAggAcc{sep: call.Separator}, nil
	case planner.AggMaxBy:
		return newByAcc(call.Arg.Type(), func(c int) bool { return c > 0 })
	case planner.AggMinBy:
		return newByAcc(call.Arg.Type(), func(c int) bool { return c < 0 })
	case planner.AggArrayAgg, planner.AggCollectList:
		elems := call.T.(*arrow.ListType).Elem()
		ops, err := opsOf(elems)
		if err != nil {
			return nil, err
		}
		return ops.newList(call.T, call.Fn == planner.AggArrayAgg, call.Order), nil
	case planner.AggMode:
		return newModeAcc(call.Arg.Type())
	case planner.AggFirst, planner.AggLast:
		return newFirstAcc(call)
	case planner.AggProduct, planner.AggBitAnd, planner.AggBitOr, planner.AggBitXor:
		return newFoldAcc(call.Fn, call.Arg.Type())
	case planner.AggPercentileDisc:
		ops, err := opsOf(call.Arg.Type())
		if err != nil {
			return nil, err
		}
		return ops.newPercentileDisc(call.Arg.Type(), call.Fraction), nil
	}
	return nil, fmt.Errorf("unknown aggregate function %s", call.Fn)
}

// countAcc counts rows (count(*)), non-NULL values (count(x)) or TRUE
// values (count_if(x)).
type countAcc struct {
	onlyTrue bool
	counts   []int64
}

func (a *countAcc) update(_ context.Context, arg arrow.Array, gids []int32, groups int) error {
	a.counts = grow(a.counts, groups)
	if arg == nil {
		for _, g := range gids {
			a.counts[g]++
		}
		return nil
	}
	valid := nullMask(arg)
	var truth []byte
	if a.onlyTrue && arg.DataType().ID() == arrow.BOOL {
		truth = expr.AlignedBits(arg.Data().Buffers()[1].Bytes(), arg.Data().Offset(), arg.Len())
	}
	for i, g := range gids {
		if isValid(valid, i) && (!a.onlyTrue || truth != nil && bitutil.BitIsSet(truth, i)) {
			a.counts[g]++
		}
	}
	return nil
}

func (a *countAcc) result(mem memory.Allocator, groups int) arrow.Array {
	a.counts = grow(a.counts, groups)
	return buildFixed(mem, planner.TypeBigint, a.counts[:groups], nil)
}

func (a *countAcc) merge(_ context.Context, other accumulator, gmap []int32, groups int) error {
	o := other.(*countAcc)
	a.counts = grow(a.counts, groups)
	o.counts = grow(o.counts, len(gmap))
	for i, g := range gmap {
		if g < 0 {
			continue
		}
		a.counts[g] += o.counts[i]
	}
	return nil
}

// summable are the types sums accumulate in: BIGINT, DOUBLE, DECIMAL.
type summable interface {
	int64 | float64 | decimal128.Num
}

// sumAcc sums per group. With avg set it returns avg(sum, count) as DOUBLE
// instead of the sum.
type sumAcc[T summable] struct {
	add    func(a, b T) (T, bool) // false on overflow
	avg    func(sum T, n int64) float64
	t      arrow.DataType
	sums   []T
	counts []int64
}

func newSumAcc(arg, result arrow.DataType) (accumulator, error) {
	switch arg.ID() {
	case arrow.INT64:
		return &sumAcc[int64]{add: addInt64, t: result}, nil
	case arrow.FLOAT64:
		return &sumAcc[float64]{add: addFloat64, t: result}, nil
	case arrow.DECIMAL128:
		return &sumAcc[decimal128.Num]{add: addDecimal, t: result}, nil
	}
	return nil, fmt.Errorf("sum of %s", planner.TypeString(arg))
}

func newAvgAcc(arg arrow.DataType) (accumulator, error) {
	switch t := arg.(type) {
	case *arrow.Float64Type:
		avg := func(sum float64, n int64) float64 { return sum / float64(n) }
		return &sumAcc[float64]{add: addFloat64, avg: avg, t: planner.TypeDouble}, nil
	case *arrow.Decimal128Type:
		avg := func(sum decimal128.Num, n int64) float64 { return value.DecimalToFloat64(sum, t.Scale) / float64(n) }
		return &sumAcc[decimal128.Num]{add: addDecimal, avg: avg, t: planner.TypeDouble}, nil
	}
	return nil, fmt.Errorf("avg of %s", planner.TypeString(arg))
}

func addInt64(a, b int64) (int64, bool) {
	s, o := expr.IntAdd(a, b)
	return s, o == expr.ValueOK
}

func addFloat64(a, b float64) (float64, bool) { return a + b, true }

// addDecimal adds within DECIMAL(38): a sum of 38-digit values can also
// wrap around the 128 bits, which shows as a sign flip. Small enough to be
// inlined into the sum loops.
func addDecimal(a, b decimal128.Num) (decimal128.Num, bool) {
	s := a.Add(b)
	// Fast path: |s| < 2^125 < 10^38 fits, and a wrapped sum of two 38-digit
	// values is never that small.
	if hi := s.HighBits(); hi >= -(1<<61) && hi < 1<<61 {
		return s, true
	}
	return s, sumInRange(a, b, s)
}

// sumInRange reports whether s = a + b neither wrapped nor left 38 digits.
func sumInRange(a, b, s decimal128.Num) bool {
	wrapped := a.Sign() == b.Sign() && a.Sign() != 0 && s.Sign() != a.Sign()
	return !wrapped && s.FitsInPrecision(38)
}

// sumDecimals is sumAcc's loop for decimals, calling addDecimal directly
// (the call through sumAcc.add costs more than the addition); it reports
// false when a sum leaves DECIMAL(38).
func sumDecimals(sums []decimal128.Num, counts []int64, vals []decimal128.Num, valid []byte, gids []int32) bool {
	for i, g := range gids {
		if !isValid(valid, i) {
			continue
		}
		// addDecimal's fast path, written out: the call is not inlined.
		a, v := sums[g], vals[i]
		lo, carry := bits.Add64(a.LowBits(), v.LowBits(), 0)
		hi := a.HighBits() + v.HighBits() + int64(carry)
		if hi >= -(1<<61) && hi < 1<<61 {
			sums[g] = decimal128.New(hi, lo)
		} else if s, ok := addDecimal(a, v); ok {
			sums[g] = s
		} else {
			return false
		}
		counts[g]++
	}
	return true
}

func (a *sumAcc[T]) update(_ context.Context, arg arrow.Array, gids []int32, groups int) error {
	a.sums = grow(a.sums, groups)
	a.counts = grow(a.counts, groups)
	vals, valid := expr.FixedValues[T](arg), nullMask(arg)
	if sums, ok := any(a.sums).([]decimal128.Num); ok {
		if !sumDecimals(sums, a.counts, any(vals).([]decimal128.Num), valid, gids) {
			return fmt.Errorf("sum out of range for %s", planner.TypeString(a.t))
		}
		return nil
	}
	for i, g := range gids {
		if !isValid(valid, i) {
			continue
		}
		s, ok := a.add(a.sums[g], vals[i])
		if !ok {
			return fmt.Errorf("sum out of range for %s", planner.TypeString(a.t))
		}
		a.sums[g] = s
		a.counts[g]++
	}
	return nil
}

func (a *sumAcc[T]) result(mem memory.Allocator, groups int) arrow.Array {
	if a.avg != nil {
		return a.averages(mem, groups, a.avg)
	}
	a.sums = grow(a.sums, groups)
	a.counts = grow(a.counts, groups)
	valid := make([]bool, groups)
	for g := range valid {
		valid[g] = a.counts[g] > 0
	}
	return buildFixed(mem, a.t, a.sums[:groups], valid)
}

// averages is avg(sum, count) of every group, NULL for groups without a
// value.
func (a *sumAcc[T]) averages(mem memory.Allocator, groups int, avg func(sum T, n int64) float64) arrow.Array {
	a.sums = grow(a.sums, groups)
	a.counts = grow(a.counts, groups)
	valid := make([]bool, groups)
	avgs := make([]float64, groups)
	for g := range avgs {
		if valid[g] = a.counts[g] > 0; valid[g] {
			avgs[g] = avg(a.sums[g], a.counts[g])
		}
	}
	return buildFixed(mem, planner.TypeDouble, avgs, valid)
}

func (a *sumAcc[T]) merge(_ context.Context, other accumulator, gmap []int32, groups int) error {
	o := other.(*sumAcc[T])
	a.sums, a.counts = grow(a.sums, groups), grow(a.counts, groups)
	o.sums, o.counts = grow(o.sums, len(gmap)), grow(o.counts, len(gmap))
	for i, g := range gmap {
		if g < 0 {
			continue
		}
		if o.counts[i] == 0 {
			continue
		}
		s, ok := a.add(a.sums[g], o.sums[i])
		if !ok {
			return fmt.Errorf("sum out of range for %s", planner.TypeString(a.t))
		}
		a.sums[g] = s
		a.counts[g] += o.counts[i]
	}
	return nil
}
