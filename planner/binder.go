package planner

import (
	"context"
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakesql/lakesql/sql"
)

// Resolver finds tables for the binder.
type Resolver interface {
	// ResolveTable resolves a table name as written (1–3 parts) at its current
	// snapshot, or at the snapshot time travel asks for.
	ResolveTable(ctx context.Context, name sql.ObjectName, travel *sql.TimeTravel) (*TableRef, error)
}

type binder struct {
	ctx context.Context
	res Resolver
}

// BindQuery binds a query into a logical plan.
func BindQuery(ctx context.Context, res Resolver, q *sql.Query) (Plan, error) {
	b := &binder{ctx: ctx, res: res}
	return b.bindQuery(q)
}

// BindExpr binds an expression over a known set of columns (for example the
// values of INSERT … VALUES, bound over no columns).
func BindExpr(ctx context.Context, res Resolver, e sql.Expr, cols []Column) (Expr, error) {
	b := &binder{ctx: ctx, res: res}
	return b.bindExpr(e, &scope{cols: cols})
}

func (b *binder) bindQuery(q *sql.Query) (Plan, error) {
	if len(q.With) > 0 {
		return nil, errorf(q.Pos, "WITH is not supported yet")
	}
	if len(q.OrderBy) > 0 {
		return nil, errorf(q.Pos, "ORDER BY is not supported yet")
	}
	plan, err := b.bindSetExpr(q.Body)
	if err != nil {
		return nil, err
	}
	if q.Limit == nil && q.Offset == nil {
		return plan, nil
	}
	limit, offset := int64(-1), int64(0)
	if q.Limit != nil {
		if limit, err = b.constantCount(q.Limit, "LIMIT"); err != nil {
			return nil, err
		}
	}
	if q.Offset != nil {
		if offset, err = b.constantCount(q.Offset, "OFFSET"); err != nil {
			return nil, err
		}
	}
	return &Limit{Input: plan, Limit: limit, Offset: offset}, nil
}

// constantCount evaluates a LIMIT or OFFSET, which must be a non-negative integer constant.
func (b *binder) constantCount(e sql.Expr, clause string) (int64, error) {
	x, err := b.bindExpr(e, &scope{})
	if err != nil {
		return 0, err
	}
	lit, ok := x.(*Literal)
	if ok && IsInteger(lit.T) {
		if n, _ := literalInt(lit.Value); n >= 0 {
			return n, nil
		}
	}
	return 0, errorf(e.Position(), "%s needs a non-negative integer constant", clause)
}

func (b *binder) bindSetExpr(body sql.SetExpr) (Plan, error) {
	switch body := body.(type) {
	case *sql.Select:
		return b.bindSelect(body)
	case *sql.Query:
		return b.bindQuery(body)
	case *sql.Values:
		return b.bindValues(body)
	case *sql.SetOp:
		return nil, errorf(body.Pos, "%s is not supported yet", body.Op)
	}
	return nil, fmt.Errorf("unknown query body %T", body)
}

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

func (b *binder) bindFrom(from sql.TableExpr) (Plan, error) {
	switch t := from.(type) {
	case *sql.TableName:
		ref, err := b.res.ResolveTable(b.ctx, t.Name, t.TimeTravel)
		if err != nil {
			return nil, err
		}
		return NewScan(ref, t.Alias)
	case *sql.TableFunc:
		return nil, errorf(t.Pos, "table function %s is not supported yet", t.Name)
	case *sql.SubqueryTable:
		return nil, errorf(t.Pos, "subqueries in FROM are not supported yet")
	case *sql.Join:
		return nil, errorf(t.Pos, "joins are not supported yet")
	}
	return nil, fmt.Errorf("unknown FROM item %T", from)
}

// NewScan scans every column of a table; projection pruning narrows it later.
func NewScan(ref *TableRef, alias string) (*Scan, error) {
	scan := &Scan{Table: ref, Alias: alias}
	for _, f := range ref.Schema.Fields() {
		t, err := ArrowTypeOf(f.Type)
		if err != nil {
			return nil, fmt.Errorf("table %s column %s: %w", ref.QualifiedName(), f.Name, err)
		}
		scan.Columns = append(scan.Columns, ScanColumn{FieldID: f.ID, Name: f.Name, T: t})
	}
	return scan, nil
}

func (b *binder) bindValues(v *sql.Values) (Plan, error) {
	if len(v.Rows) == 0 {
		return nil, errorf(v.Pos, "VALUES needs at least one row")
	}
	width := len(v.Rows[0])
	rows := make([][]Expr, len(v.Rows))
	for i, row := range v.Rows {
		if len(row) != width {
			return nil, errorf(v.Pos, "VALUES row %d has %d values, the first row has %d", i+1, len(row), width)
		}
		rows[i] = make([]Expr, width)
		for j, e := range row {
			x, err := b.bindExpr(e, &scope{})
			if err != nil {
				return nil, err
			}
			rows[i][j] = x
		}
	}
	// Each column takes the common type of its values.
	cols := make([]Column, width)
	for j := range width {
		column := make([]Expr, len(rows))
		for i := range rows {
			column[i] = rows[i][j]
		}
		unified, err := unifyResults(v.Pos, column...)
		if err != nil {
			return nil, err
		}
		for i := range rows {
			rows[i][j] = unified[i]
		}
		t := unified[0].Type()
		if t.ID() == arrow.NULL {
			t = TypeVarchar
			for i := range rows {
				rows[i][j] = &Literal{T: t}
			}
		}
		cols[j] = Column{Name: fmt.Sprintf("col%d", j+1), T: t}
	}
	return &Values{Columns: cols, Rows: rows}, nil
}
