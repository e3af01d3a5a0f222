package mysqldialect

import (
	"github.com/pingcap/tidb/pkg/parser/ast"

	"github.com/lakesql/lakesql/sql"
)

// query translates SELECT, a set operation (UNION …) or VALUES/TABLE.
func (t *translator) query(n ast.ResultSetNode) (*sql.Query, error) {
	switch st := n.(type) {
	case *ast.SelectStmt:
		return t.selectQuery(st)
	case *ast.SetOprStmt:
		return t.setOprQuery(st)
	case *ast.SubqueryExpr:
		return t.query(st.Query)
	}
	return nil, t.unsupported(n, "this query form")
}

// selectQuery is one SELECT block with its WITH, ORDER BY and LIMIT.
func (t *translator) selectQuery(st *ast.SelectStmt) (*sql.Query, error) {
	q := &sql.Query{Pos: t.pos(st)}
	var err error
	if err = t.with(q, st.With); err != nil {
		return nil, err
	}
	err = t.inWindowsOf(st, func() error {
		if q.Body, err = t.selectBody(st); err != nil {
			return err
		}
		return t.orderLimit(q, st.OrderBy, st.Limit)
	})
	if err != nil {
		return nil, err
	}
	return q, nil
}

// setOprQuery is L UNION|EXCEPT|INTERSECT [ALL] R …, left-associative as
// MySQL evaluates it.
func (t *translator) setOprQuery(st *ast.SetOprStmt) (*sql.Query, error) {
	q := &sql.Query{Pos: t.pos(st)}
	var err error
	if err = t.with(q, st.With); err != nil {
		return nil, err
	}
	if q.Body, err = t.setOprList(st.SelectList); err != nil {
		return nil, err
	}
	if err := t.orderLimit(q, st.OrderBy, st.Limit); err != nil {
		return nil, err
	}
	// TiDB may hang the trailing ORDER BY and LIMIT on the operand list;
	// they belong to the query.
	if inner, ok := q.Body.(*sql.Query); ok && q.With == nil && q.OrderBy == nil && q.Limit == nil {
		return inner, nil
	}
	return q, nil
}

func (t *translator) setOprList(list *ast.SetOprSelectList) (sql.SetExpr, error) {
	var body sql.SetExpr
	for _, item := range list.Selects {
		var (
			part sql.SetExpr
			op   *ast.SetOprType
			err  error
		)
		switch s := item.(type) {
		case *ast.SelectStmt:
			op = s.AfterSetOperator
			if s.IsInBraces || s.OrderBy != nil || s.Limit != nil || s.With != nil {
				part, err = t.selectQuery(s)
			} else {
				err = t.inWindowsOf(s, func() (err error) {
					part, err = t.selectBody(s)
					return err
				})
			}
		case *ast.SetOprSelectList:
			op = s.AfterSetOperator
			var inner sql.SetExpr
			if inner, err = t.setOprList(s); err == nil {
				sub := &sql.Query{Body: inner, Pos: t.pos(s)}
				if err = t.orderLimit(sub, s.OrderBy, s.Limit); err == nil {
					part = sub
				}
			}
		default:
			return nil, t.unsupported(item, "this set operand")
		}
		if err != nil {
			return nil, err
		}
		if body == nil {
			body = part
			continue
		}
		if op == nil {
			return nil, t.errorAt(item, "set operation without an operator")
		}
		set := &sql.SetOp{L: body, R: part, Pos: t.pos(item)}
		switch *op {
		case ast.Union, ast.UnionAll:
			set.Op = "UNION"
		case ast.Except, ast.ExceptAll:
			set.Op = "EXCEPT"
		case ast.Intersect, ast.IntersectAll:
			set.Op = "INTERSECT"
		}
		set.All = *op == ast.UnionAll || *op == ast.ExceptAll || *op == ast.IntersectAll
		body = set
	}
	if list.With != nil || list.OrderBy != nil || list.Limit != nil {
		q := &sql.Query{Body: body, Pos: t.pos(list)}
		var err error
		if err = t.with(q, list.With); err != nil {
			return nil, err
		}
		if err := t.orderLimit(q, list.OrderBy, list.Limit); err != nil {
			return nil, err
		}
		return q, nil
	}
	return body, nil
}

// selectBody is the SELECT … FROM … WHERE … GROUP BY … HAVING part.
func (t *translator) selectBody(st *ast.SelectStmt) (sql.SetExpr, error) {
	switch st.Kind {
	case ast.SelectStmtKindValues:
		return t.values(st)
	case ast.SelectStmtKindTable:
		return nil, t.unsupported(st, "TABLE t")
	}
	if st.SelectIntoOpt != nil {
		return nil, t.unsupported(st, "SELECT … INTO")
	}
	sel := &sql.Select{Distinct: st.Distinct, Pos: t.pos(st)}
	var err error
	if st.From != nil {
		if sel.From, err = t.tableExpr(st.From.TableRefs); err != nil {
			return nil, err
		}
	}
	for _, f := range st.Fields.Fields {
		item, err := t.selectItem(f)
		if err != nil {
			return nil, err
		}
		sel.Items = append(sel.Items, item)
	}
	if sel.Where, err = t.optExpr(st.Where); err != nil {
		return nil, err
	}
	if st.GroupBy != nil {
		for _, item := range st.GroupBy.Items {
			e, err := t.expr(item.Expr)
			if err != nil {
				return nil, err
			}
			sel.GroupBy = append(sel.GroupBy, e)
		}
	}
	if st.Having != nil {
		if sel.Having, err = t.expr(st.Having.Expr); err != nil {
			return nil, err
		}
	}
	if st.GroupBy != nil && st.GroupBy.Rollup {
		return rollup(sel), nil
	}
	return sel, nil
}

