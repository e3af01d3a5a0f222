package sql

// Inspect calls fn on e and then, depth first, on its subexpressions, as
// go/ast.Inspect does; when fn returns false it skips that expression's
// subexpressions. It does not enter subqueries: their expressions belong to
// another query block.
func Inspect(e Expr, fn func(Expr) bool) {
	if e == nil || !fn(e) {
		return
	}
	for _, sub := range subexpressions(e) {
		Inspect(sub, fn)
	}
}

// subexpressions lists the expressions directly inside e in the order they
// are written, nil ones included.
func subexpressions(e Expr) []Expr {
	switch e := e.(type) {
	case *Star:
		var subs []Expr
		for _, item := range e.Replace {
			subs = append(subs, item.Expr)
		}
		return subs
	case *Interval:
		return []Expr{e.Value}
	case *UnaryExpr:
		return []Expr{e.X}
	case *BinaryExpr:
		return []Expr{e.L, e.R}
	case *IsNullExpr:
		return []Expr{e.X}
	case *IsBoolExpr:
		return []Expr{e.X}
	case *IsDistinctExpr:
		return []Expr{e.L, e.R}
	case *BetweenExpr:
		return []Expr{e.X, e.Lo, e.Hi}
	case *InListExpr:
		return append([]Expr{e.X}, e.List...)
	case *RowExpr:
		return e.Items
	case *InSubqueryExpr:
		return []Expr{e.X}
	case *QuantifiedExpr:
		return []Expr{e.X}
	case *LikeExpr:
		return []Expr{e.X, e.Pattern, e.Escape}
	case *CaseExpr:
		subs := []Expr{e.Operand}
		for _, w := range e.Whens {
			subs = append(subs, w.Cond, w.Result)
		}
		return append(subs, e.Else)
	case *CastExpr:
		return []Expr{e.X}
	case *FuncCall:
		subs := append([]Expr(nil), e.Args...)
		subs = appendOrderExprs(subs, e.OrderBy)
		if e.Filter != nil {
			subs = append(subs, e.Filter)
		}
		if w := e.Over; w != nil {
			subs = append(subs, w.PartitionBy...)
			subs = appendOrderExprs(subs, w.OrderBy)
			if w.Frame != nil {
				subs = append(subs, w.Frame.Start.Offset, w.Frame.End.Offset)
			}
		}
		return subs
	case *NamedArg:
		return []Expr{e.Value}
	case *SubscriptExpr:
		return []Expr{e.X, e.Index}
	case *SliceExpr:
		return []Expr{e.X, e.Begin, e.End, e.Step}
	case *FieldExpr:
		return []Expr{e.X}
	case *GroupingSets:
		var subs []Expr
		for _, elem := range e.Elems {
			subs = append(subs, elem...)
		}
		return subs
	}
	return nil // ColumnRef, Literal, ExistsExpr, SubqueryExpr
}

func appendOrderExprs(subs []Expr, items []OrderItem) []Expr {
	for _, it := range items {
		subs = append(subs, it.Expr)
	}
	return subs
}
