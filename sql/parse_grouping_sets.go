package sql

import "strings"

// groupByItems parses the items of GROUP BY: expressions, ROLLUP (…),
// CUBE (…), GROUPING SETS (…) and (), the empty grouping set.
func (p *parser) groupByItems() []Expr {
	items := []Expr{p.groupByItem()}
	for p.acceptOp(",") {
		items = append(items, p.groupByItem())
	}
	return items
}

// groupByItem parses one GROUP BY item. ROLLUP and CUBE are grouping
// constructs only when an opening parenthesis follows, so a column named
// cube stays a column.
func (p *parser) groupByItem() Expr {
	t := p.tok()
	switch {
	case (t.isWord("rollup") || t.isWord("cube")) && p.peek(1).isOp("("):
		p.advance()
		g := &GroupingSets{Kind: strings.ToUpper(t.text), Pos: t.pos}
		p.expectOp("(")
		for {
			g.Elems = append(g.Elems, p.groupingElem(false))
			if !p.acceptOp(",") {
				break
			}
		}
		p.expectOp(")")
		return g
	case t.isWord("grouping") && p.peek(1).isWord("sets"):
		p.skip(2)
		g := &GroupingSets{Kind: "GROUPING SETS", Pos: t.pos}
		p.expectOp("(")
		for {
			g.Elems = append(g.Elems, p.groupingElem(true))
			if !p.acceptOp(",") {
				break
			}
		}
		p.expectOp(")")
		return g
	case t.isOp("(") && p.peek(1).isOp(")"):
		p.skip(2)
		return &GroupingSets{Kind: "GROUPING SETS", Elems: [][]Expr{{}}, Pos: t.pos}
	}
	return p.expr()
}

// groupingElem parses an element of ROLLUP, CUBE or GROUPING SETS: a
// parenthesized list (possibly empty) or one expression; nested grouping
// constructs are allowed in GROUPING SETS (nested true) only.
func (p *parser) groupingElem(nested bool) []Expr {
	t := p.tok()
	if t.isOp("(") {
		p.advance()
		var list []Expr
		if !p.tok().isOp(")") {
			list = p.exprList()
		}
		p.expectOp(")")
		return list
	}
	if nested {
		return []Expr{p.groupByItem()}
	}
	return []Expr{p.expr()}
}
