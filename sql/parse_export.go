package sql

// exportDatabase parses EXPORT DATABASE [namespace TO] 'dir' [(options)].
func (p *parser) exportDatabase() Statement {
	e := &ExportDatabase{Pos: p.advance().pos}
	p.expectWord("database")
	if p.tok().kind != tokString {
		name := p.objectName()
		e.Namespace = &name
		p.expectWord("to")
	}
	e.Path = p.stringLit()
	if p.tok().isOp("(") {
		e.Options = p.copyOptionList()
	}
	return e
}

// importDatabase parses IMPORT DATABASE 'dir'.
func (p *parser) importDatabase() Statement {
	i := &ImportDatabase{Pos: p.advance().pos}
	p.expectWord("database")
	i.Path = p.stringLit()
	return i
}
