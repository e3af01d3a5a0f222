package planner

import (
	"strings"

	"github.com/lakesql/lakesql/sql"
)

// selectGenerator is a generator written as an item of the select list,
// Spark's SELECT id, explode(items) AS item FROM t: the same Unnest that
// FROM t LATERAL VIEW explode(items) g AS item builds, put over the block's
// input after WHERE, its columns standing in for the item.
type selectGenerator struct {
	item   int // its index in the select list
	unnest *Unnest
	src    sql.Expr
}

// findSelectGenerator binds the generator item of a select list over input,
// or returns nil when there is none. As in Spark there is at most one, it
// is a whole item (explode(a) + 1 is an error where the function is
// bound), and the block does not group: the aggregate would see the
// exploded rows, which Spark's rules do not.
func (b *binder) findSelectGenerator(sel *sql.Select, input Plan) (*selectGenerator, error) {
	var g *selectGenerator
	for i, item := range sel.Items {
		call, ok := item.Expr.(*sql.FuncCall)
		if !ok || !generators[strings.ToLower(call.Name)] {
			if len(item.Aliases) > 0 {
				return nil, errorf(item.Pos, "AS (%s) names the columns of a generator (explode, posexplode); give %s one name", strings.Join(item.Aliases, ", "), sql.Format(item.Expr))
			}
			continue
		}
		if g != nil {
			return nil, errorf(call.Pos, "only one generator is allowed in a select list (%s and %s); use LATERAL VIEW for the second", sql.Format(sel.Items[g.item].Expr), sql.Format(call))
		}
		if call.Distinct || call.Star || call.Over != nil {
			return nil, errorf(call.Pos, "%s takes one array or map, without DISTINCT, * or OVER", call.Name)
		}
		if len(sel.GroupBy) > 0 || sel.Having != nil {
			return nil, errorf(call.Pos, "%s in the select list cannot be combined with GROUP BY or HAVING; explode in a subquery and group its rows", call.Name)
		}
		f := &sql.TableFunc{Name: strings.ToLower(call.Name), Args: call.Args, ColAliases: item.Aliases, Pos: call.Pos}
		if item.Alias != "" {
			f.ColAliases = []string{item.Alias}
		}
		plan, err := b.bindUnnest(input, f, false)
		if err != nil {
			return nil, err
		}
		g = &selectGenerator{item: i, unnest: plan.(*Unnest), src: call}
	}
	return g, nil
}

// items are the select items the generator stands for: its columns, which
// follow the input's in the Unnest's schema.
func (g *selectGenerator) items() []selectItem {
	first := len(g.unnest.Input.Schema())
	out := make([]selectItem, len(g.unnest.Columns))
	for k, c := range g.unnest.Columns {
		out[k] = selectItem{expr: &ColumnRef{Index: first + k, Name: c.Name, T: c.T}, name: c.Name, src: g.src}
	}
	return out
}
