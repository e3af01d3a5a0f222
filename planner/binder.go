package planner

import (
	"context"
	"fmt"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakesql/lakesql/sql"
)

// Resolver finds tables for the binder.
type Resolver interface {
	// ResolveTable resolves a table name as written (1–3 parts) at its current
	// snapshot, or at the snapshot time travel asks for.
	ResolveTable(ctx context.Context, name sql.ObjectName, travel *sql.TimeTravel) (*TableRef, error)
	// ResolveMetadataTable resolves an Iceberg metadata table such as
	// ns.t.snapshots to its rows, or returns nil when name is no metadata
	// table. The binder asks it first, since ns.t.snapshots and
	// catalog.ns.t have the same shape.
	ResolveMetadataTable(ctx context.Context, name sql.ObjectName) (*Rows, error)
}

type binder struct {
	ctx context.Context
	res Resolver
	// ctes are the WITH definitions visible where the binder is (bind_cte.go).
	ctes *cteFrame
	// cteUses counts the references bound to each WITH definition; a
	// statement that references one more than once is bound again with
	// the counts known, sharing it (bind_cte.go).
	cteUses   map[*sql.CTE]int
	shareCTEs bool
	// defining are the WITH definitions being bound, innermost last, to
	// explain a query that reads itself (bind_cte.go).
	defining []*cteFrame
	// outer are the scopes of the queries enclosing a subquery being bound,
	// innermost last, to recognize correlated references (bind_subquery.go).
	outer []*scope
	// now is the statement's time, fixed on first use so that every
	// current_timestamp of a statement agrees (bind_func_datetime.go).
	now time.Time
	// loc is the session time zone, nil for UTC (timezone.go).
	loc *time.Location
	// views are the views being inlined, outermost first, to refuse a view
	// that refers to itself (bind_view.go).
	views []string
	// exprDepth counts the bindExpr calls in progress, so that only the
	// outermost one localizes (bind_expr.go); a subquery starts at 0.
	exprDepth int
}

// BindQuery binds a query into a logical plan.
func BindQuery(ctx context.Context, res Resolver, q *sql.Query) (Plan, error) {
	b := &binder{ctx: ctx, res: res, loc: timeZoneOf(ctx), cteUses: map[*sql.CTE]int{}}
	plan, err := b.bindQuery(q)
	if err != nil || !b.sharesCTE() {
		return plan, err
	}
	again := &binder{ctx: ctx, res: res, now: b.now, loc: b.loc, cteUses: b.cteUses, shareCTEs: true}
	return again.bindQuery(q)
}

// BindExpr binds an expression over a known set of columns (for example the
// values of INSERT … VALUES, bound over no columns).
func BindExpr(ctx context.Context, res Resolver, e sql.Expr, cols []Column) (Expr, error) {
	b := &binder{ctx: ctx, res: res, loc: timeZoneOf(ctx)}
	return b.bindExpr(e, &scope{cols: cols})
}

func (b *binder) bindQuery(q *sql.Query) (Plan, error) {
	depth := b.exprDepth
	b.exprDepth = 0
	defer func() { b.exprDepth = depth }()
	popCTEs, err := b.pushCTEs(q.With, q.Recursive)
	if err != nil {
		return nil, err
	}
	defer popCTEs()
	plan, err := b.bindOrderedBody(q.Body, q.OrderBy)
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
	return limitRows(plan, limit, offset), nil
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
		return b.bindSetOp(body)
	}
	return nil, fmt.Errorf("unknown query body %T", body)
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
