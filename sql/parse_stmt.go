package sql

import (
	"strconv"
	"strings"
)

// statement parses one statement, dispatching on its first word.
func (p *parser) statement() Statement {
	defer p.nest()() // EXPLAIN EXPLAIN …
	t := p.tok()
	if t.isOp("(") || startsQuery(t) || t.isWord("from") {
		return &QueryStmt{Query: p.query()}
	}
	if s := p.viewStatement(); s != nil {
		return s
	}
	if s := p.hiveStatement(); s != nil {
		return s
	}
	if t.kind == tokWord {
		switch t.text {
		case "explain":
			p.advance()
			// Spark's EXTENDED and FORMATTED add detail EXPLAIN always shows.
			_ = p.eatWord("extended") || p.eatWord("formatted")
			return &Explain{Analyze: p.eatWord("analyze"), Stmt: p.statement(), Pos: t.pos}
		case "create":
			return p.create()
		case "drop":
			return p.drop()
		case "show":
			return p.show()
		case "use":
			p.advance()
			return &Use{Name: p.objectName(), Pos: t.pos}
		case "describe", "desc":
			return p.describe()
		case "summarize":
			return p.summarize()
		case "copy":
			return p.copyStatement()
		case "export":
			return p.exportDatabase()
		case "import":
			return p.importDatabase()
		case "insert":
			return p.insert()
		case "delete":
			return p.delete()
		case "update":
			return p.update()
		case "merge":
			return p.merge()
		case "truncate":
			return p.truncate()
		case "replace":
			return p.replaceTable(p.advance().pos, false)
		case "call":
			p.advance()
			name := p.objectName()
			return &Call{Name: name, Args: p.callArgs(), Pos: t.pos}
		case "set":
			return p.set()
		case "reset":
			return p.reset()
		case "alter":
			return p.alterTable()
		case "optimize":
			return p.optimize()
		case "vacuum":
			return p.vacuum()
		}
	}
	p.want("statement")
	panic(p.unexpected())
}

// acceptNamespaceWord accepts NAMESPACE, SCHEMA or DATABASE (plural when plural is set).
func (p *parser) acceptNamespaceWord(plural bool) bool {
	s := ""
	if plural {
		s = "s"
	}
	return p.acceptWord("namespace"+s) || p.acceptWord("schema"+s) || p.acceptWord("database"+s)
}

func (p *parser) ifNotExists() bool {
	if !p.acceptWord("if") {
		return false
	}
	p.expectWord("not")
	p.expectWord("exists")
	return true
}

func (p *parser) ifExists() bool {
	if !p.acceptWord("if") {
		return false
	}
	p.expectWord("exists")
	return true
}

func (p *parser) create() Statement {
	pos := p.advance().pos
	switch {
	case p.eatWord("or"): // not listed as expected: after CREATE the object kinds are
		p.expectWord("replace")
		return p.replaceTable(pos, true)
	case p.acceptNamespaceWord(false):
		c := &CreateNamespace{IfNotExists: p.ifNotExists(), Pos: pos}
		c.Name = p.objectName()
		return c
	case p.acceptWord("table"):
		return p.createTable(pos)
	}
	panic(p.unexpected())
}

func (p *parser) drop() Statement {
	pos := p.advance().pos
	switch {
	case p.acceptNamespaceWord(false):
		d := &DropNamespace{IfExists: p.ifExists(), Pos: pos}
		d.Name = p.objectName()
		if !p.acceptWord("restrict") && p.acceptWord("cascade") {
			d.Cascade = true
		}
		return d
	case p.acceptWord("table"):
		d := &DropTable{IfExists: p.ifExists(), Pos: pos}
		d.Name = p.objectName()
		d.Purge = p.acceptWord("purge")
		return d
	}
	panic(p.unexpected())
}

func (p *parser) show() Statement {
	pos := p.advance().pos
	switch {
	case p.acceptNamespaceWord(true):
		s := &ShowNamespaces{Pos: pos}
		if p.acceptWord("in") || p.acceptWord("from") {
			c := p.objectName()
			s.Catalog = &c
		}
		return s
	case p.acceptWord("catalogs"):
		return &ShowCatalogs{Pos: pos}
	case p.acceptWord("tables"):
		s := &ShowTables{Pos: pos}
		if p.acceptWord("in") || p.acceptWord("from") {
			ns := p.objectName()
			s.Namespace = &ns
		}
		return s
	case p.acceptWord("create"):
		p.expectWord("table")
		return &ShowCreateTable{Name: p.objectName(), Pos: pos}
	case p.acceptWord("partitions"):
		return &ShowPartitions{Name: p.objectName(), Pos: pos}
	}
	panic(p.unexpected())
}

// describe parses DESCRIBE [TABLE] [EXTENDED|FORMATTED] name, DESCRIBE HISTORY name
// and DESCRIBE DETAIL name. Each keyword counts only when a name follows it, so a
// table may still be called history.
func (p *parser) describe() Statement {
	d := &Describe{Pos: p.advance().pos}
	if q := p.describeQuery(d.Pos); q != nil {
		return q
	}
	switch {
	case p.wordBeforeName("history") || p.wordBeforeName("detail"):
		d.Kind = strings.ToUpper(p.advance().text)
	default:
		if p.wordBeforeName("table") {
			p.advance()
		}
		if p.wordBeforeName("extended") || p.wordBeforeName("formatted") {
			p.advance()
			d.Extended = true
		}
	}
	d.Name = p.objectName()
	return d
}

