package planner

import (
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakesql/lakesql/sql"
	"github.com/lakesql/lakesql/storage"
)

// Functions and operators on structs, arrays and maps. Indexing follows
// Spark: a[i] counts from 0 and gives NULL out of range, element_at(a, i)
// counts from 1 (from the end when negative); m[k] and element_at(m, k)
// give NULL for a missing key.

const (
	FnGetField      = "get_field"      // (struct, 'field')
	FnSubscript     = "subscript"      // (array, index from 0) or (map, key)
	FnElementAt     = "element_at"     // (array, index from 1) or (map, key)
	FnSize          = "size"           // (array or map)
	FnArrayContains = "array_contains" // (array, value)
	FnMapKeys       = "map_keys"
	FnMapValues     = "map_values"
	FnMakeArray     = "array"        // (value, …)
	FnMakeStruct    = "named_struct" // ('name', value, …)
	FnMakeMap       = "map"          // (key, value, …)
	FnSplit         = "split"        // (string, pattern)
	FnStringSplit   = "string_split" // (string, separator), no pattern
)

// nestedFunctions are the registry entries of the functions above.
func nestedFunctions() map[string]*funcSpec {
	return map[string]*funcSpec{
		"array":          {"(value, …)", 0, -1, bindMakeArray},
		"struct":         {"(value, …)", 1, -1, bindMakeStruct},
		"named_struct":   {"('name', value, …)", 2, -1, bindNamedStruct},
		"map":            {"(key, value, …)", 0, -1, bindMakeMap},
		"element_at":     {"(array, index) or element_at(map, key)", 2, 2, bindElementAt},
		"size":           {"(array or map)", 1, 1, bindSize},
		"cardinality":    {"(array or map)", 1, 1, bindSize},
		"array_contains": {"(array, value)", 2, 2, bindArrayContains},
		"map_keys":       {"(map)", 1, 1, bindMapPart(FnMapKeys)},
		"map_values":     {"(map)", 1, 1, bindMapPart(FnMapValues)},
		"split":          {"(string, pattern)", 2, 2, typed(FnSplit, arrow.ListOfField(elementField(TypeVarchar)), stringArg, stringArg)},
		"string_split":   {"(string, separator)", 2, 2, typed(FnStringSplit, arrow.ListOfField(elementField(TypeVarchar)), stringArg, stringArg)},
	}
}

// elementField is the element of the arrays lakesql builds.
func elementField(t arrow.DataType) arrow.Field {
	return arrow.Field{Name: "element", Type: t, Nullable: true}
}

func bindMakeArray(_ *binder, c *funcCall) (Expr, error) {
	if allNull(c.args) {
		// array() and array(NULL) convert to any array type.
		return &Call{Fn: FnMakeArray, Args: c.args, T: arrow.ListOfField(elementField(TypeNull))}, nil
	}
	elems, err := unifyResults(c.pos, c.args...)
	if err != nil {
		return nil, err
	}
	return &Call{Fn: FnMakeArray, Args: elems, T: arrow.ListOfField(elementField(elems[0].Type()))}, nil
}

func allNull(args []Expr) bool {
	for _, a := range args {
		if a.Type().ID() != arrow.NULL {
			return false
		}
	}
	return true
}

func bindMakeMap(_ *binder, c *funcCall) (Expr, error) {
	if len(c.args)%2 != 0 {
		return nil, errorf(c.pos, "map(key, value, …) takes pairs of arguments, got %d", len(c.args))
	}
	if len(c.args) == 0 {
		// NULL-typed keys and values convert to any map type.
		return &Call{Fn: FnMakeMap, T: arrow.MapOfFields(arrow.Field{Name: "key", Type: TypeNull}, arrow.Field{Name: "value", Type: TypeNull, Nullable: true})}, nil
	}
	var keys, vals []Expr
	for i := 0; i < len(c.args); i += 2 {
		keys, vals = append(keys, c.args[i]), append(vals, c.args[i+1])
	}
	keys, err := unifyResults(c.pos, keys...)
	if err != nil {
		return nil, err
	}
	if storage.IsNested(keys[0].Type()) {
		return nil, kindErrorf(ErrType, c.pos, "map keys must be of a primitive type, not %s", TypeString(keys[0].Type()))
	}
	if !allNull(vals) { // map('k', NULL) keeps NULL values, as DuckDB's MAP {'k': NULL}
		if vals, err = unifyResults(c.pos, vals...); err != nil {
			return nil, err
		}
	}
	args := make([]Expr, 0, len(c.args))
	for i := range keys {
		args = append(args, keys[i], vals[i])
	}
	t := arrow.MapOfFields(arrow.Field{Name: "key", Type: keys[0].Type()}, arrow.Field{Name: "value", Type: vals[0].Type(), Nullable: true})
	return &Call{Fn: FnMakeMap, Args: args, T: t}, nil
}

