package planner

import (
	"slices"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakesql/lakesql/sql"
)

// Array functions of Spark, Trino and DuckDB beyond bind_nested.go's.
const (
	// array_sort(a ARRAY[, ascending BOOLEAN literal]) → ARRAY: the
	// elements in order, NULLs last.
	FnArraySort = "array_sort"
	// array_distinct(a ARRAY) → ARRAY: the first of equal elements, in
	// order, one NULL kept.
	FnArrayDistinct = "array_distinct"
	// array_join(a ARRAY<STRING>, sep STRING[, null_replacement STRING]) →
	// STRING.
	FnArrayJoin = "array_join"
	// list_concat(a ARRAY, …) → ARRAY: the elements of each in turn, a
	// NULL list skipped (DuckDB's list_concat, array_cat).
	FnListConcat = "list_concat"
	// a || b over arrays: as list_concat, but NULL when either is.
	FnListConcatStrict = "list_concat_strict"
)

// bindListConcat binds list_concat(a, …), also spelled list_cat, array_concat
// and array_cat: the arrays are brought to one element type.
func bindListConcat(_ *binder, c *funcCall) (Expr, error) {
	return listConcat(FnListConcat, c.pos, c.mismatch, c.args...)
}

func isList(t arrow.DataType) bool { return t.ID() == arrow.LIST }

// listConcat is the call fn of arrays brought to one type; mismatch is
// the error when one is not an array.
func listConcat(fn string, pos sql.Pos, mismatch func() error, args ...Expr) (Expr, error) {
	if !slices.ContainsFunc(args, func(a Expr) bool { return a.Type().ID() != arrow.NULL }) {
		return &Literal{T: TypeNull}, nil // untyped NULLs only
	}
	unified, err := unifyResults(pos, args...)
	if err != nil {
		return nil, err
	}
	t := unified[0].Type()
	if !isList(t) {
		return nil, mismatch()
	}
	return &Call{Fn: fn, Args: unified, T: t}, nil
}

// orderableArray is the array argument of array_sort and array_distinct:
// its elements must compare as ORDER BY compares them. An untyped NULL
// stays NULL.
func orderableArray(c *funcCall) (Expr, error) {
	if c.args[0].Type().ID() == arrow.NULL {
		return c.args[0], nil
	}
	lt, ok := c.args[0].Type().(*arrow.ListType)
	if !ok || !isOrderable(lt.Elem()) {
		return nil, c.mismatch()
	}
	return c.args[0], nil
}

// bindArraySort binds array_sort(a) (Spark, Trino) and list_sort(a[,
// 'ASC'|'DESC']) (DuckDB): NULLs last in both orders, as all three do.
func bindArraySort(_ *binder, c *funcCall) (Expr, error) {
	a, err := orderableArray(c)
	if err != nil || a.Type().ID() == arrow.NULL {
		return a, err
	}
	asc := true
	if len(c.args) == 2 {
		order, err := requireStringConstant(c, 1, "order")
		if err != nil {
			return nil, err
		}
		if err := oneOf(c, "order", order, []string{"ASC", "DESC"}); err != nil {
			return nil, err
		}
		asc = order == "ASC"
	}
	return &Call{Fn: FnArraySort, Args: []Expr{a, &Literal{Value: asc, T: TypeBoolean}}, T: a.Type()}, nil
}

// bindArrayDistinct binds array_distinct(a) with Spark's and Trino's
// rules: the first of equal elements in order, and one NULL if any. (DuckDB's
// list_distinct drops NULLs and keeps no order.)
func bindArrayDistinct(_ *binder, c *funcCall) (Expr, error) {
	a, err := orderableArray(c)
	if err != nil || a.Type().ID() == arrow.NULL {
		return a, err
	}
	return &Call{Fn: FnArrayDistinct, Args: []Expr{a}, T: a.Type()}, nil
}

// bindArrayJoin binds array_join(a, sep[, null_replacement]) (Spark,
// Trino) and DuckDB's array_to_string(a, sep): elements of other types
// are cast to STRING first, as Trino does.
func bindArrayJoin(_ *binder, c *funcCall) (Expr, error) {
	a := c.args[0]
	switch t := a.Type().(type) {
	case *arrow.ListType:
		if !isString(t.Elem()) {
			x, err := castTo(a, arrow.ListOfField(elementField(TypeVarchar)))
			if err != nil {
				return nil, c.mismatch()
			}
			a = x
		}
	default:
		if t.ID() != arrow.NULL {
			return nil, c.mismatch()
		}
		a = castFolded(a, arrow.ListOfField(elementField(TypeVarchar)))
	}
	rest, err := (&funcCall{name: c.name, pos: c.pos, args: c.args[1:], spec: c.spec}).convert(stringArg, stringArg)
	if err != nil {
		return nil, err
	}
	return &Call{Fn: FnArrayJoin, Args: append([]Expr{a}, rest...), T: TypeVarchar}, nil
}

// bindListContains binds DuckDB's list_contains(a, v), which differs from
// Spark's array_contains only where the array holds NULLs but not v:
// FALSE, not NULL. A NULL array or value gives NULL.
func bindListContains(b *binder, c *funcCall) (Expr, error) {
	if c.args[0].Type().ID() == arrow.NULL {
		return &Literal{T: TypeBoolean}, nil
	}
	contains, err := bindArrayContains(b, c)
	if err != nil {
		return nil, err
	}
	args := contains.(*Call).Args
	known := &Call{Fn: FnAnd, Args: []Expr{
		&Call{Fn: FnIsNotNull, Args: args[:1], T: TypeBoolean},
		&Call{Fn: FnIsNotNull, Args: args[1:], T: TypeBoolean},
	}, T: TypeBoolean}
	found := &Call{Fn: FnCoalesce, Args: []Expr{contains, &Literal{Value: false, T: TypeBoolean}}, T: TypeBoolean}
	return &Case{Whens: []CaseWhen{{Cond: known, Result: found}}, Else: &Literal{T: TypeBoolean}, T: TypeBoolean}, nil
}
