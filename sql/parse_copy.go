package sql

import "strings"

// copyStatement parses COPY (query) TO 'path' [(options)] and COPY table TO
// 'path' [(options)]. An option is a name with an optional value, as in
// (FORMAT csv, HEADER, DELIMITER '|', OVERWRITE).
func (p *parser) copyStatement() Statement {
	c := &Copy{Pos: p.advance().pos}
	if p.tok().isOp("(") && p.parenStartsQuery() {
		p.advance()
		c.Query = p.query()
		p.expectOp(")")
	} else {
		c.Query = selectStarFrom(p.fromItem())
	}
	p.expectWord("to")
	c.Path = p.stringLit()
	if p.eatWord("with") && !p.tok().isOp("(") {
		panic(p.unexpected())
	}
	if p.tok().isOp("(") {
		c.Options = p.copyOptionList()
	}
	return c
}

// copyOptionList parses (option, …), as COPY and EXPORT DATABASE take it.
func (p *parser) copyOptionList() []CopyOption {
	p.expectOp("(")
	var opts []CopyOption
	for {
		opts = append(opts, p.copyOption())
		if !p.acceptOp(",") {
			break
		}
	}
	p.expectOp(")")
	return opts
}

// copyOption parses name [value]; a value is a bare word or an expression.
func (p *parser) copyOption() CopyOption {
	t := p.tok()
	if t.kind != tokWord && t.kind != tokQuoted {
		p.want("COPY option")
		panic(p.unexpected())
	}
	p.advance()
	opt := CopyOption{Name: strings.ToLower(t.text), Pos: t.pos}
	switch next := p.tok(); {
	case next.isOp(",") || next.isOp(")"):
	case next.kind == tokWord && !next.isWord("true") && !next.isWord("false") && !next.isWord("null"):
		p.advance()
		opt.Value = &Literal{Kind: LitString, Value: next.text, Pos: next.pos}
	case next.isOp("("):
		// PARTITION_BY (a, b) and the like: a parenthesized list of names.
		opt.Value = &Literal{Kind: LitString, Value: strings.Join(p.identList(), ","), Pos: next.pos}
	default:
		opt.Value = p.expr()
	}
	return opt
}

// fromItem parses what DESCRIBE, SUMMARIZE and COPY read: a quoted file
// path, a table function or a table name, without an alias (COPY t TO would
// take TO for one).
func (p *parser) fromItem() TableExpr {
	t := p.tok()
	if t.kind == tokString {
		p.advance()
		return &FileTable{Path: t.text, Pos: t.pos}
	}
	if !t.isName() {
		p.want("table")
		panic(p.unexpected())
	}
	name := p.objectName()
	if p.tok().isOp("(") {
		return &TableFunc{Name: strings.ToLower(strings.Join(name.Parts, ".")), Args: p.callArgs(), Pos: t.pos}
	}
	return &TableName{Name: name, Pos: t.pos}
}

// selectStarFrom is SELECT * FROM t.
func selectStarFrom(t TableExpr) *Query {
	pos := tableExprPos(t)
	return &Query{Body: &Select{Items: []SelectItem{{Expr: &Star{Pos: pos}, Pos: pos}}, From: t, Pos: pos}, Pos: pos}
}

// tableExprPos is the position of what fromItem parsed.
func tableExprPos(t TableExpr) Pos {
	switch t := t.(type) {
	case *TableName:
		return t.Pos
	case *TableFunc:
		return t.Pos
	case *FileTable:
		return t.Pos
	}
	return Pos{}
}