// bindMakeStruct binds struct(a, b, …): fields are named after the columns
// they come from, else col1, col2, … as in Spark.
func bindMakeStruct(_ *binder, c *funcCall) (Expr, error) {
	args := make([]Expr, 0, 2*len(c.args))
	for i, a := range c.args {
		name := fmt.Sprintf("col%d", i+1)
		if ref, ok := a.(*ColumnRef); ok {
			name = ref.Name
		}
		args = append(args, stringLit(name), a)
	}
	return makeStruct(c, args)
}

func bindNamedStruct(_ *binder, c *funcCall) (Expr, error) {
	if len(c.args)%2 != 0 {
		return nil, errorf(c.pos, "named_struct('name', value, …) takes pairs of arguments, got %d", len(c.args))
	}
	for i := 0; i < len(c.args); i += 2 {
		lit, ok := c.args[i].(*Literal)
		if !ok || !isString(lit.T) || lit.Value == nil {
			return nil, errorf(c.pos, "named_struct: argument %d must be a constant string naming a field", i+1)
		}
	}
	return makeStruct(c, c.args)
}

// makeStruct types a named_struct call whose args alternate names and values.
func makeStruct(c *funcCall, args []Expr) (Expr, error) {
	var fields []arrow.Field
	seen := map[string]bool{}
	for i := 0; i < len(args); i += 2 {
		name := args[i].(*Literal).Value.(string)
		if seen[strings.ToLower(name)] {
			return nil, errorf(c.pos, "%s: field %s appears twice", c.name, name)
		}
		seen[strings.ToLower(name)] = true
		fields = append(fields, arrow.Field{Name: name, Type: args[i+1].Type(), Nullable: true})
	}
	return &Call{Fn: FnMakeStruct, Args: args, T: arrow.StructOf(fields...)}, nil
}

func bindElementAt(_ *binder, c *funcCall) (Expr, error) {
	return subscript(FnElementAt, c.args[0], c.args[1], c.pos)
}

// subscript binds x[index] (fn FnSubscript) and element_at(x, index).
func subscript(fn string, x, index Expr, pos sql.Pos) (Expr, error) {
	switch t := x.Type().(type) {
	case *arrow.ListType:
		i, ok := intArg(index)
		if !ok {
			return nil, kindErrorf(ErrType, pos, "an array index must be an integer, not %s", TypeString(index.Type()))
		}
		if lit, isLit := i.(*Literal); isLit && fn == FnElementAt && lit.Value == int64(0) {
			return nil, errorf(pos, "element_at: array indices start at 1 (use a[0] for 0-based indexing)")
		}
		return &Call{Fn: fn, Args: []Expr{x, i}, T: t.Elem()}, nil
	case *arrow.MapType:
		k, err := castTo(index, t.KeyType())
		if err != nil || !keyComparable(index.Type(), t.KeyType()) {
			return nil, kindErrorf(ErrType, pos, "a key of %s cannot be %s", TypeString(t), TypeString(index.Type()))
		}
		return &Call{Fn: fn, Args: []Expr{x, k}, T: t.ItemType()}, nil
	case *arrow.StructType:
		if lit, ok := index.(*Literal); ok && isString(lit.T) && lit.Value != nil {
			return fieldAccess(x, lit.Value.(string), pos)
		}
	}
	return nil, kindErrorf(ErrType, pos, "cannot index %s: only arrays and maps can be indexed", TypeString(x.Type()))
}

// keyComparable: a probe converts to a map's key type when the types match
// up to numeric widening or the probe is a string or NULL.
func keyComparable(probe, key arrow.DataType) bool {
	return arrow.TypeEqual(probe, key) || probe.ID() == arrow.NULL || isString(probe) ||
		IsNumeric(probe) && IsNumeric(key) || isTemporal(probe) && isTemporal(key)
}

// fieldAccess binds x.name on a struct; names match case-insensitively.
func fieldAccess(x Expr, name string, pos sql.Pos) (Expr, error) {
	st, ok := x.Type().(*arrow.StructType)
	if !ok {
		return nil, kindErrorf(ErrType, pos, "cannot read field %s of %s: only structs have fields", name, TypeString(x.Type()))
	}
	var names []string
	for _, f := range st.Fields() {
		if strings.EqualFold(f.Name, name) {
			return &Call{Fn: FnGetField, Args: []Expr{x, stringLit(f.Name)}, T: f.Type}, nil
		}
		names = append(names, f.Name)
	}
	return nil, kindErrorf(ErrUnknownColumn, pos, "struct %s has no field %s (fields: %s)", TypeString(st), name, strings.Join(names, ", "))
}

func bindSize(_ *binder, c *funcCall) (Expr, error) {
	switch c.args[0].Type().(type) {
	case *arrow.ListType, *arrow.MapType:
		return &Call{Fn: FnSize, Args: c.args, T: TypeInt}, nil
	}
	return nil, c.mismatch()
}

