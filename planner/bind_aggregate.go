package planner

import (
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakesql/lakesql/sql"
)

// aggregateFns maps the SQL names of aggregate functions to AggCall.Fn.
var aggregateFns = map[string]string{
	"count": AggCount, "count_if": AggCountIf, "approx_count_distinct": AggCount, "approx_distinct": AggCount,
	"sum": AggSum, "avg": AggAvg, "mean": AggAvg,
	"min": AggMin, "max": AggMax, "any_value": AggAnyValue,
	"first": AggFirst, "arbitrary": AggFirst, "last": AggLast,
	"product": AggProduct, "bit_and": AggBitAnd, "bit_or": AggBitOr, "bit_xor": AggBitXor,
	"bool_and": AggBoolAnd, "bool_or": AggBoolOr, "every": AggBoolAnd,
	"stddev": AggStddevSamp, "stddev_samp": AggStddevSamp, "stddev_pop": AggStddevPop,
	"variance": AggVarSamp, "var_samp": AggVarSamp, "var_pop": AggVarPop,
	"skewness": AggSkewness, "kurtosis": AggKurtosis, "kurtosis_pop": AggKurtosisPop,
	"median": AggPercentileCont, "percentile_cont": AggPercentileCont, "quantile_cont": AggPercentileCont,
	"percentile_disc": AggPercentileDisc, "quantile_disc": AggPercentileDisc,
	"percentile_approx": AggPercentileDisc, "approx_percentile": AggPercentileDisc,
	"string_agg": AggStringAgg, "listagg": AggStringAgg, "group_concat": AggStringAgg,
	"max_by": AggMaxBy, "arg_max": AggMaxBy, "min_by": AggMinBy, "arg_min": AggMinBy,
	"array_agg": AggArrayAgg, "list": AggArrayAgg, "collect_list": AggCollectList,
	"mode": AggMode,
	"corr": AggCorr, "covar_pop": AggCovarPop, "covar_samp": AggCovarSamp,
	"regr_count": AggRegrCount, "regr_avgx": AggRegrAvgX, "regr_avgy": AggRegrAvgY,
	"regr_slope": AggRegrSlope, "regr_intercept": AggRegrIntercept, "regr_r2": AggRegrR2,
	"regr_sxx": AggRegrSXX, "regr_syy": AggRegrSYY, "regr_sxy": AggRegrSXY,
}

// orderedAggregates are the aggregates whose value an ORDER BY inside the
// call can change.
var orderedAggregates = map[string]bool{
	AggStringAgg: true, AggArrayAgg: true, AggCollectList: true, AggFirst: true, AggLast: true,
}

// IsAggregate reports whether a function call is an aggregate (and not a
// window function, which has OVER).
func IsAggregate(e *sql.FuncCall) bool {
	_, ok := aggregateFns[e.Name]
	return ok && e.Over == nil
}

// aggregator collects the aggregate calls of one SELECT block while its
// select list, HAVING and ORDER BY are bound against the block's input. An
// aggregator with forbidden set marks a clause where aggregates are an error.
type aggregator struct {
	forbidden string
	// outerRef is the error for the first correlated reference, from the
	// clauses this aggregator collects for, to a column that is not a
	// GROUP BY column: it stands should the block aggregate.
	outerRef error

	groups    []Expr
	groupKeys map[string]int
	structs   map[string]Expr // grouped structs, grouped by their parts (group_struct_keys.go)
	calls     []*AggCall
	callKeys  map[string]int
	names     []string // output name per call
}

func newAggregator(groups []Expr) *aggregator {
	a := &aggregator{groupKeys: map[string]int{}, callKeys: map[string]int{}}
	for _, g := range groups {
		a.addGroup(g)
	}
	return a
}