// insert parses INSERT INTO|OVERWRITE [TABLE] name [(cols)] query. A "(" after the
// name opens the column list unless a query starts inside it.
func (p *parser) insert() Statement {
	ins := &Insert{Pos: p.advance().pos}
	if !p.acceptWord("into") {
		if !p.acceptWord("overwrite") {
			panic(p.unexpected())
		}
		ins.Overwrite = true
	}
	if p.wordBeforeName("table") {
		p.advance()
	}
	ins.Table = p.objectName()
	if p.acceptWord("partition") {
		ins.Partition = p.staticPartition()
	}
	if !ins.Overwrite && p.tok().isWord("replace") && p.peek(1).isWord("where") {
		p.skip(2)
		ins.ReplaceWhere = p.expr()
	}
	if p.tok().isWord("by") && p.peek(1).isWord("name") {
		p.skip(2)
		ins.ByName = true
	} else if p.tok().isOp("(") && !p.parenStartsQuery() {
		ins.Columns = p.identList()
	}
	ins.Source = p.query()
	return ins
}

// staticPartition parses (col = value, …) after INSERT … PARTITION. A
// column without a value (Spark's dynamic column) is refused here.
func (p *parser) staticPartition() []Assignment {
	p.expectOp("(")
	var out []Assignment
	for {
		t := p.tok()
		name := p.ident()
		if !p.tok().isOp("=") {
			panic(&Error{Pos: t.pos, Msg: "PARTITION (" + name + ") without a value: list only col = value (static), or leave PARTITION out to overwrite the partitions the rows fall in"})
		}
		p.advance()
		out = append(out, Assignment{Column: name, Value: p.expr(), Pos: t.pos})
		if !p.acceptOp(",") {
			break
		}
	}
	p.expectOp(")")
	return out
}

func (p *parser) delete() Statement {
	d := &Delete{Pos: p.advance().pos}
	p.expectWord("from")
	d.Table = p.objectName()
	if p.acceptWord("where") {
		d.Where = p.expr()
	}
	return d
}

// set parses SET name = value, SET name TO value, SET TIME ZONE value, SET
// name alone (Show) and SET alone (Name "", which lists the settings). Names may be dotted
// (spark.sql.session.timeZone) and are lower-cased.
func (p *parser) set() Statement {
	s := &Set{Pos: p.advance().pos}
	if p.atStatementEnd() {
		return s
	}
	if p.tok().isWord("time") && p.peek(1).isWord("zone") {
		p.skip(2)
		s.Name = "timezone"
	} else {
		parts, _ := p.dottedName(0)
		s.Name = strings.ToLower(strings.Join(parts, "."))
		if p.atStatementEnd() {
			s.Show = true
			return s
		}
		if !p.acceptOp("=") {
			p.expectWord("to")
		}
	}
	s.Value = p.setValue()
	return s
}

// setValue parses the value of SET: a string (stored unquoted), a possibly signed
// number, a word such as on, off, true or UTC (stored as written), or a
// list of those in brackets, as DuckDB's allowed_directories takes (stored
// comma-separated).
func (p *parser) setValue() string {
	t := p.tok()
	if p.acceptOp("[") {
		var items []string
		for !p.acceptOp("]") {
			if len(items) > 0 {
				p.expectOp(",")
			}
			items = append(items, p.setValue())
		}
		return strings.Join(items, ",")
	}
	sign := ""
	if t.isOp("-") || t.isOp("+") {
		sign = t.text
		p.advance()
		t = p.tok()
		if t.kind != tokNumber {
			p.want("number")
			panic(p.unexpected())
		}
	}
	switch t.kind {
	case tokString, tokQuoted:
		p.advance()
		return t.text
	case tokNumber, tokWord:
		p.advance()
		return sign + t.raw
	}
	p.want("value")
	panic(p.unexpected())
}

// optimize parses OPTIMIZE name [WHERE cond] [ZORDER BY (a, b) | ZORDER BY a, b].
func (p *parser) optimize() Statement {
	o := &Optimize{Pos: p.advance().pos}
	o.Table = p.objectName()
	if p.acceptWord("where") {
		o.Where = p.expr()
	}
	if p.acceptWord("zorder") {
		p.expectWord("by")
		if p.tok().isOp("(") {
			o.ZOrder = p.identList()
		} else {
			o.ZOrder = []string{p.ident()}
			for p.acceptOp(",") {
				o.ZOrder = append(o.ZOrder, p.ident())
			}
		}
	}
	return o
}

// vacuum parses VACUUM name [RETAIN n HOURS] [DRY RUN].
func (p *parser) vacuum() Statement {
	v := &Vacuum{Pos: p.advance().pos}
	v.Table = p.objectName()
	if p.acceptWord("retain") {
		t := p.tok()
		if t.kind != tokNumber {
			p.want("number")
			panic(p.unexpected())
		}
		hours, err := strconv.ParseFloat(t.text, 64)
		if err != nil {
			panic(errorAt(t, "invalid number %s", t.raw))
		}
		p.advance()
		if !p.acceptWord("hours") {
			p.expectWord("hour")
		}
		v.RetainHours = &hours
	}
	if p.acceptWord("dry") {
		p.expectWord("run")
		v.DryRun = true
	}
	return v
}
