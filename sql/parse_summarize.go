package sql

// describeQuery parses what follows DESCRIBE when it is a query, a quoted
// file path or a table function rather than a table name; nil otherwise.
func (p *parser) describeQuery(pos Pos) Statement {
	t := p.tok()
	switch {
	case startsQuery(t) || t.isOp("(") && p.parenStartsQuery():
		return &DescribeQuery{Query: p.query(), Pos: pos}
	case t.kind == tokString || t.isName() && p.peek(1).isOp("("):
		return &DescribeQuery{Query: selectStarFrom(p.fromItem()), Pos: pos}
	}
	return nil
}

// summarize parses SUMMARIZE query, SUMMARIZE 'path' and SUMMARIZE table.
func (p *parser) summarize() Statement {
	s := &Summarize{Pos: p.advance().pos}
	if t := p.tok(); startsQuery(t) || t.isOp("(") && p.parenStartsQuery() {
		s.Query = p.query()
		return s
	}
	s.Query = selectStarFrom(p.fromItem())
	return s
}