// aggregateArgs returns the scope an aggregate's arguments are bound in.
// There an aggregate call is nested, an error, except in the arguments of
// an aggregate over a window: those are the block's aggregates, computed
// before the window (stddev(sum(x)) OVER ()).
func aggregateArgs(s *scope) *scope {
	if s.windowAggregate {
		inner := *s
		inner.windowAggregate = false
		return &inner
	}
	return forbidAggregates(s, "aggregate function calls cannot be nested")
}

// forbidAggregates returns a scope over the same columns where aggregate
// calls are the error msg.
func forbidAggregates(s *scope, msg string) *scope {
	inner := *s
	inner.aggs = &aggregator{forbidden: msg}
	return &inner
}

// aggOutput references column Index of the Aggregate node a SELECT block is
// building (group keys first, then aggregate calls). It exists only while the
// block is bound; finish turns it into a ColumnRef.
type aggOutput struct {
	Index int
	Name  string
	T     arrow.DataType
}

func (a *aggOutput) Type() arrow.DataType { return a.T }
func (a *aggOutput) String() string       { return a.Name }

// exprKey identifies a bound expression by its structure: columns by index, so
// that t1.a and t2.a differ even though both print as a.
func exprKey(e Expr) string {
	return Rewrite(e, func(x Expr) Expr {
		if ref, ok := x.(*ColumnRef); ok {
			return &ColumnRef{Index: ref.Index, Name: fmt.Sprintf("#%d", ref.Index), T: ref.T}
		}
		return x
	}).String()
}

// bindAggregate binds an aggregate call inside a SELECT block and returns a
// reference to its output column.
func (b *binder) bindAggregate(e *sql.FuncCall, s *scope) (Expr, error) {
	switch {
	case s.aggs == nil:
		return nil, errorf(e.Pos, "aggregate functions are not allowed here")
	case s.aggs.forbidden != "":
		return nil, errorf(e.Pos, "%s", s.aggs.forbidden)
	}
	call, err := b.bindAggCall(e, s)
	if err != nil {
		return nil, err
	}
	if e.Filter != nil {
		if call.Filter, err = b.bindAggFilter(e, s); err != nil {
			return nil, err
		}
	}
	if err := b.localizeAggCall(call); err != nil {
		return nil, err
	}
	return s.aggs.add(call), nil
}

// localizeAggCall applies the session zone to the argument and FILTER
// condition of call. They were bound inside the expression around the
// call, which the zone reaches when its bindExpr returns, but leave it for
// the Aggregate node: bound, the expression only refers to the result.
func (b *binder) localizeAggCall(call *AggCall) error {
	var err error
	if call.Arg, err = b.localize(call.Arg); err != nil {
		return err
	}
	call.Filter, err = b.localize(call.Filter)
	return err
}

// key identifies the call: calls with equal keys compute the same values.
// Columns count by index.
func (a *AggCall) key() string {
	key := a.Fn
	if a.Arg != nil {
		key = fmt.Sprintf("%s/%v/%g/%q/%v/%s", a.Fn, a.Distinct, a.Fraction, a.Separator, a.Order, exprKey(a.Arg))
	}
	if a.Filter != nil {
		key += " FILTER " + exprKey(a.Filter)
	}
	return key
}

// add registers call (once per distinct call) and returns its output reference.
func (a *aggregator) add(call *AggCall) *aggOutput {
	key := call.key()
	i, ok := a.callKeys[key]
	if !ok {
		i = len(a.calls)
		a.callKeys[key] = i
		a.calls = append(a.calls, call)
		a.names = append(a.names, call.String())
	}
	return &aggOutput{Index: len(a.groups) + i, Name: a.names[i], T: call.T}
}

