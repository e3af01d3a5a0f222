package planner

import (
	"github.com/apache/arrow-go/v18/arrow"
)

// List functions of DuckDB and Spark beyond bind_func_array.go's. Where
// both engines have a name, DuckDB's meaning wins; the Spark-only names
// keep Spark's (array_position gives 0 for a missing element where
// DuckDB's list_position gives NULL).
const (
	// list_reverse(a ARRAY) → ARRAY, also reverse(a).
	FnListReverse = "list_reverse"
	// list_slice(a ARRAY, begin, end[, step]) → ARRAY: DuckDB's, 1-based
	// and inclusive, negative bounds counting from the end; a negative step
	// walks from begin back to end. Also list_slice(s STRING, begin, end),
	// the characters (bind_slice.go).
	FnListSlice = "list_slice"
	// slice(a ARRAY, start, length) → ARRAY: Spark's; start counts from 1,
	// or from the end when negative.
	FnSlice = "slice"
	// flatten(a ARRAY<ARRAY>) → ARRAY: the inner arrays' elements, a NULL
	// inner array skipped.
	FnFlatten = "flatten"
	// array_compact(a ARRAY) → ARRAY without its NULL elements (Spark).
	FnArrayCompact = "array_compact"
	// array_remove(a ARRAY, v) → ARRAY without the elements equal to v
	// (Spark).
	FnArrayRemove = "array_remove"
	// list_position(a ARRAY, v) → BIGINT, cast to INT: the first 1-based index of v, NULL
	// when absent; a NULL v finds a NULL element (DuckDB).
	FnListPosition = "list_position"
	// array_position(a ARRAY, v) → BIGINT: as list_position but 0 when
	// absent, NULL when v is NULL (Spark).
	FnArrayPosition = "array_position"
	// array_repeat(v, count) → ARRAY of count copies of v (Spark).
	FnArrayRepeat = "array_repeat"
	// list_distinct(a ARRAY) → ARRAY: the distinct non-NULL elements, in
	// order of first appearance (DuckDB's order is unspecified).
	FnListDistinct = "list_distinct"
	// array_intersect(a, b) and array_except(a, b) → ARRAY: the distinct
	// elements of a also in b, or not in b, in a's order, NULL a value
	// like any other (Spark).
	FnArrayIntersect = "array_intersect"
	FnArrayExcept    = "array_except"
	// list_has_any(a, b) and list_has_all(a, b) → BOOLEAN: whether a holds
	// some, or every, non-NULL element of b (DuckDB).
	FnListHasAny = "list_has_any"
	FnListHasAll = "list_has_all"
	// arrays_overlap(a, b) → BOOLEAN: as list_has_any, but NULL instead of
	// FALSE when both are non-empty and either holds a NULL (Spark).
	FnArraysOverlap = "arrays_overlap"
)

// listArg is the array argument i of c; ok is false for an untyped NULL,
// whose call is NULL.
func listArg(c *funcCall, i int) (a Expr, lt *arrow.ListType, ok bool, err error) {
	a = c.args[i]
	if a.Type().ID() == arrow.NULL {
		return a, nil, false, nil
	}
	lt, isList := a.Type().(*arrow.ListType)
	if !isList {
		return nil, nil, false, c.mismatch()
	}
	return a, lt, true, nil
}

// bindListSameType binds fn(a, more…) whose result is a's type: a is an
// array, more are integers.
func bindListSameType(fn string) bindFn {
	return func(_ *binder, c *funcCall) (Expr, error) {
		a, _, ok, err := listArg(c, 0)
		if err != nil || !ok {
			return a, err
		}
		args := []Expr{a}
		for _, x := range c.args[1:] {
			i, isInt := intArg(x)
			if !isInt {
				return nil, c.mismatch()
			}
			args = append(args, i)
		}
		return &Call{Fn: fn, Args: args, T: a.Type()}, nil
	}
}

// bindReverse binds reverse of a string or of an array.
func bindReverse(b *binder, c *funcCall) (Expr, error) {
	if isList(c.args[0].Type()) {
		return bindListSameType(FnListReverse)(b, c)
	}
	return typed(FnReverse, TypeVarchar, stringArg)(b, c)
}

func bindFlatten(_ *binder, c *funcCall) (Expr, error) {
	a, lt, ok, err := listArg(c, 0)
	if err != nil || !ok {
		return a, err
	}
	if lt.Elem().ID() == arrow.NULL {
		return &Call{Fn: FnFlatten, Args: []Expr{castFolded(a, arrow.ListOfField(elementField(lt)))}, T: lt}, nil
	}
	if !isList(lt.Elem()) {
		return nil, c.mismatch()
	}
	return &Call{Fn: FnFlatten, Args: []Expr{a}, T: lt.Elem()}, nil
}

// bindArraySize binds Spark's array_size, size of arrays only.
func bindArraySize(b *binder, c *funcCall) (Expr, error) {
	if _, _, ok, err := listArg(c, 0); err != nil || !ok {
		return &Literal{T: TypeInt}, err
	}
	return bindSize(b, c)
}

