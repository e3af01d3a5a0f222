package planner

import (
	"strings"

	"github.com/lakesql/lakesql/sql"
)

func (b *binder) bindSelect(sel *sql.Select) (Plan, error) {
	if sel.Distinct || len(sel.GroupBy) > 0 || sel.Having != nil {
		return nil, errorf(sel.Pos, "DISTINCT, GROUP BY and HAVING are not supported yet")
	}
	var input Plan = &Values{Rows: [][]Expr{{}}}
	if sel.From != nil {
		var err error
		if input, err = b.bindFrom(sel.From); err != nil {
			return nil, err
		}
	}
	s := &scope{cols: input.Schema()}
	if sel.Where != nil {
		cond, err := b.bindExpr(sel.Where, s)
		if err != nil {
			return nil, err
		}
		if cond, err = requireBoolean(cond, sel.Where.Position(), "WHERE"); err != nil {
			return nil, err
		}
		input = &Filter{Input: input, Cond: cond}
	}
	proj := &Project{Input: input}
	for _, item := range sel.Items {
		if star, ok := item.Expr.(*sql.Star); ok {
			if err := expandStar(proj, star, s); err != nil {
				return nil, err
			}
			continue
		}
		e, err := b.bindExpr(item.Expr, s)
		if err != nil {
			return nil, err
		}
		proj.Exprs = append(proj.Exprs, e)
		proj.Names = append(proj.Names, selectItemName(item))
	}
	return proj, nil
}

// expandStar adds the columns * or t.* stands for.
func expandStar(proj *Project, star *sql.Star, s *scope) error {
	matched := false
	for i, c := range s.cols {
		if len(star.Table) > 0 && !strings.EqualFold(c.Table, star.Table[len(star.Table)-1]) {
			continue
		}
		matched = true
		proj.Exprs = append(proj.Exprs, &ColumnRef{Index: i, Name: c.Name, T: c.T})
		proj.Names = append(proj.Names, c.Name)
	}
	if !matched && len(star.Table) > 0 {
		return errorf(star.Pos, "table %q is not in FROM", star.Table[len(star.Table)-1])
	}
	return nil
}

// selectItemName is the output name of a select item: its alias, the column
// name for a plain column, else the expression text.
func selectItemName(item sql.SelectItem) string {
	if item.Alias != "" {
		return item.Alias
	}
	if ref, ok := item.Expr.(*sql.ColumnRef); ok {
		return ref.Parts[len(ref.Parts)-1]
	}
	return sql.Format(item.Expr)
}