func (b *binder) bindAggCall(e *sql.FuncCall, s *scope) (*AggCall, error) {
	fn := aggregateFns[e.Name]
	if len(e.OrderBy) > 0 && !orderedAggregates[fn] {
		return nil, kindErrorf(ErrUnsupported, e.Pos, "ORDER BY inside %s is not supported (only string_agg, GROUP_CONCAT, array_agg, first and last order their values)", e.Name)
	}
	if e.Star {
		if fn != AggCount || e.Name != "count" {
			return nil, errorf(e.Pos, "%s(*) is not allowed; only count(*)", e.Name)
		}
		return &AggCall{Fn: AggCount, T: TypeBigint}, nil
	}
	if fn == AggPercentileCont || fn == AggPercentileDisc {
		return b.bindPercentile(e, fn, s)
	}
	switch fn {
	case AggStringAgg:
		return b.bindStringAgg(e, s)
	case AggMaxBy, AggMinBy:
		return b.bindAggregateBy(e, fn, s)
	case AggArrayAgg, AggCollectList:
		return b.bindArrayAgg(e, fn, s)
	case AggFirst, AggLast:
		return b.bindFirst(e, fn, s)
	}
	if IsPairStatistic(fn) {
		return b.bindPairStatistic(e, fn, s)
	}
	if len(e.Args) != 1 {
		return nil, errorf(e.Pos, "%s needs 1 argument, got %d", e.Name, len(e.Args))
	}
	arg, err := b.bindExpr(e.Args[0], aggregateArgs(s))
	if err != nil {
		return nil, err
	}
	call := &AggCall{Fn: fn, Distinct: e.Distinct || exactDistinctCounts[e.Name]}
	if call.Arg, call.T, err = aggregateArg(fn, arg); err != nil {
		return nil, errorf(e.Pos, "%s: %v", e.Name, err)
	}
	return call, nil
}

// exactDistinctCounts are DuckDB's approx_count_distinct and Trino's
// approx_distinct, counted exactly: within any approximation's error.
var exactDistinctCounts = map[string]bool{"approx_count_distinct": true, "approx_distinct": true}

// aggregateArg types an aggregate: it returns the argument cast to the type
// the executor accumulates (BIGINT, DOUBLE or the decimal for sums; DOUBLE for
// averages of non-decimals and for variances) and the result type.
func aggregateArg(fn string, arg Expr) (Expr, arrow.DataType, error) {
	t := arg.Type()
	var accumulate, result arrow.DataType
	switch fn {
	case AggCount:
		return arg, TypeBigint, nil
	case AggCountIf, AggBoolAnd, AggBoolOr:
		if t.ID() != arrow.BOOL && t.ID() != arrow.NULL {
			return nil, nil, fmt.Errorf("needs a BOOLEAN, got %s", TypeString(t))
		}
		accumulate, result = TypeBoolean, TypeBoolean
		if fn == AggCountIf {
			result = TypeBigint
		}
	case AggSum:
		switch {
		case t.ID() == arrow.NULL || IsInteger(t):
			accumulate, result = TypeBigint, TypeBigint
		case t.ID() == arrow.DECIMAL128:
			accumulate, result = t, &arrow.Decimal128Type{Precision: 38, Scale: t.(*arrow.Decimal128Type).Scale}
		case IsNumeric(t):
			accumulate, result = TypeDouble, TypeDouble
		default:
			return nil, nil, fmt.Errorf("needs a number, got %s", TypeString(t))
		}
	case AggAvg, AggStddevSamp, AggStddevPop, AggVarSamp, AggVarPop, AggProduct, AggSkewness, AggKurtosis, AggKurtosisPop:
		if t.ID() != arrow.NULL && !IsNumeric(t) {
			return nil, nil, fmt.Errorf("needs a number, got %s", TypeString(t))
		}
		accumulate, result = TypeDouble, TypeDouble
		if fn == AggAvg && t.ID() == arrow.DECIMAL128 {
			// Decimal averages sum exactly and divide once at the end.
			accumulate = t
		}
	case AggBitAnd, AggBitOr, AggBitXor:
		switch {
		case t.ID() == arrow.NULL:
			accumulate, result = TypeBigint, TypeBigint
		case IsInteger(t):
			accumulate, result = t, t
		default:
			return nil, nil, fmt.Errorf("needs an integer, got %s", TypeString(t))
		}
	default: // min, max, any_value, mode
		if t.ID() == arrow.NULL {
			t = TypeBigint
		}
		if !isOrderable(t) {
			return nil, nil, fmt.Errorf("cannot order values of type %s", TypeString(t))
		}
		accumulate, result = t, t
	}
	arg, err := castTo(arg, accumulate)
	return arg, result, err
}

