package planner

import (
	"strings"

	"github.com/lakesql/lakesql/sql"
)

// alignByName projects both inputs of a UNION BY NAME onto the same columns:
// the left's, in its order, then those only the right has, in its order,
// matched by name regardless of case. A column a side lacks is NULL there.
func (b *binder) alignByName(left, right Plan, pos sql.Pos) (Plan, Plan, error) {
	lcols, rcols := left.Schema(), right.Schema()
	var names []string
	for _, side := range [][]Column{lcols, rcols} {
		if dup := duplicateName(side); dup != "" {
			return nil, nil, errorf(pos, "UNION BY NAME: column %s appears twice on one side", dup)
		}
		for _, c := range side {
			if columnNamed(names, c.Name) < 0 {
				names = append(names, c.Name)
			}
		}
	}
	null, err := b.bindExpr(&sql.Literal{Kind: sql.LitNull, Pos: pos}, &scope{})
	if err != nil {
		return nil, nil, err
	}
	project := func(input Plan, cols []Column) Plan {
		p := &Project{Input: input, Names: names}
		for _, name := range names {
			var x Expr = null
			for i, c := range cols {
				if strings.EqualFold(c.Name, name) {
					x = &ColumnRef{Index: i, Name: c.Name, T: c.T}
				}
			}
			p.Exprs = append(p.Exprs, x)
		}
		return p
	}
	return project(left, lcols), project(right, rcols), nil
}

// duplicateName returns a name two of cols share (regardless of case), or "".
func duplicateName(cols []Column) string {
	var seen []string
	for _, c := range cols {
		if columnNamed(seen, c.Name) >= 0 {
			return c.Name
		}
		seen = append(seen, c.Name)
	}
	return ""
}

// columnNamed returns the index of name in names regardless of case, or -1.
func columnNamed(names []string, name string) int {
	for i, n := range names {
		if strings.EqualFold(n, name) {
			return i
		}
	}
	return -1
}
