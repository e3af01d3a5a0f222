package planner

import (
	"fmt"
	"strings"
)

// Unnest emits, for each input row, one row per element of List (an array)
// or entry of it (a map): the input's columns followed by Columns — the
// element (or key and value), with the element's position first (Position,
// from 0, as Spark's posexplode) or last (Ordinality, from 1, as UNNEST …
// WITH ORDINALITY). A row whose List is NULL or empty yields nothing, or
// with Outer one row of NULLs.
type Unnest struct {
	Input      Plan
	List       Expr
	Outer      bool
	Position   bool
	Ordinality bool
	Func       string // the generator as written, for EXPLAIN
	Columns    []Column
}

func (u *Unnest) Schema() []Column {
	return append(append([]Column(nil), u.Input.Schema()...), u.Columns...)
}

func (u *Unnest) Children() []Plan { return []Plan{u.Input} }

func (u *Unnest) WithChildren(c []Plan) Plan { out := *u; out.Input = c[0]; return &out }

func (u *Unnest) Describe() string {
	names := make([]string, len(u.Columns))
	for i, c := range u.Columns {
		names[i] = c.Name
	}
	outer := ""
	if u.Outer {
		outer = " outer"
	}
	return fmt.Sprintf("Unnest%s %s(%s) AS (%s)", outer, u.Func, u.List, strings.Join(names, ", "))
}
