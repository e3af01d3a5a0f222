package sql

// SubscriptExpr is x[index]: an array element (0-based, as in Spark) or a
// map value by key.
type SubscriptExpr struct {
	X, Index Expr
	Pos      Pos // the [
}

// SliceExpr is DuckDB's x[begin:end] or x[begin:end:step] on a list or a
// string: 1-based, both ends included, negative bounds counting from the
// end. A bound left out is nil.
type SliceExpr struct {
	X, Begin, End, Step Expr
	Pos                 Pos // the [
}

// FieldExpr is x.name on an expression that is not a plain column
// reference, such as (s).a, a[0].b or f(x).b; s.a on a column is a
// ColumnRef that the binder resolves to the field.
type FieldExpr struct {
	X     Expr
	Field string
	Pos   Pos // the .
}

// LambdaExpr is x -> body or (x, i) -> body, an argument of the
// functions that apply it to each element of a list (list_transform,
// list_filter, …).
type LambdaExpr struct {
	Params []string
	Body   Expr
	Pos    Pos // the first parameter
}

func (e *LambdaExpr) Position() Pos    { return e.Pos }
func (*LambdaExpr) expr()              {}
func (e *SubscriptExpr) Position() Pos { return e.Pos }
func (e *FieldExpr) Position() Pos     { return e.Pos }
func (e *SliceExpr) Position() Pos     { return e.Pos }
func (*SubscriptExpr) expr()           {}
func (*SliceExpr) expr()               {}
func (*FieldExpr) expr()               {}
