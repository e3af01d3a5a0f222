package sql

// HiveStatement is a Hive or Delta statement about a table that Iceberg
// tables either do not need or express another way: MSCK REPAIR TABLE,
// REFRESH TABLE, ALTER TABLE … ADD PARTITION (…). The engine answers each
// with the Iceberg equivalent instead of a syntax error.
type HiveStatement struct {
	Kind string // "MSCK REPAIR TABLE", "REFRESH TABLE", "ALTER TABLE ADD PARTITION"
	Name ObjectName
	Pos  Pos
}

func (HiveStatement) stmt() {}

// hiveStatement parses the statements of HiveStatement, or returns nil,
// consuming nothing, for any other statement.
func (p *parser) hiveStatement() Statement {
	t := p.tok()
	switch {
	case t.isWord("msck"):
		p.advance()
		p.expectWord("repair")
		p.eatWord("table")
		h := &HiveStatement{Kind: "MSCK REPAIR TABLE", Name: p.objectName(), Pos: t.pos}
		if p.eatWord("add") || p.eatWord("drop") || p.eatWord("sync") {
			p.expectWord("partitions")
		}
		return h
	case t.isWord("refresh"):
		p.advance()
		p.eatWord("table")
		return &HiveStatement{Kind: "REFRESH TABLE", Name: p.objectName(), Pos: t.pos}
	case t.isWord("alter") && p.peek(1).isWord("table") && p.addsHivePartition():
		p.skip(2)
		h := &HiveStatement{Kind: "ALTER TABLE ADD PARTITION", Name: p.objectName(), Pos: t.pos}
		p.skip(1) // ADD
		if p.eatWord("if") {
			p.expectWord("not")
			p.expectWord("exists")
		}
		// Hive may add several partitions, each with an optional LOCATION.
		for p.eatWord("partition") {
			p.skipParens()
			if p.eatWord("location") {
				p.stringLit()
			}
		}
		return h
	}
	return nil
}

// addsHivePartition looks past ALTER TABLE name for Hive's ADD [IF NOT
// EXISTS] PARTITION (…), which Iceberg's ADD PARTITION FIELD must not be
// mistaken for.
func (p *parser) addsHivePartition() bool {
	n := 2
	for p.peek(n).kind != tokEOF && p.peek(n+1).isOp(".") {
		n += 2
	}
	if !p.peek(n + 1).isWord("add") {
		return false
	}
	next := p.peek(n + 2)
	return next.isWord("if") || next.isWord("partition") && p.peek(n+3).isOp("(")
}

// skipParens skips a parenthesized list, nested parentheses included.
func (p *parser) skipParens() {
	p.expectOp("(")
	for depth := 1; depth > 0; {
		t := p.advance()
		switch {
		case t.kind == tokEOF:
			p.want(")")
			panic(p.unexpected())
		case t.isOp("("):
			depth++
		case t.isOp(")"):
			depth--
		}
	}
}
