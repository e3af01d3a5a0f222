package planner

import "github.com/apache/arrow-go/v18/arrow"

// sortKeysOf expands one ORDER BY key into the keys the executor sorts by.
// Intervals sort by their length (intervalKeys). A STRUCT sorts as in Spark:
// field by field in declaration order, each with the key's direction, so
// ORDER BY partition orders a metadata table's rows by their partition
// values. A NULL struct goes first or last as the key's NULLS FIRST/LAST
// says, through a leading IS NULL key; a NULL field is smaller than any
// value, as in Spark and as struct comparisons and min/max have it
// (exec/expr/nested_keys.go), so it comes first ascending, last descending.
func sortKeysOf(key SortKey) []SortKey {
	switch t := key.Expr.Type().(type) {
	case *arrow.StructType:
		keys := []SortKey{{Expr: &Call{Fn: FnIsNull, Args: []Expr{key.Expr}, T: TypeBoolean}, Desc: key.NullsFirst}}
		for _, f := range t.Fields() {
			field := &Call{Fn: FnGetField, Args: []Expr{key.Expr, stringLit(f.Name)}, T: f.Type}
			keys = append(keys, sortKeysOf(SortKey{Expr: field, Desc: key.Desc, NullsFirst: !key.Desc})...)
		}
		return keys
	}
	if isInterval(key.Expr.Type()) {
		key.Expr = intervalKeys([]Expr{key.Expr})[0]
	}
	return []SortKey{key}
}
