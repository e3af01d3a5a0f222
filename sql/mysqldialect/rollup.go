package mysqldialect

import (
	"slices"
	"strconv"
	"strings"

	"github.com/lakesql/lakesql/sql"
)

// rollup is GROUP BY g1, …, gn WITH ROLLUP: the groups of g1 … gn, then
// those of g1 … gn-1 with gn NULL, and so on down to the grand total, as
// one UNION ALL of grouped blocks. A select item that is a rolled-up group
// expression (the same expression, its alias or its position) is NULL in
// the blocks that roll it up. As in MySQL, the grand total of no rows is
// no row. Without ORDER BY the super-aggregate rows come in no particular
// place.
func rollup(sel *sql.Select) sql.SetExpr {
	groups := sel.GroupBy
	var body sql.SetExpr
	for k := len(groups); k >= 0; k-- {
		b := *sel
		b.GroupBy = slices.Clone(groups[:k])
		b.Items = slices.Clone(sel.Items)
		for i, item := range b.Items {
			if slices.ContainsFunc(groups[k:], func(g sql.Expr) bool { return groupsItem(g, i, item) }) {
				if b.Items[i].Alias == "" {
					b.Items[i].Alias = itemName(item)
				}
				b.Items[i].Expr = &sql.Literal{Kind: sql.LitNull, Pos: item.Pos}
			}
		}
		if k == 0 {
			nonEmpty := &sql.BinaryExpr{Op: ">", L: &sql.FuncCall{Name: "count", Star: true, Pos: sel.Pos},
				R: &sql.Literal{Kind: sql.LitInteger, Value: "0", Pos: sel.Pos}, Pos: sel.Pos}
			if b.Having == nil {
				b.Having = nonEmpty
			} else {
				b.Having = &sql.BinaryExpr{Op: "AND", L: b.Having, R: nonEmpty, Pos: sel.Pos}
			}
		}
		if body == nil {
			body = &b
		} else {
			body = &sql.SetOp{Op: "UNION", All: true, L: body, R: &b, Pos: sel.Pos}
		}
	}
	return body
}

// groupsItem reports whether GROUP BY expression g names select item i:
// by its position, its alias or as the same expression.
func groupsItem(g sql.Expr, i int, item sql.SelectItem) bool {
	switch g := g.(type) {
	case *sql.Literal:
		if g.Kind == sql.LitInteger {
			n, err := strconv.Atoi(g.Value)
			return err == nil && n == i+1
		}
	case *sql.ColumnRef:
		if len(g.Parts) == 1 && item.Alias != "" && strings.EqualFold(g.Parts[0], item.Alias) {
			return true
		}
		if ref, ok := item.Expr.(*sql.ColumnRef); ok {
			return strings.EqualFold(g.Parts[len(g.Parts)-1], ref.Parts[len(ref.Parts)-1]) &&
				(len(g.Parts) == 1 || len(ref.Parts) == 1 || strings.EqualFold(sql.Format(g), sql.Format(ref)))
		}
	}
	return sql.Format(g) == sql.Format(item.Expr)
}

// itemName is the name a select item's column has.
func itemName(item sql.SelectItem) string {
	if ref, ok := item.Expr.(*sql.ColumnRef); ok {
		return ref.Parts[len(ref.Parts)-1]
	}
	return sql.Format(item.Expr)
}
