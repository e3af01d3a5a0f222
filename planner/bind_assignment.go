package planner

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakesql/lakesql/sql"
)

// BindAssignment binds the value of column = value (UPDATE … SET, and
// MERGE's UPDATE SET and INSERT VALUES) over cols and converts it to the
// column's type t by INSERT's assignment rules. A constant that does not fit
// the column is reported where it is written.
func BindAssignment(ctx context.Context, res Resolver, value sql.Expr, cols []Column, t arrow.DataType, column string) (Expr, error) {
	b := &binder{ctx: ctx, res: res, loc: timeZoneOf(ctx)}
	x, err := b.bindExpr(value, &scope{cols: cols})
	if err != nil {
		return nil, err
	}
	if HasSubquery(x) {
		return nil, errorf(value.Position(), "the value of column %s cannot be a subquery here", column)
	}
	if x, err = insertCast(x, t, column, value.Position()); err != nil {
		return nil, err
	}
	if x, err = b.localize(x); err != nil {
		return nil, errorf(value.Position(), "value for column %s: %v", column, err)
	}
	if lit, ok := x.(*Literal); ok {
		if x, err = castTo(lit, t); err != nil {
			return nil, errorf(value.Position(), "value for column %s: %v", column, err)
		}
	}
	return x, nil
}
