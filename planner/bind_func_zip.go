package planner

import (
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
)

// list_zip(a ARRAY, …) (DuckDB) and arrays_zip(a ARRAY, …) (Spark) →
// ARRAY<STRUCT>: the i-th struct holds the i-th element of each array, NULL
// past an array's end, as long as the longest array. DuckDB's counts a
// NULL array as empty; Spark's is NULL when any array is. The fields are
// named as in Spark: after the column an array comes from, else 0, 1, ….
const (
	FnListZip   = "list_zip"
	FnArraysZip = "arrays_zip"
)

func bindZip(fn string) bindFn {
	return func(_ *binder, c *funcCall) (Expr, error) {
		if fn == FnArraysZip && allNull(c.args) {
			return &Literal{T: TypeNull}, nil
		}
		fields := make([]arrow.Field, len(c.args))
		for i, a := range c.args {
			t := a.Type()
			if t.ID() == arrow.NULL {
				t = arrow.ListOfField(elementField(TypeNull))
				c.args[i] = castFolded(a, t)
			}
			lt, ok := t.(*arrow.ListType)
			if !ok {
				return nil, c.mismatch()
			}
			name := strconv.Itoa(i)
			if ref, ok := a.(*ColumnRef); ok {
				name = ref.Name
			}
			fields[i] = arrow.Field{Name: name, Type: lt.Elem(), Nullable: true}
		}
		return &Call{Fn: fn, Args: c.args, T: arrow.ListOfField(elementField(arrow.StructOf(fields...)))}, nil
	}
}
