package planner

import (
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakesql/lakesql/storage"
)

// Map functions of DuckDB and Spark beyond bind_nested.go's.
const (
	// map_entries(m MAP) → ARRAY<STRUCT<key, value>>.
	FnMapEntries = "map_entries"
	// map_from_entries(a ARRAY<STRUCT<k, v>>) → MAP<k, v>: a NULL entry or
	// key, or a key twice, is an error (DuckDB; Spark's default).
	FnMapFromEntries = "map_from_entries"
	// map_concat(m MAP, …) → MAP: the entries of each in turn, a later
	// value replacing an earlier one of the same key; NULL maps are skipped,
	// and NULL only when all are (DuckDB).
	FnMapConcat = "map_concat"
	// str_to_map(text, pairDelim, keyValueDelim) → MAP<STRING, STRING>
	// (Spark; the delimiters are regular expressions, ',' and ':' when
	// omitted).
	FnStrToMap = "str_to_map"
)

// entryStruct is the element of map_entries' arrays.
func entryStruct(mt *arrow.MapType) *arrow.StructType {
	return arrow.StructOf(arrow.Field{Name: "key", Type: mt.KeyType(), Nullable: true},
		arrow.Field{Name: "value", Type: mt.ItemType(), Nullable: true})
}

func bindMapEntries(_ *binder, c *funcCall) (Expr, error) {
	if c.args[0].Type().ID() == arrow.NULL {
		return c.args[0], nil
	}
	mt, ok := c.args[0].Type().(*arrow.MapType)
	if !ok {
		return nil, c.mismatch()
	}
	return &Call{Fn: FnMapEntries, Args: c.args, T: arrow.ListOfField(elementField(entryStruct(mt)))}, nil
}

func bindMapFromEntries(_ *binder, c *funcCall) (Expr, error) {
	a, lt, ok, err := listArg(c, 0)
	if err != nil || !ok {
		return a, err
	}
	if lt.Elem().ID() == arrow.NULL { // map_from_entries([]): an empty map
		return bindMakeMap(nil, &funcCall{name: c.name, pos: c.pos})
	}
	st, ok := lt.Elem().(*arrow.StructType)
	if !ok || st.NumFields() != 2 {
		return nil, c.mismatch()
	}
	if storage.IsNested(st.Field(0).Type) {
		return nil, kindErrorf(ErrType, c.pos, "map keys must be of a primitive type, not %s", TypeString(st.Field(0).Type))
	}
	t := arrow.MapOfFields(arrow.Field{Name: "key", Type: st.Field(0).Type}, arrow.Field{Name: "value", Type: st.Field(1).Type, Nullable: true})
	return &Call{Fn: FnMapFromEntries, Args: []Expr{a}, T: t}, nil
}

// bindMapConcat brings the maps to one type.
func bindMapConcat(_ *binder, c *funcCall) (Expr, error) {
	if allNull(c.args) {
		return &Literal{T: TypeNull}, nil
	}
	maps, err := unifyResults(c.pos, c.args...)
	if err != nil {
		return nil, err
	}
	if maps[0].Type().ID() != arrow.MAP {
		return nil, c.mismatch()
	}
	return &Call{Fn: FnMapConcat, Args: maps, T: maps[0].Type()}, nil
}