// selectItem is expr [AS alias] or [t.]*. An expression without an alias is
// named by its text, as MySQL names it (SELECT count(*) → column "count(*)").
func (t *translator) selectItem(f *ast.SelectField) (sql.SelectItem, error) {
	if f.WildCard != nil {
		star := &sql.Star{Pos: t.pos(f)}
		if f.WildCard.Schema.O != "" {
			star.Table = append(star.Table, f.WildCard.Schema.O)
		}
		if f.WildCard.Table.O != "" {
			star.Table = append(star.Table, f.WildCard.Table.O)
		}
		return sql.SelectItem{Expr: star, Pos: t.pos(f)}, nil
	}
	e, err := t.expr(f.Expr)
	if err != nil {
		return sql.SelectItem{}, err
	}
	alias := f.AsName.O
	if alias == "" {
		if _, isColumn := f.Expr.(*ast.ColumnNameExpr); !isColumn {
			alias = f.Text()
		}
	}
	return sql.SelectItem{Expr: e, Alias: alias, Pos: t.pos(f)}, nil
}

func (t *translator) values(st *ast.SelectStmt) (sql.SetExpr, error) {
	v := &sql.Values{Pos: t.pos(st)}
	for _, row := range st.Lists {
		r, err := t.exprs(row.Values)
		if err != nil {
			return nil, err
		}
		v.Rows = append(v.Rows, r)
	}
	return v, nil
}

// with sets q's WITH list, RECURSIVE included.
func (t *translator) with(q *sql.Query, w *ast.WithClause) error {
	if w == nil {
		return nil
	}
	q.Recursive = w.IsRecursive
	q.With = make([]sql.CTE, len(w.CTEs))
	for i, c := range w.CTEs {
		cq, err := t.query(c.Query.Query)
		if err != nil {
			return err
		}
		q.With[i] = sql.CTE{Name: c.Name.O, Query: cq, Pos: t.pos(c)}
		for _, col := range c.ColNameList {
			q.With[i].Columns = append(q.With[i].Columns, col.O)
		}
	}
	return nil
}

// orderLimit sets ORDER BY and LIMIT [offset,] count / LIMIT count OFFSET offset.
func (t *translator) orderLimit(q *sql.Query, order *ast.OrderByClause, limit *ast.Limit) error {
	if order != nil {
		items, err := t.orderItems(order.Items)
		if err != nil {
			return err
		}
		q.OrderBy = items
	}
	if limit != nil {
		var err error
		if q.Limit, err = t.expr(limit.Count); err != nil {
			return err
		}
		if q.Offset, err = t.optExpr(limit.Offset); err != nil {
			return err
		}
	}
	return nil
}

// orderItems translates ORDER BY keys. MySQL sorts NULLs first ascending
// and last descending; lakesql's default is the opposite, so the order
// MySQL clients expect is spelled out.
func (t *translator) orderItems(items []*ast.ByItem) ([]sql.OrderItem, error) {
	out := make([]sql.OrderItem, len(items))
	for i, item := range items {
		e, err := t.expr(item.Expr)
		if err != nil {
			return nil, err
		}
		nullsFirst := !item.Desc
		out[i] = sql.OrderItem{Expr: e, Desc: item.Desc, NullsFirst: &nullsFirst}
	}
	return out, nil
}

// tableExpr translates a FROM item: a table, a derived table or a join.
func (t *translator) tableExpr(n ast.ResultSetNode) (sql.TableExpr, error) {
	switch x := n.(type) {
	case *ast.Join:
		return t.join(x)
	case *ast.TableSource:
		return t.tableSource(x)
	}
	return nil, t.unsupported(n, "this FROM item")
}

func (t *translator) join(j *ast.Join) (sql.TableExpr, error) {
	l, err := t.tableExpr(j.Left)
	if err != nil || j.Right == nil {
		return l, err
	}
	r, err := t.tableExpr(j.Right)
	if err != nil {
		return nil, err
	}
	out := &sql.Join{L: l, R: r, Natural: j.NaturalJoin, Pos: t.pos(j)}
	switch j.Tp {
	case ast.LeftJoin:
		out.Type = sql.JoinLeft
	case ast.RightJoin:
		out.Type = sql.JoinRight
	default:
		out.Type = sql.JoinCross
		if j.On != nil || len(j.Using) > 0 || j.NaturalJoin {
			out.Type = sql.JoinInner
		}
	}
	if j.On != nil {
		if out.On, err = t.expr(j.On.Expr); err != nil {
			return nil, err
		}
	}
	for _, c := range j.Using {
		out.Using = append(out.Using, c.Name.O)
	}
	return out, nil
}

func (t *translator) tableSource(ts *ast.TableSource) (sql.TableExpr, error) {
	alias := ts.AsName.O
	switch src := ts.Source.(type) {
	case *ast.TableName:
		if src.AsOf != nil {
			return nil, t.unsupported(src, "AS OF TIMESTAMP")
		}
		return &sql.TableName{Name: t.tableName(src), Alias: alias, Pos: t.pos(src)}, nil
	case *ast.SelectStmt, *ast.SetOprStmt:
		q, err := t.query(src)
		if err != nil {
			return nil, err
		}
		st := &sql.SubqueryTable{Query: q, Alias: alias, Pos: t.pos(ts)}
		for _, c := range ts.ColumnNames {
			st.ColAliases = append(st.ColAliases, c.O)
		}
		return st, nil
	case *ast.Join:
		if alias != "" {
			return nil, t.unsupported(ts, "an alias on a parenthesized join")
		}
		return t.join(src)
	}
	return nil, t.unsupported(ts, "this FROM item")
}
