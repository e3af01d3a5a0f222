package mysqldialect

import "github.com/lakesql/lakesql/sql"

// rollup is GROUP BY g1, …, gn WITH ROLLUP: GROUP BY ROLLUP (g1, …, gn),
// which the planner computes (planner/bind_grouping_sets.go): the groups of
// g1 … gn, then those of g1 … gn-1 with gn NULL, and so on down to the
// grand total. Unlike standard SQL's ROLLUP, MySQL gives no grand total
// over no rows, which HAVING count(*) > 0 drops (every other group has
// rows).
func rollup(sel *sql.Select) *sql.Select {
	elems := make([][]sql.Expr, len(sel.GroupBy))
	for i, g := range sel.GroupBy {
		elems[i] = []sql.Expr{g}
	}
	sel.GroupBy = []sql.Expr{&sql.GroupingSets{Kind: "ROLLUP", Elems: elems, Pos: sel.Pos}}
	nonEmpty := &sql.BinaryExpr{Op: ">", L: &sql.FuncCall{Name: "count", Star: true, Pos: sel.Pos},
		R: &sql.Literal{Kind: sql.LitInteger, Value: "0", Pos: sel.Pos}, Pos: sel.Pos}
	if sel.Having == nil {
		sel.Having = nonEmpty
	} else {
		sel.Having = &sql.BinaryExpr{Op: "AND", L: sel.Having, R: nonEmpty, Pos: sel.Pos}
	}
	return sel
}
