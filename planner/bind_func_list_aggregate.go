package planner

import (
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
)

// FnListAggregate is list_aggregate(a ARRAY, 'aggregate' literal): the
// aggregate of each array's elements, as the aggregate of a group of rows
// would be (DuckDB's list_aggregate and its list_sum, list_min, …; Spark's
// array_min and array_max). The executor folds the elements with the
// aggregates' own accumulators; ListAggCall describes the aggregate.
const FnListAggregate = "list_aggregate"

// listAggregates are the aggregates list_aggregate takes by name: those
// of one argument and no options. DuckDB names each list_<name> too.
var listAggregates = []string{
	"count", "sum", "avg", "min", "max", "any_value", "first", "last", "product",
	"bit_and", "bit_or", "bit_xor", "bool_and", "bool_or",
	"stddev_samp", "stddev_pop", "var_samp", "var_pop", "skewness", "kurtosis", "kurtosis_pop",
	"median", "mode",
}

// listAggregateFunctions are the registry entries list_<aggregate> of
// listAggregates and Spark's array_min and array_max.
func listAggregateFunctions() map[string]*funcSpec {
	fns := map[string]*funcSpec{
		"list_aggregate": {"(array, 'aggregate')", 2, 2, bindListAggregate},
		"array_min":      {"(array)", 1, 1, bindListAggregateOf("min")},
		"array_max":      {"(array)", 1, 1, bindListAggregateOf("max")},
	}
	for _, name := range listAggregates {
		fns["list_"+name] = &funcSpec{"(array)", 1, 1, bindListAggregateOf(name)}
	}
	return fns
}

// bindListAggregateOf binds list_<name>(a).
func bindListAggregateOf(name string) bindFn {
	return func(_ *binder, c *funcCall) (Expr, error) {
		return listAggregate(c, name)
	}
}

// bindListAggregate binds list_aggregate(a, 'name') (list_aggr,
// array_aggregate); mean is avg, as in aggregates.
func bindListAggregate(_ *binder, c *funcCall) (Expr, error) {
	lit, ok := c.args[1].(*Literal)
	if !ok || !isString(lit.T) || lit.Value == nil {
		return nil, errorf(c.pos, "%s: the aggregate must be a constant string", c.name)
	}
	name := strings.ToLower(lit.Value.(string))
	if name == "mean" {
		name = "avg"
	}
	if !slices.Contains(listAggregates, name) {
		return nil, errorf(c.pos, "%s: unknown aggregate %s (expected one of %s)", c.name, name, strings.Join(listAggregates, ", "))
	}
	return listAggregate(c, name)
}

// listAggregate types the aggregate name of the elements of c's first
// argument: the array is cast to the element type the accumulator reads.
func listAggregate(c *funcCall, name string) (Expr, error) {
	a := c.args[0]
	if a.Type().ID() == arrow.NULL {
		return &Literal{T: TypeNull}, nil
	}
	lt, ok := a.Type().(*arrow.ListType)
	if !ok {
		return nil, c.mismatch()
	}
	fn := aggregateFns[name]
	var elem, result arrow.DataType
	if fn == AggPercentileCont { // median: of numbers, interpolated as DOUBLE
		if lt.Elem().ID() != arrow.NULL && !IsNumeric(lt.Elem()) {
			return nil, c.mismatch()
		}
		elem, result = TypeDouble, TypeDouble
	} else {
		arg, t, err := aggregateArg(fn, &ColumnRef{Name: "element", T: lt.Elem()})
		if err != nil {
			return nil, errorf(c.pos, "%s: %v", c.name, err)
		}
		elem, result = arg.Type(), t
	}
	list, err := castTo(a, arrow.ListOfField(elementField(elem)))
	if err != nil {
		return nil, errorf(c.pos, "%s: %v", c.name, err)
	}
	return &Call{Fn: FnListAggregate, Args: []Expr{list, stringLit(fn)}, T: result}, nil
}

// ListAggCall is the aggregate a list_aggregate call computes over its
// array's elements.
func ListAggCall(c *Call) *AggCall {
	fn := c.Args[1].(*Literal).Value.(string)
	elem := c.Args[0].Type().(*arrow.ListType).Elem()
	return &AggCall{Fn: fn, Arg: &ColumnRef{Name: "element", T: elem}, Fraction: 0.5, T: c.T}
}
