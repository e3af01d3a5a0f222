package sql

// update parses UPDATE name [[AS] alias] SET col = expr, … [WHERE cond].
func (p *parser) update() Statement {
	u := &Update{Pos: p.advance().pos}
	u.Table = p.objectName()
	u.Alias = p.aliasBefore("set")
	p.expectWord("set")
	u.Set = p.assignments()
	if p.acceptWord("where") {
		u.Where = p.expr()
	}
	return u
}

// aliasBefore parses an optional [AS] alias where the keyword next may follow
// the name instead: UPDATE t SET takes SET for the keyword, not an alias.
func (p *parser) aliasBefore(next string) string {
	if p.tok().isWord(next) {
		return ""
	}
	return p.tableAlias()
}

// assignments parses col = expr, … (the column optionally qualified).
func (p *parser) assignments() []Assignment {
	var out []Assignment
	for {
		t := p.tok()
		parts, _ := p.dottedName(0)
		p.expectOp("=")
		out = append(out, Assignment{Column: parts[len(parts)-1], Value: p.expr(), Pos: t.pos})
		if !p.acceptOp(",") {
			return out
		}
	}
}