// isOrderable reports whether values of t can be compared by min, max,
// ORDER BY and grouping: structs, arrays and maps of such values too, in
// the order of exec/expr's nested keys.
func isOrderable(t arrow.DataType) bool {
	if ext, ok := t.(arrow.ExtensionType); ok {
		t = ext.StorageType()
	}
	switch t.ID() {
	case arrow.BOOL, arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64, arrow.FLOAT32, arrow.FLOAT64,
		arrow.DECIMAL128, arrow.DATE32, arrow.TIME64, arrow.TIMESTAMP,
		arrow.STRING, arrow.BINARY, arrow.FIXED_SIZE_BINARY, arrow.NULL:
		return true
	case arrow.MAP:
		m := t.(*arrow.MapType)
		return isOrderable(m.KeyType()) && isOrderable(m.ItemType())
	case arrow.LIST:
		return isOrderable(t.(*arrow.ListType).Elem())
	case arrow.STRUCT:
		for _, f := range t.(*arrow.StructType).Fields() {
			if !isOrderable(f.Type) {
				return false
			}
		}
		return true
	}
	return false
}

// finish rewrites an expression bound over the block's input into one over
// the Aggregate's output: group expressions become references to their
// group column, aggregate calls already are. A column left over is neither
// grouped nor aggregated, which is an error located in src.
func (a *aggregator) finish(e Expr, src sql.Expr) (Expr, error) {
	grouped := Rewrite(e, func(x Expr) Expr {
		if out, ok := a.groupOutput(x); ok {
			return out
		}
		return x
	})
	var stray *ColumnRef
	Walk(grouped, func(x Expr) {
		if ref, ok := x.(*ColumnRef); ok && stray == nil {
			stray = ref
		}
	})
	if stray != nil {
		pos, ok := columnPos(src, stray.Name)
		if !ok {
			pos = src.Position()
		}
		return nil, errorf(pos, "column %q must appear in the GROUP BY clause or be used in an aggregate function", stray.Name)
	}
	return Rewrite(grouped, func(x Expr) Expr {
		if out, ok := x.(*aggOutput); ok {
			return &ColumnRef{Index: out.Index, Name: out.Name, T: out.T}
		}
		return x
	}), nil
}

// plan builds the Aggregate node over input.
func (a *aggregator) plan(input Plan) *Aggregate {
	names := make([]string, 0, len(a.groups)+len(a.calls))
	for _, g := range a.groups {
		names = append(names, g.String())
	}
	return &Aggregate{Input: input, GroupBy: a.groups, Aggs: a.calls, Names: append(names, a.names...)}
}

// nameCall names the output of the aggregate call e refers to, when e is
// exactly one (SELECT count(*) AS n names the column n in EXPLAIN).
func (a *aggregator) nameCall(e Expr, name string) {
	out, ok := e.(*aggOutput)
	if !ok || out.Index < len(a.groups) {
		return
	}
	i := out.Index - len(a.groups)
	if a.names[i] == a.calls[i].String() {
		a.names[i] = name
		out.Name = name
	}
}

// columnPos finds where src names a column outside of aggregate calls, for
// error messages: the first place, in the order the SQL is written.
func columnPos(src sql.Expr, name string) (pos sql.Pos, found bool) {
	sql.Inspect(src, func(e sql.Expr) bool {
		switch e := e.(type) {
		case *sql.ColumnRef:
			if !found && strings.EqualFold(e.Parts[len(e.Parts)-1], name) {
				pos, found = e.Pos, true
			}
		case *sql.FuncCall:
			return !found && !IsAggregate(e)
		}
		return !found
	})
	return pos, found
}
