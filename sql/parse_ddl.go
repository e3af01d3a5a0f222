package sql

import "strings"

// createTable parses the rest of CREATE TABLE after the TABLE keyword. The clauses
// after the column list may come in any order, each at most once; AS query ends them.
func (p *parser) createTable(pos Pos) Statement {
	ct := &CreateTable{IfNotExists: p.ifNotExists(), Pos: pos}
	ct.Name = p.objectName()
	if p.tok().isOp("(") && !p.parenStartsQuery() {
		ct.Columns = p.columnDefList()
	}
	seen := map[string]bool{}
	for {
		t := p.tok()
		if t.kind == tokWord && seen[t.text] {
			panic(errorAt(t, "duplicate %s clause", strings.ToUpper(t.raw)))
		}
		switch {
		case p.acceptWord("using"):
			if f := p.tok(); !p.acceptWord("iceberg") && f.kind == tokWord {
				panic(errorAt(f, "unsupported table format %s: lakesql tables are Iceberg tables, write USING iceberg or leave USING out (MERGE, OPTIMIZE, VACUUM and time travel work on them)", f.raw))
			} else if f.kind != tokWord {
				panic(p.unexpected())
			}
		case p.acceptWord("partitioned"):
			p.expectWord("by")
			ct.PartitionBy = p.partitionFields()
		case p.acceptWord("cluster"):
			p.expectWord("by")
			ct.ClusterBy = p.clusterKeys()
		case p.acceptWord("comment"):
			p.stringLit() // table comments are not stored
		case p.acceptWord("tblproperties"):
			ct.Properties = p.properties()
		case p.acceptWord("as"):
			ct.AsQuery = p.query()
			return ct
		default:
			if ct.Columns == nil {
				panic(errorAt(t, "CREATE TABLE needs a column list or AS query"))
			}
			return ct
		}
		seen[t.text] = true
	}
}

// columnDefList parses "(coldef, …)".
func (p *parser) columnDefList() []ColumnDef {
	p.expectOp("(")
	cols := p.columnDefs()
	p.expectOp(")")
	return cols
}

func (p *parser) columnDefs() []ColumnDef {
	cols := []ColumnDef{p.columnDef()}
	for p.acceptOp(",") {
		cols = append(cols, p.columnDef())
	}
	return cols
}

// columnDef parses name type [NOT NULL | NULL] [COMMENT '…'], the options in any order.
func (p *parser) columnDef() ColumnDef {
	t := p.tok()
	c := ColumnDef{Name: p.ident(), Pos: t.pos}
	c.Type = p.typeName()
	for {
		switch {
		case p.acceptWord("not"):
			p.expectWord("null")
			c.NotNull = true
		case p.acceptWord("null"):
			c.NotNull = false
		case p.acceptWord("comment"):
			c.Comment = p.stringLit()
		default:
			return c
		}
	}
}

// partitionFields parses "(field, …)" of PARTITIONED BY.
func (p *parser) partitionFields() []PartitionField {
	p.expectOp("(")
	fields := []PartitionField{p.partitionField(false)}
	for p.acceptOp(",") {
		fields = append(fields, p.partitionField(false))
	}
	p.expectOp(")")
	return fields
}

// transforms maps the partition transform spellings to PartitionField.Transform.
var transforms = map[string]string{
	"identity": "identity", "void": "void", "bucket": "bucket", "truncate": "truncate",
	"year": "year", "years": "year", "month": "month", "months": "month",
	"day": "day", "days": "day", "hour": "hour", "hours": "hour", "date_hour": "hour",
}

// partitionField parses col, transform(col), bucket(N, col) or truncate(W, col),
// followed by AS name when allowAs is set (ALTER TABLE … ADD PARTITION FIELD).
func (p *parser) partitionField(allowAs bool) PartitionField {
	t := p.tok()
	f := PartitionField{Transform: "identity", Column: p.ident(), Pos: t.pos}
	if t.kind == tokWord && p.tok().isOp("(") {
		f.Transform = transforms[t.text]
		if f.Transform == "" {
			panic(errorAt(t, "unknown partition transform %s", t.raw))
		}
		p.advance()
		if f.Transform == "bucket" || f.Transform == "truncate" {
			n := p.tok()
			if f.Param = p.nonNegativeInt(); f.Param == 0 {
				panic(errorAt(n, "%s needs a positive integer", f.Transform))
			}
			p.expectOp(",")
		}
		f.Column = p.ident()
		p.expectOp(")")
	}
	if allowAs && p.acceptWord("as") {
		f.Name = p.ident()
	}
	return f
}

// properties parses "('key' = 'value', …)" of TBLPROPERTIES.
func (p *parser) properties() []Property {
	p.expectOp("(")
	var props []Property
	for {
		key := p.propertyKey()
		p.expectOp("=")
		props = append(props, Property{Key: key, Value: p.propertyValue()})
		if !p.acceptOp(",") {
			break
		}
	}
	p.expectOp(")")
	return props
}

