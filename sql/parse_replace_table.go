package sql

// replaceTable parses REPLACE TABLE … and, with orCreate, the rest of CREATE
// OR REPLACE TABLE … after OR REPLACE: the clauses of CREATE TABLE.
func (p *parser) replaceTable(pos Pos, orCreate bool) Statement {
	p.expectWord("table")
	if t := p.tok(); t.isWord("if") && p.peek(1).isWord("not") {
		panic(errorAt(t, "REPLACE TABLE takes no IF NOT EXISTS"))
	}
	ct := p.createTable(pos).(*CreateTable)
	return &ReplaceTable{Table: ct, OrCreate: orCreate}
}

// truncate parses TRUNCATE TABLE name.
func (p *parser) truncate() Statement {
	t := &TruncateTable{Pos: p.advance().pos}
	p.expectWord("table")
	t.Name = p.objectName()
	return t
}