// bindListValue binds fn(a, v) for v a value compared with a's elements:
// v is cast to the element type. result nil: the array's element type.
func bindListValue(fn string, result arrow.DataType) bindFn {
	return func(b *binder, c *funcCall) (Expr, error) {
		a, lt, ok, err := listArg(c, 0)
		if err != nil {
			return nil, err
		}
		t := result
		if t == nil {
			t = a.Type()
		}
		if !ok {
			return &Literal{T: t}, nil
		}
		if lt.Elem().ID() == arrow.NULL { // [] or [NULL]: of the value's type
			lt = arrow.ListOfField(elementField(c.args[1].Type()))
			a = castFolded(a, lt)
			if result == nil {
				t = lt
			}
		}
		if !keyComparable(c.args[1].Type(), lt.Elem()) {
			return nil, c.mismatch()
		}
		v, err := castTo(c.args[1], lt.Elem())
		if err != nil {
			return nil, errorf(c.pos, "%s: %v", c.name, err)
		}
		return &Call{Fn: fn, Args: []Expr{a, v}, T: t}, nil
	}
}

// bindListAppend binds list_append(a, v) and list_prepend(v, a) as
// list_concat with array(v): a NULL array counts as empty, as in DuckDB
// (Spark's array_append gives NULL).
func bindListAppend(prepend bool) bindFn {
	return func(b *binder, c *funcCall) (Expr, error) {
		list, v := c.args[0], c.args[1]
		if prepend {
			list, v = v, list
		}
		one, err := bindMakeArray(b, &funcCall{name: c.name, pos: c.pos, args: []Expr{v}})
		if err != nil {
			return nil, err
		}
		args := []Expr{list, one}
		if prepend {
			args = []Expr{one, list}
		}
		return listConcat(FnListConcat, c.pos, c.mismatch, args...)
	}
}

// bindArrayPushFront binds DuckDB's array_push_front(a, v), which is
// list_prepend(v, a).
func bindArrayPushFront(b *binder, c *funcCall) (Expr, error) {
	c.args[0], c.args[1] = c.args[1], c.args[0]
	return bindListAppend(true)(b, c)
}

// bindListExtract binds DuckDB's list_extract(a, i): element_at, but an
// index of 0 gives NULL instead of an error.
func bindListExtract(_ *binder, c *funcCall) (Expr, error) {
	if _, _, _, err := listArg(c, 0); err != nil {
		return nil, err
	}
	i, ok := intArg(c.args[1])
	if !ok {
		return nil, c.mismatch()
	}
	if c.args[0].Type().ID() == arrow.NULL {
		return &Literal{T: TypeNull}, nil
	}
	nonZero := &Call{Fn: FnNullIf, Args: []Expr{i, &Literal{Value: int64(0), T: TypeBigint}}, T: TypeBigint}
	return subscript(FnElementAt, c.args[0], nonZero, c.pos)
}

// bindListPosition binds DuckDB's list_position, an INT.
func bindListPosition(b *binder, c *funcCall) (Expr, error) {
	pos, err := bindListValue(FnListPosition, TypeBigint)(b, c)
	if err != nil {
		return nil, err
	}
	return castFolded(pos, TypeInt), nil
}

// bindArrayRepeat binds Spark's array_repeat(v, count).
func bindArrayRepeat(_ *binder, c *funcCall) (Expr, error) {
	n, ok := intArg(c.args[1])
	if !ok {
		return nil, c.mismatch()
	}
	v := c.args[0]
	return &Call{Fn: FnArrayRepeat, Args: []Expr{v, n}, T: arrow.ListOfField(elementField(v.Type()))}, nil
}

// bindListPair binds fn(a, b) of two arrays brought to one type; result
// nil is that type.
func bindListPair(fn string, result arrow.DataType) bindFn {
	return func(_ *binder, c *funcCall) (Expr, error) {
		pair, err := listConcat(fn, c.pos, c.mismatch, c.args...)
		if err != nil {
			return nil, err
		}
		call, ok := pair.(*Call)
		if !ok && result != nil { // untyped NULLs
			return &Literal{T: result}, nil
		}
		if !ok {
			return pair, nil
		}
		if !isOrderable(call.T.(*arrow.ListType).Elem()) {
			return nil, c.mismatch()
		}
		if result != nil {
			call.T = result
		}
		return call, nil
	}
}

// bindArrayUnion binds Spark's array_union(a, b) as
// array_distinct(a || b): NULL when either is.
func bindArrayUnion(b *binder, c *funcCall) (Expr, error) {
	both, err := bindListPair(FnListConcatStrict, nil)(b, c)
	if err != nil {
		return nil, err
	}
	if _, ok := both.(*Call); !ok {
		return both, nil
	}
	return &Call{Fn: FnArrayDistinct, Args: []Expr{both}, T: both.Type()}, nil
}

// bindListDistinct binds DuckDB's list_distinct(a).
func bindListDistinct(_ *binder, c *funcCall) (Expr, error) {
	a, err := orderableArray(c)
	if err != nil || a.Type().ID() == arrow.NULL {
		return a, err
	}
	return &Call{Fn: FnListDistinct, Args: []Expr{a}, T: a.Type()}, nil
}
