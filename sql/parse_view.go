package sql

// CreateView is CREATE [OR REPLACE] [GLOBAL] [TEMP|TEMPORARY] VIEW [IF NOT
// EXISTS] name [(columns)] AS query. A temporary view lives in the session
// only; the others are stored in the catalog.
type CreateView struct {
	Name        ObjectName
	Columns     []string // column names, or nil to keep the query's
	OrReplace   bool
	Temporary   bool
	IfNotExists bool
	Query       *Query
	Pos         Pos
}

// DropView is DROP VIEW [IF EXISTS] name.
type DropView struct {
	Name     ObjectName
	IfExists bool
	Pos      Pos
}

// ShowViews is SHOW VIEWS [IN|FROM namespace].
type ShowViews struct {
	Namespace *ObjectName
	Pos       Pos
}

func (CreateView) stmt() {}
func (DropView) stmt()   {}
func (ShowViews) stmt()  {}

// viewStatement parses CREATE … VIEW, DROP VIEW and SHOW VIEWS, or returns
// nil, consuming nothing, when the statement is not about views.
func (p *parser) viewStatement() Statement {
	switch t := p.tok(); {
	case t.isWord("create"):
		n := 1
		if p.peek(n).isWord("or") && p.peek(n+1).isWord("replace") {
			n += 2
		}
		if p.peek(n).isWord("global") {
			n++
		}
		if p.peek(n).isWord("temp") || p.peek(n).isWord("temporary") {
			n++
		}
		if p.peek(n).isWord("view") {
			return p.createView()
		}
	case t.isWord("drop") && p.peek(1).isWord("view"):
		p.skip(2)
		d := &DropView{IfExists: p.ifExists(), Pos: t.pos}
		d.Name = p.objectName()
		return d
	case t.isWord("show") && p.peek(1).isWord("views"):
		p.skip(2)
		s := &ShowViews{Pos: t.pos}
		if p.acceptWord("in") || p.acceptWord("from") {
			ns := p.objectName()
			s.Namespace = &ns
		}
		return s
	}
	return nil
}

func (p *parser) createView() Statement {
	c := &CreateView{Pos: p.advance().pos}
	if p.eatWord("or") {
		p.expectWord("replace")
		c.OrReplace = true
	}
	global := p.eatWord("global")
	c.Temporary = p.eatWord("temp") || p.eatWord("temporary")
	if global && !c.Temporary {
		p.want("TEMPORARY")
		panic(p.unexpected())
	}
	p.expectWord("view")
	c.IfNotExists = p.ifNotExists()
	if c.IfNotExists && c.OrReplace {
		panic(errorAt(p.tok(), "CREATE OR REPLACE VIEW cannot have IF NOT EXISTS"))
	}
	c.Name = p.objectName()
	if p.tok().isOp("(") && !p.parenStartsQuery() {
		c.Columns = p.identList()
	}
	p.expectWord("as")
	c.Query = p.query()
	return c
}
