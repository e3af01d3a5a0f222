package sql

// merge parses MERGE INTO target [[AS] alias] USING source ON cond
// WHEN … [WHEN …], the Spark/Iceberg form.
func (p *parser) merge() Statement {
	m := &Merge{Pos: p.advance().pos}
	p.expectWord("into")
	m.Target = p.objectName()
	m.TargetAlias = p.tableAlias()
	p.expectWord("using")
	m.Source = p.tablePrimary()
	if _, ok := m.Source.(*TableFunc); ok {
		panic(&Error{Pos: m.Pos, Msg: "MERGE … USING needs a table or a subquery, not a table function"})
	}
	p.expectWord("on")
	m.On = p.expr()
	for p.tok().isWord("when") {
		m.Clauses = append(m.Clauses, p.mergeClause())
	}
	if len(m.Clauses) == 0 {
		p.expectWord("when")
	}
	return m
}

// mergeClause parses WHEN [NOT] MATCHED [BY SOURCE|BY TARGET] [AND cond] THEN action.
func (p *parser) mergeClause() MergeClause {
	c := MergeClause{Pos: p.advance().pos}
	if p.acceptWord("not") {
		c.Match = NotMatched
		p.expectWord("matched")
		if p.acceptWord("by") {
			if p.acceptWord("source") {
				c.Match = NotMatchedBySource
			} else {
				p.expectWord("target")
			}
		}
	} else {
		p.expectWord("matched")
	}
	if p.acceptWord("and") {
		c.Cond = p.expr()
	}
	p.expectWord("then")
	t := p.tok()
	switch {
	case p.acceptWord("update"):
		c.Action = MergeUpdate
		p.expectWord("set")
		if c.Star = p.acceptOp("*"); !c.Star {
			c.Set = p.assignments()
		}
	case p.acceptWord("delete"):
		c.Action = MergeDelete
	case p.acceptWord("insert"):
		c.Action = MergeInsert
		if c.Star = p.acceptOp("*"); !c.Star {
			if p.tok().isOp("(") {
				c.Columns = p.identList()
			}
			p.expectWord("values")
			p.expectOp("(")
			c.Values = p.exprList()
			p.expectOp(")")
		}
	default:
		panic(p.unexpected())
	}
	if (c.Match == NotMatched) != (c.Action == MergeInsert) {
		if c.Match == NotMatched {
			panic(errorAt(t, "WHEN NOT MATCHED can only INSERT"))
		}
		panic(errorAt(t, "%s can only UPDATE or DELETE", c.Match))
	}
	return c
}

// String names the clause kind as written.
func (m MergeMatch) String() string {
	switch m {
	case Matched:
		return "WHEN MATCHED"
	case NotMatched:
		return "WHEN NOT MATCHED"
	}
	return "WHEN NOT MATCHED BY SOURCE"
}