func bindArrayContains(_ *binder, c *funcCall) (Expr, error) {
	lt, ok := c.args[0].Type().(*arrow.ListType)
	if !ok || !keyComparable(c.args[1].Type(), lt.Elem()) {
		return nil, c.mismatch()
	}
	v, err := castTo(c.args[1], lt.Elem())
	if err != nil {
		return nil, errorf(c.pos, "%s: %v", c.name, err)
	}
	return &Call{Fn: FnArrayContains, Args: []Expr{c.args[0], v}, T: TypeBoolean}, nil
}

func bindMapPart(fn string) bindFn {
	return func(_ *binder, c *funcCall) (Expr, error) {
		mt, ok := c.args[0].Type().(*arrow.MapType)
		if !ok {
			return nil, c.mismatch()
		}
		t := mt.KeyType()
		if fn == FnMapValues {
			t = mt.ItemType()
		}
		return &Call{Fn: fn, Args: c.args, T: arrow.ListOfField(elementField(t))}, nil
	}
}

// bindSubscript binds x[index].
func (b *binder) bindSubscript(e *sql.SubscriptExpr, s *scope) (Expr, error) {
	x, err := b.bindExpr(e.X, s)
	if err != nil {
		return nil, err
	}
	index, err := b.bindExpr(e.Index, s)
	if err != nil {
		return nil, err
	}
	return subscript(FnSubscript, x, index, e.Pos)
}

// bindField binds (x).name.
func (b *binder) bindField(e *sql.FieldExpr, s *scope) (Expr, error) {
	x, err := b.bindExpr(e.X, s)
	if err != nil {
		return nil, err
	}
	return fieldAccess(x, e.Field, e.Pos)
}

// fieldPath resolves a dotted name that is no column as a struct column
// followed by field names: s.a, t.s.a, s.a.b. ok is false when no prefix of
// the name is a struct column.
func (s *scope) fieldPath(ref *sql.ColumnRef) (Expr, bool, error) {
	for k := len(ref.Parts) - 1; k >= 1; k-- {
		i, err := s.resolve(&sql.ColumnRef{Parts: ref.Parts[:k], Pos: ref.Pos})
		if err != nil || s.cols[i].T.ID() != arrow.STRUCT {
			continue
		}
		var x Expr = &ColumnRef{Index: i, Name: s.cols[i].Name, T: s.cols[i].T}
		for _, name := range ref.Parts[k:] {
			if x, err = fieldAccess(x, name, ref.Pos); err != nil {
				return nil, true, err
			}
		}
		return x, true, nil
	}
	return nil, false, nil
}

// nestedAssignable reports whether INSERT converts nested type from to to:
// element by element, key and value, and field by field in order.
func nestedAssignable(from, to arrow.DataType) bool {
	switch f := from.(type) {
	case *arrow.ListType:
		t, ok := to.(*arrow.ListType)
		return ok && assignable(f.Elem(), t.Elem())
	case *arrow.MapType:
		t, ok := to.(*arrow.MapType)
		return ok && assignable(f.KeyType(), t.KeyType()) && assignable(f.ItemType(), t.ItemType())
	case *arrow.StructType:
		t, ok := to.(*arrow.StructType)
		if !ok || f.NumFields() != t.NumFields() {
			return false
		}
		for i := range f.NumFields() {
			if !assignable(f.Field(i).Type, t.Field(i).Type) {
				return false
			}
		}
		return true
	}
	return false
}

// commonNested is the type values of nested types a and b both convert to:
// their elements', keys' and values', or same-named fields', common types.
func commonNested(a, b arrow.DataType) arrow.DataType {
	switch a := a.(type) {
	case *arrow.ListType:
		if b, ok := b.(*arrow.ListType); ok {
			if e := commonType(a.Elem(), b.Elem()); e != nil {
				return arrow.ListOfField(elementField(e))
			}
		}
	case *arrow.MapType:
		if b, ok := b.(*arrow.MapType); ok {
			k, v := commonType(a.KeyType(), b.KeyType()), commonType(a.ItemType(), b.ItemType())
			if k != nil && v != nil {
				return arrow.MapOfFields(arrow.Field{Name: "key", Type: k}, arrow.Field{Name: "value", Type: v, Nullable: true})
			}
		}
	case *arrow.StructType:
		b, ok := b.(*arrow.StructType)
		if !ok || a.NumFields() != b.NumFields() {
			return nil
		}
		fields := make([]arrow.Field, a.NumFields())
		for i, f := range a.Fields() {
			t := commonType(f.Type, b.Field(i).Type)
			if t == nil || !strings.EqualFold(f.Name, b.Field(i).Name) {
				return nil
			}
			fields[i] = arrow.Field{Name: f.Name, Type: t, Nullable: true}
		}
		return arrow.StructOf(fields...)
	}
	return nil
}

// fieldName returns the field a get_field call reads.
func fieldName(e Expr) (string, bool) {
	c, ok := e.(*Call)
	if !ok || c.Fn != FnGetField {
		return "", false
	}
	return c.Args[1].(*Literal).Value.(string), true
}
