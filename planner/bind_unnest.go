package planner

import (
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakesql/lakesql/sql"
)

// Generators turn an array or map into rows: Spark's explode and posexplode
// (with LATERAL VIEW [OUTER], or the _outer variants) and SQL's UNNEST (in
// FROM, after a comma or CROSS JOIN, or LEFT JOIN … ON TRUE to keep rows
// whose array is empty). Their argument may name the columns of the tables
// to their left.
var generators = map[string]bool{
	"unnest": true, "explode": true, "posexplode": true, "explode_outer": true, "posexplode_outer": true,
}

// lateralGenerator returns the generator on the right of a join, if any.
func lateralGenerator(j *sql.Join) (*sql.TableFunc, bool) {
	f, ok := j.R.(*sql.TableFunc)
	return f, ok && generators[f.Name]
}

// bindLateral binds L JOIN generator(…): the generator runs over each row of L.
func (b *binder) bindLateral(j *sql.Join, gen *sql.TableFunc) (Plan, error) {
	switch {
	case j.Type != sql.JoinCross && j.Type != sql.JoinInner && j.Type != sql.JoinLeft:
		return nil, errorf(j.Pos, "%s cannot be the right side of a %s JOIN", gen.Name, j.Type)
	case len(j.Using) > 0 || j.On != nil && !isTrue(j.On):
		return nil, errorf(j.Pos, "a join with %s takes no condition but ON TRUE", gen.Name)
	}
	left, err := b.bindFrom(j.L)
	if err != nil {
		return nil, err
	}
	return b.bindUnnest(left, gen, j.Type == sql.JoinLeft)
}

func isTrue(e sql.Expr) bool {
	lit, ok := e.(*sql.Literal)
	return ok && lit.Kind == sql.LitBool && lit.Value == "true"
}

// bindUnnest binds the generator f over the rows of input.
func (b *binder) bindUnnest(input Plan, f *sql.TableFunc, outer bool) (Plan, error) {
	if len(f.Args) != 1 {
		return nil, errorf(f.Pos, "%s takes one array or map, got %d arguments", f.Name, len(f.Args))
	}
	list, err := b.bindExpr(f.Args[0], &scope{cols: input.Schema()})
	if err != nil {
		return nil, err
	}
	u := &Unnest{
		Input: input, List: list, Func: f.Name,
		Outer:      outer || strings.HasSuffix(f.Name, "_outer"),
		Position:   strings.HasPrefix(f.Name, "posexplode"),
		Ordinality: f.Ordinality,
	}
	var names []string
	var types []arrow.DataType
	if u.Position {
		names, types = append(names, "pos"), append(types, TypeInt)
	}
	switch t := list.Type().(type) {
	case *arrow.ListType:
		names, types = append(names, "col"), append(types, t.Elem())
	case *arrow.MapType:
		names, types = append(names, "key", "value"), append(types, t.KeyType(), t.ItemType())
	default:
		return nil, kindErrorf(ErrType, f.Pos, "%s takes an array or a map, not %s", f.Name, TypeString(list.Type()))
	}
	if u.Ordinality {
		names, types = append(names, "ordinality"), append(types, TypeBigint)
	}
	if len(f.ColAliases) > 0 {
		if len(f.ColAliases) != len(names) {
			return nil, errorf(f.Pos, "%s gives %d columns (%s) but %d names are given", f.Name, len(names), strings.Join(names, ", "), len(f.ColAliases))
		}
		names = f.ColAliases
	}
	for i, n := range names {
		u.Columns = append(u.Columns, Column{Table: f.Alias, Name: n, T: types[i]})
	}
	return u, nil
}