// propertyKey parses a string or, as Spark allows, an unquoted dotted name such as
// write.format.default.
func (p *parser) propertyKey() string {
	if p.tok().kind == tokString {
		return p.stringLit()
	}
	if !p.tok().isName() {
		p.want("string")
		panic(p.unexpected())
	}
	parts, _ := p.dottedName(0)
	return strings.Join(parts, ".")
}

// propertyValue parses a string, a number or TRUE/FALSE, as text.
func (p *parser) propertyValue() string {
	t := p.tok()
	if t.kind == tokNumber || t.isWord("true") || t.isWord("false") {
		p.advance()
		return t.text
	}
	return p.stringLit()
}

// alterTable parses ALTER TABLE name action.
func (p *parser) alterTable() Statement {
	a := &AlterTable{Pos: p.advance().pos}
	p.expectWord("table")
	a.Name = p.objectName()
	switch {
	case p.acceptWord("add"):
		a.Action = p.alterAdd()
	case p.acceptWord("drop"):
		a.Action = p.alterDrop()
	case p.acceptWord("replace"):
		p.expectWord("partition")
		p.expectWord("field")
		old := p.partitionField(false)
		p.expectWord("with")
		a.Action = &ReplacePartitionField{Old: old, New: p.partitionField(true)}
	case p.acceptWord("write"):
		a.Action = p.alterWrite()
	case p.acceptWord("cluster"):
		p.expectWord("by")
		if p.acceptWord("none") {
			a.Action = &WriteOrderedBy{}
		} else {
			a.Action = &WriteOrderedBy{Keys: p.clusterKeys()}
		}
	case p.acceptWord("rename"):
		a.Action = p.alterRename()
	case p.acceptWord("alter"):
		p.eatWord("column")
		name := p.ident()
		if p.acceptWord("set") {
			p.expectWord("data")
		}
		p.expectWord("type")
		a.Action = &AlterColumnType{Name: name, Type: p.typeName()}
	case p.acceptWord("set"):
		p.expectWord("tblproperties")
		a.Action = &SetProperties{Properties: p.properties()}
	case p.acceptWord("unset"):
		p.expectWord("tblproperties")
		p.ifExists() // unsetting a missing key is never an error
		a.Action = &UnsetProperties{Keys: p.propertyKeys()}
	default:
		panic(p.unexpected())
	}
	return a
}

// alterAdd parses ADD PARTITION FIELD f [AS n] or ADD COLUMN[S] coldefs.
func (p *parser) alterAdd() AlterAction {
	if p.acceptWord("partition") {
		p.expectWord("field")
		return &AddPartitionField{Field: p.partitionField(true)}
	}
	if !p.acceptWord("columns") {
		p.expectWord("column")
	}
	if p.tok().isOp("(") {
		return &AddColumns{Columns: p.columnDefList()}
	}
	return &AddColumns{Columns: p.columnDefs()}
}

// alterDrop parses DROP PARTITION FIELD f or DROP COLUMN [IF EXISTS] c.
func (p *parser) alterDrop() AlterAction {
	if p.acceptWord("partition") {
		p.expectWord("field")
		return &DropPartitionField{Field: p.partitionField(false)}
	}
	p.expectWord("column")
	d := &DropColumn{IfExists: p.ifExists()}
	d.Name = p.ident()
	return d
}

// alterWrite parses WRITE [LOCALLY] ORDERED BY keys or WRITE UNORDERED.
func (p *parser) alterWrite() AlterAction {
	if p.acceptWord("unordered") {
		return &WriteOrderedBy{}
	}
	w := &WriteOrderedBy{Locally: p.acceptWord("locally")}
	p.expectWord("ordered")
	p.expectWord("by")
	w.Keys = p.orderItems()
	return w
}

// clusterKeys parses Delta's CLUSTER BY (col, …), which lakesql keeps as
// the table's sort order: the order its writers and OPTIMIZE cluster by.
func (p *parser) clusterKeys() []OrderItem {
	p.expectOp("(")
	keys := p.orderItems()
	p.expectOp(")")
	return keys
}

// alterRename parses RENAME COLUMN a TO b or RENAME TO name.
func (p *parser) alterRename() AlterAction {
	if p.acceptWord("column") {
		old := p.ident()
		p.expectWord("to")
		return &RenameColumn{Old: old, New: p.ident()}
	}
	p.expectWord("to")
	return &RenameTable{To: p.objectName()}
}

// propertyKeys parses "('key', …)" of UNSET TBLPROPERTIES.
func (p *parser) propertyKeys() []string {
	p.expectOp("(")
	keys := []string{p.propertyKey()}
	for p.acceptOp(",") {
		keys = append(keys, p.propertyKey())
	}
	p.expectOp(")")
	return keys
}
