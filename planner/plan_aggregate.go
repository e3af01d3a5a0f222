package planner

import (
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakesql/lakesql/value"
)

// Aggregate function names used in AggCall.Fn. The binder maps the SQL
// spellings onto these (stddev → stddev_samp, variance → var_samp,
// approx_count_distinct(x) → count(DISTINCT x), which is exact).
const (
	AggCount      = "count" // count(x) counts non-NULL values; count(*) has no Arg
	AggCountIf    = "count_if"
	AggSum        = "sum"
	AggAvg        = "avg"
	AggMin        = "min"
	AggMax        = "max"
	AggAnyValue   = "any_value"
	AggBoolAnd    = "bool_and"
	AggBoolOr     = "bool_or"
	AggStddevSamp = "stddev_samp"
	AggStddevPop  = "stddev_pop"
	AggVarSamp    = "var_samp"
	AggVarPop     = "var_pop"
	// skewness(x), kurtosis(x) (sample, excess) and kurtosis_pop(x): the
	// shape of the non-NULL values' distribution, as DOUBLE.
	AggSkewness    = "skewness"
	AggKurtosis    = "kurtosis"
	AggKurtosisPop = "kurtosis_pop"
	// percentile_cont(x DOUBLE, f): the value at fraction f of the sorted
	// values, interpolated between the two nearest (median is f = 0.5);
	// percentile_disc(x, f): the first value whose cumulative share reaches
	// f, of x's own type (percentile_approx answers it exactly).
	AggPercentileCont = "percentile_cont"
	AggPercentileDisc = "percentile_disc"
	// string_agg(x STRING, sep): the non-NULL values joined by the constant
	// sep, in no set order (also listagg, group_concat, as in DuckDB).
	AggStringAgg = "string_agg"
	// max_by(x, y) / min_by(x, y): x at the row of the largest / smallest
	// non-NULL y (the first such row when several tie); Arg is a struct of
	// x and y (bind_aggregate_by.go).
	AggMaxBy = "max_by"
	AggMinBy = "min_by"
	// array_agg(x): the group's values as an ARRAY, NULLs included, in
	// input order; NULL for a group without rows. collect_list(x) (Spark)
	// leaves NULLs out and is [] for a group without values.
	AggArrayAgg    = "array_agg"
	AggCollectList = "collect_list"
	// mode(x): the most frequent non-NULL value, the smallest of those
	// that tie.
	AggMode = "mode"
	// first(x) / last(x): the value of the first / last row in input
	// order, NULL or not (DuckDB's arbitrary is first). With ORDER BY
	// inside, the value at the smallest / largest ORDER BY key, the first
	// row of those that tie, as DuckDB's rewrite to arg_min_null and
	// arg_max_null does.
	AggFirst = "first"
	AggLast  = "last"
	// product(x): the product of the non-NULL values, as DOUBLE.
	AggProduct = "product"
	// bit_and(x), bit_or(x), bit_xor(x): the bitwise fold of the non-NULL
	// integers, of x's type.
	AggBitAnd = "bit_and"
	AggBitOr  = "bit_or"
	AggBitXor = "bit_xor"
	// The two-argument statistics of (y, x) pairs, as DOUBLE (regr_count
	// BIGINT); rows where y or x is NULL are skipped. Arg is a struct of y
	// and x (bind_aggregate_by.go).
	AggCorr          = "corr"
	AggCovarPop      = "covar_pop"
	AggCovarSamp     = "covar_samp"
	AggRegrCount     = "regr_count"
	AggRegrAvgX      = "regr_avgx"
	AggRegrAvgY      = "regr_avgy"
	AggRegrSlope     = "regr_slope"
	AggRegrIntercept = "regr_intercept"
	AggRegrR2        = "regr_r2"
	AggRegrSXX       = "regr_sxx"
	AggRegrSYY       = "regr_syy"
	AggRegrSXY       = "regr_sxy"
)

// IsPairStatistic reports whether fn is one of the two-argument statistics
// (corr, covar_*, regr_*).
func IsPairStatistic(fn string) bool {
	switch fn {
	case AggCorr, AggCovarPop, AggCovarSamp, AggRegrCount, AggRegrAvgX, AggRegrAvgY,
		AggRegrSlope, AggRegrIntercept, AggRegrR2, AggRegrSXX, AggRegrSYY, AggRegrSXY:
		return true
	}
	return false
}

// AggCall is one aggregate function over the rows of a group. Arg is an
// expression over the Aggregate's input (nil for count(*)); NULL arguments
// are skipped. With Distinct, equal argument values count once.
type AggCall struct {
	Fn       string
	Arg      Expr
	Distinct bool
	// Fraction is the constant fraction of the percentile functions.
	Fraction float64
	// Separator is string_agg's constant separator.
	Separator string
	// Order is the ORDER BY of string_agg and array_agg: Arg is then a
	// struct of the value and the ORDER BY keys, one AggOrder each.
	Order []AggOrder
	// Filter is the condition of FILTER (WHERE cond), a BOOLEAN over the
	// Aggregate's input: the call sees only the rows where it is TRUE.
	// nil when the call has none.
	Filter Expr
	T      arrow.DataType
}

// Exprs lists the expressions of the call over the Aggregate's input: its
// argument and its FILTER condition, those it has.
func (a *AggCall) Exprs() []Expr {
	var out []Expr
	for _, e := range []Expr{a.Arg, a.Filter} {
		if e != nil {
			out = append(out, e)
		}
	}
	return out
}

