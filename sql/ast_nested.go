package sql

// SubscriptExpr is x[index]: an array element (0-based, as in Spark) or a
// map value by key.
type SubscriptExpr struct {
	X, Index Expr
	Pos      Pos // the [
}

// FieldExpr is x.name on an expression that is not a plain column
// reference, such as (s).a, a[0].b or f(x).b; s.a on a column is a
// ColumnRef that the binder resolves to the field.
type FieldExpr struct {
	X     Expr
	Field string
	Pos   Pos // the .
}

func (e *SubscriptExpr) Position() Pos { return e.Pos }
func (e *FieldExpr) Position() Pos     { return e.Pos }
func (*SubscriptExpr) expr()           {}
func (*FieldExpr) expr()               {}
