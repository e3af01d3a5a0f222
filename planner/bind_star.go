package planner

import (
	"strings"

	"github.com/lakesql/lakesql/sql"
)

// expandStar returns the columns * or t.* stands for, less those its
// EXCLUDE list names, with its REPLACE expressions in place of the columns
// they name (DuckDB's star modifiers). Every name in either list must be a
// column of the star.
func (b *binder) expandStar(star *sql.Star, s *scope) ([]selectItem, error) {
	excluded := make([]bool, len(star.Exclude))
	replaced := make([]bool, len(star.Replace))
	var items []selectItem
	covered := 0
	for i, c := range s.cols {
		if !inStar(star, c) {
			continue
		}
		covered++
		if k := excludedBy(star.Exclude, c); k >= 0 {
			excluded[k] = true
			continue
		}
		if k := replacedBy(star.Replace, c); k >= 0 {
			replaced[k] = true
			x, err := b.bindExpr(star.Replace[k].Expr, s)
			if err != nil {
				return nil, err
			}
			items = append(items, selectItem{expr: x, name: c.Name, src: star.Replace[k].Expr})
			continue
		}
		if u, ok := c.T.(*UnreadableType); ok {
			return nil, errorf(star.Pos, "* includes column %s of Iceberg type %s, which lakesql cannot read yet; name the columns you need, or leave it out with * EXCLUDE (%s)", c.Name, u.Iceberg, sql.QuoteIdent(c.Name))
		}
		items = append(items, selectItem{expr: &ColumnRef{Index: i, Name: c.Name, T: c.T}, name: c.Name, src: star})
	}
	if covered == 0 && len(star.Table) > 0 {
		return nil, errorf(star.Pos, "table %q is not in FROM", star.Table[len(star.Table)-1])
	}
	stars := sql.Format(&sql.Star{Table: star.Table})
	for k, ref := range star.Exclude {
		if !excluded[k] {
			return nil, errorf(ref.Pos, "column %s in EXCLUDE is not a column of %s", sql.Format(ref), stars)
		}
	}
	if len(star.Exclude) > 0 {
		stars += " left by EXCLUDE"
	}
	for k, r := range star.Replace {
		if !replaced[k] {
			return nil, errorf(r.Pos, "column %s in REPLACE is not a column of %s", r.Alias, stars)
		}
	}
	return items, nil
}

// excludedBy returns the index of the EXCLUDE entry naming column c (by
// name, and by table when qualified), or -1.
func excludedBy(exclude []*sql.ColumnRef, c Column) int {
	for k, ref := range exclude {
		name := ref.Parts[len(ref.Parts)-1]
		if strings.EqualFold(c.Name, name) && (len(ref.Parts) == 1 || strings.EqualFold(c.Table, ref.Parts[len(ref.Parts)-2])) {
			return k
		}
	}
	return -1
}

// replacedBy returns the index of the REPLACE entry naming column c, or -1.
func replacedBy(replace []sql.SelectItem, c Column) int {
	for k, r := range replace {
		if strings.EqualFold(r.Alias, c.Name) {
			return k
		}
	}
	return -1
}

// inStar reports whether * or t.* includes a column: * the visible ones,
// t.* those of t, with its copies of JOIN … USING columns.
func inStar(star *sql.Star, c Column) bool {
	if len(star.Table) == 0 {
		return !c.Hidden
	}
	return strings.EqualFold(c.Table, star.Table[len(star.Table)-1]) && (!c.Hidden || c.UsingCopy)
}
