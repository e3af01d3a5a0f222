package sql

// DISTINCT ON (PostgreSQL, DuckDB): SELECT DISTINCT ON (k, …) items …
// [ORDER BY o] keeps, of each group of rows with equal k, the first in the
// order o (any one without ORDER BY). The parser writes it as the QUALIFY
// that says so,
//
//	QUALIFY row_number() OVER (PARTITION BY k, … ORDER BY o) = 1
//
// once the query's ORDER BY is known; the query still orders by o.

// pendingDistinctOn is a SELECT DISTINCT ON block and its keys.
type pendingDistinctOn struct {
	s    *Select
	keys []Expr
}

// distinctOn parses the ( k, … ) after DISTINCT ON and keeps the keys for
// the query that holds s (finishDistinctOns).
func (p *parser) distinctOn(s *Select) {
	p.expectOp("(")
	keys := []Expr{p.expr()}
	for p.acceptOp(",") {
		keys = append(keys, p.expr())
	}
	p.expectOp(")")
	p.distinctOns = append(p.distinctOns, pendingDistinctOn{s: s, keys: keys})
}

// finishDistinctOns gives each SELECT DISTINCT ON block of the query being
// finished, q, the QUALIFY that keeps the first row of each group: in the
// order of q's ORDER BY for its body, in no order for the branches of a set
// operation. An ORDER BY by position or ALL names the output, which the
// window cannot order by: it is refused. query() keeps each query's blocks
// apart, so those pending are all q's.
func (p *parser) finishDistinctOns(q *Query) {
	for _, d := range p.distinctOns {
		var orderBy []OrderItem
		if d.s == q.Body {
			orderBy = q.OrderBy
		}
		for _, o := range orderBy {
			if lit, isLit := o.Expr.(*Literal); o.All || isLit && lit.Kind == LitInteger {
				panic(&Error{Pos: d.s.Pos, Msg: "SELECT DISTINCT ON takes ORDER BY expressions, not positions or ALL: write the columns"})
			}
		}
		first := &BinaryExpr{Op: "=", Pos: d.s.Pos,
			L: &FuncCall{Name: "row_number", Over: &WindowSpec{PartitionBy: d.keys, OrderBy: orderBy}, Pos: d.s.Pos},
			R: &Literal{Kind: LitInteger, Value: "1", Pos: d.s.Pos}}
		if d.s.Qualify != nil {
			// DISTINCT ON picks among the rows QUALIFY keeps: the two
			// are not one filter.
			panic(&Error{Pos: d.s.Pos, Msg: "SELECT DISTINCT ON with QUALIFY is not supported: QUALIFY in a subquery, DISTINCT ON around it"})
		}
		d.s.Qualify = first
	}
	p.distinctOns = nil
}