// MapExprs returns a copy of the call with f applied to its argument and
// FILTER condition, those it has.
func (a *AggCall) MapExprs(f func(Expr) Expr) *AggCall {
	out := *a
	if a.Arg != nil {
		out.Arg = f(a.Arg)
	}
	if a.Filter != nil {
		out.Filter = f(a.Filter)
	}
	return &out
}

// ValueDependsOnRowOrder reports whether the call's value can change with
// the order its rows come in, floating-point rounding aside: any_value
// takes the first value, first and last the first or last row (the first
// of ties of their ORDER BY), max_by and min_by the first of ties,
// string_agg and array_agg list the values in that order (among ties of
// their ORDER BY, where they have one).
func (a *AggCall) ValueDependsOnRowOrder() bool {
	switch a.Fn {
	case AggAnyValue, AggFirst, AggLast, AggMaxBy, AggMinBy, AggStringAgg, AggArrayAgg, AggCollectList:
		return true
	}
	return false
}

// RoundsByRowOrder reports whether the call adds floating-point values,
// whose rounding depends on the order they are added in: sum, avg and the
// variances of DOUBLE or REAL (avg and the variances of integers too,
// which they compute in DOUBLE), product and the two-argument statistics
// (always in DOUBLE).
func (a *AggCall) RoundsByRowOrder() bool {
	switch a.Fn {
	case AggSum, AggAvg, AggVarSamp, AggVarPop, AggStddevSamp, AggStddevPop, AggProduct,
		AggSkewness, AggKurtosis, AggKurtosisPop:
		return isFloat(a.Arg.Type())
	}
	return IsPairStatistic(a.Fn) && a.Fn != AggRegrCount
}

// AggOrder is the direction of one ORDER BY key inside an aggregate.
type AggOrder struct{ Desc, NullsFirst bool }

func (a *AggCall) String() string {
	if a.Filter != nil {
		return a.unfiltered() + " FILTER (WHERE " + a.Filter.String() + ")"
	}
	return a.unfiltered()
}

func (a *AggCall) unfiltered() string {
	switch {
	case a.Fn == AggPercentileCont || a.Fn == AggPercentileDisc:
		return fmt.Sprintf("%s(%s, %g)", a.Fn, a.Arg, a.Fraction)
	case a.Fn == AggStringAgg && len(a.Order) > 0:
		return fmt.Sprintf("%s(%s%s, %s ORDER BY %v)", a.Fn, map[bool]string{true: "DISTINCT "}[a.Distinct], a.Arg, value.Quote(a.Separator), a.Order)
	case len(a.Order) > 0:
		return fmt.Sprintf("%s(%s%s ORDER BY %v)", a.Fn, map[bool]string{true: "DISTINCT "}[a.Distinct], a.Arg, a.Order)
	case a.Fn == AggStringAgg:
		return fmt.Sprintf("%s(%s%s, %s)", a.Fn, map[bool]string{true: "DISTINCT "}[a.Distinct], a.Arg, value.Quote(a.Separator))
	case a.Arg == nil:
		return a.Fn + "(*)"
	case a.Fn == AggMaxBy || a.Fn == AggMinBy || IsPairStatistic(a.Fn):
		// The struct bindPair made, as the two arguments it was written with.
		if pair, ok := a.Arg.(*Call); ok && pair.Fn == FnMakeStruct && len(pair.Args) == 4 {
			return fmt.Sprintf("%s(%s%s, %s)", a.Fn, map[bool]string{true: "DISTINCT "}[a.Distinct], pair.Args[1], pair.Args[3])
		}
	case a.Distinct:
		return a.Fn + "(DISTINCT " + a.Arg.String() + ")"
	}
	return a.Fn + "(" + a.Arg.String() + ")"
}

// Aggregate groups its input by the GroupBy expressions and computes Aggs
// per group. Its output is one column per GroupBy expression, then one per
// aggregate, named by Names. Without GroupBy it returns exactly one row, also
// for an empty input.
type Aggregate struct {
	Input   Plan
	GroupBy []Expr
	Aggs    []*AggCall
	Names   []string
}

// Distinct removes duplicate rows (NULLs are equal to each other).
type Distinct struct {
	Input Plan
}

func (a *Aggregate) Schema() []Column {
	cols := make([]Column, 0, len(a.Names))
	for i, g := range a.GroupBy {
		cols = append(cols, Column{Name: a.Names[i], T: g.Type()})
	}
	for i, agg := range a.Aggs {
		cols = append(cols, Column{Name: a.Names[len(a.GroupBy)+i], T: agg.T})
	}
	return cols
}
func (d *Distinct) Schema() []Column { return d.Input.Schema() }

func (a *Aggregate) Children() []Plan { return []Plan{a.Input} }
func (d *Distinct) Children() []Plan  { return []Plan{d.Input} }

func (a *Aggregate) Describe() string {
	groups := make([]string, len(a.GroupBy))
	for i, g := range a.GroupBy {
		groups[i] = g.String()
	}
	aggs := make([]string, len(a.Aggs))
	for i, agg := range a.Aggs {
		aggs[i] = agg.String()
		if name := a.Names[len(a.GroupBy)+i]; name != aggs[i] {
			aggs[i] += " AS " + name
		}
	}
	return "Aggregate group=[" + strings.Join(groups, ", ") + "] aggs=[" + strings.Join(aggs, ", ") + "]"
}
func (d *Distinct) Describe() string { return "Distinct" }
