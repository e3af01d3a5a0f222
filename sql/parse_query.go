package sql

import "strings"

// query parses [WITH …] body [ORDER BY …] [LIMIT n|ALL] [OFFSET m].
// A parenthesized query with nothing around it, ((SELECT 1)), is returned unwrapped.
func (p *parser) query() *Query {
	defer p.nest()()
	// The SELECT DISTINCT ON blocks of the query around this one wait for
	// its ORDER BY; this query's own gather from none.
	outer := p.distinctOns
	p.distinctOns = nil
	defer func() { p.distinctOns = outer }()
	q := &Query{Pos: p.tok().pos}
	if p.acceptWord("with") {
		q.Recursive = p.acceptWord("recursive")
		q.With = p.ctes()
	}
	q.Body = p.setExpr()
	// ORDER BY may call window functions over the windows the body's
	// WINDOW clause names, when the body is one SELECT block.
	var defs map[string]*WindowSpec
	if _, ok := q.Body.(*Select); ok {
		defs = p.lastWindows
	}
	if p.acceptWord("order") {
		p.expectWord("by")
		p.inWindowScope(defs, func() { q.OrderBy = p.queryOrderItems() })
	}
	p.finishDistinctOns(q)
	p.limitOffset(q)
	if inner, ok := q.Body.(*Query); ok && isBare(q) {
		return inner
	}
	return q
}

// isBare reports whether q is nothing but its body.
func isBare(q *Query) bool {
	return q.With == nil && q.OrderBy == nil && q.Limit == nil && q.Offset == nil
}

// limitOffset parses LIMIT and OFFSET, each at most once and in either order.
func (p *parser) limitOffset(q *Query) {
	sawLimit, sawOffset := false, false
	for {
		switch {
		case !sawLimit && p.acceptWord("limit"):
			sawLimit = true
			if !p.acceptWord("all") {
				q.Limit = p.expr()
			}
		case !sawOffset && p.acceptWord("offset"):
			sawOffset = true
			q.Offset = p.expr()
			if !p.eatWord("rows") {
				p.eatWord("row")
			}
		case !sawLimit && p.tok().isWord("fetch"):
			sawLimit = true
			q.Limit = p.fetchFirst()
		default:
			return
		}
	}
}

// fetchFirst parses the standard FETCH {FIRST | NEXT} [n] {ROW | ROWS}
// ONLY, LIMIT n in other words (n is 1 when absent).
func (p *parser) fetchFirst() Expr {
	t := p.advance()
	if !p.acceptWord("first") {
		p.expectWord("next")
	}
	var n Expr = &Literal{Kind: LitInteger, Value: "1", Pos: t.pos}
	if !p.tok().isWord("row") && !p.tok().isWord("rows") {
		n = p.expr()
	}
	if !p.acceptWord("rows") {
		p.expectWord("row")
	}
	p.expectWord("only")
	return n
}

func (p *parser) ctes() []CTE {
	var ctes []CTE
	for {
		t := p.tok()
		cte := CTE{Name: p.ident(), Pos: t.pos}
		if p.tok().isOp("(") {
			cte.Columns = p.identList()
		}
		p.expectWord("as")
		p.expectOp("(")
		cte.Query = p.query()
		p.expectOp(")")
		ctes = append(ctes, cte)
		if !p.acceptOp(",") {
			return ctes
		}
	}
}

// setExpr parses UNION [BY NAME] and EXCEPT, left-associative, over
// INTERSECT terms.
func (p *parser) setExpr() SetExpr {
	x := p.intersectExpr()
	for {
		t := p.tok()
		if !p.acceptWord("union") && !p.acceptWord("except") {
			return x
		}
		op := &SetOp{Op: strings.ToUpper(t.text), All: p.setQuantifier(), L: x, Pos: t.pos}
		if op.Op == "UNION" && p.acceptWord("by") {
			p.expectWord("name")
			op.ByName = true
		}
		op.R = p.intersectExpr()
		x = op
	}
}

// intersectExpr parses INTERSECT, which binds tighter than UNION and EXCEPT.
func (p *parser) intersectExpr() SetExpr {
	x := p.setPrimary()
	for {
		t := p.tok()
		if !p.acceptWord("intersect") {
			return x
		}
		all := p.setQuantifier()
		x = &SetOp{Op: "INTERSECT", All: all, L: x, R: p.setPrimary(), Pos: t.pos}
	}
}

// setQuantifier parses [ALL|DISTINCT] after a set operator and reports ALL.
func (p *parser) setQuantifier() bool {
	if p.acceptWord("all") {
		return true
	}
	p.acceptWord("distinct")
	return false
}

// setPrimary parses SELECT …, VALUES …, DuckDB's FROM-first FROM t … or a
// parenthesized query.
func (p *parser) setPrimary() SetExpr {
	t := p.tok()
	switch {
	case t.isWord("select"):
		return p.selectBlock()
	case t.isWord("from"):
		return p.fromFirst()
	case t.isWord("values"):
		return p.values()
	case t.isOp("("):
		p.advance()
		q := p.query()
		p.expectOp(")")
		if isBare(q) {
			return q.Body
		}
		return q
	}
	p.want("SELECT")
	p.want("VALUES")
	p.want(`"("`)
	panic(p.unexpected())
}

func (p *parser) selectBlock() *Select {
	s := &Select{Pos: p.advance().pos}
	p.lastWindows = p.inWindowScope(nil, func() {
		s.Distinct = p.distinct(s)
		s.Items = p.selectItems()
		if p.acceptWord("from") {
			s.From = p.from()
		}
		p.selectClauses(s)
	})
	return s
}

// fromFirst parses DuckDB's FROM t [SELECT …] [WHERE …] [GROUP BY …]
// [HAVING …]; without SELECT it selects every column, as SELECT * FROM t …
// does (CREATE TABLE t AS FROM 'x.csv').
func (p *parser) fromFirst() *Select {
	t := p.advance()
	s := &Select{Pos: t.pos, Items: []SelectItem{{Expr: &Star{Pos: t.pos}, Pos: t.pos}}}
	p.lastWindows = p.inWindowScope(nil, func() {
		s.From = p.from()
		if p.acceptWord("select") {
			s.Distinct = p.distinct(s)
			s.Items = p.selectItems()
		}
		p.selectClauses(s)
	})
	return s
}

// selectClauses parses the WHERE, GROUP BY [ALL], HAVING, WINDOW and
// QUALIFY of a select block, and DuckDB's USING SAMPLE, before them or
// after. WINDOW may also follow QUALIFY, as Databricks writes it.
func (p *parser) selectClauses(s *Select) {
	s.Sample = p.usingSample()
	if p.acceptWord("where") {
		s.Where = p.expr()
	}
	if p.acceptWord("group") {
		p.expectWord("by")
		if s.GroupByAll = p.acceptWord("all"); !s.GroupByAll {
			s.GroupBy = p.groupByItems()
		}
	}
	if p.acceptWord("having") {
		s.Having = p.expr()
	}
	windows := p.acceptWord("window")
	if windows {
		p.windowClause()
	}
	if p.acceptWord("qualify") {
		s.Qualify = p.expr()
	}
	if !windows && p.acceptWord("window") {
		p.windowClause()
	}
	if s.Sample == nil {
		s.Sample = p.usingSample()
	}
}

// distinct parses the DISTINCT, DISTINCT ON (…) or ALL after SELECT.
func (p *parser) distinct(s *Select) bool {
	if p.eatWord("distinct") {
		if p.tok().isWord("on") && p.peek(1).isOp("(") {
			p.advance()
			p.distinctOn(s)
			return false
		}
		return true
	}
	p.eatWord("all")
	return false
}

// selectItems parses a select list.
func (p *parser) selectItems() []SelectItem {
	items := []SelectItem{p.selectItem()}
	for p.acceptOp(",") {
		items = append(items, p.selectItem())
	}
	return items
}

// selectItem parses *, t.* (either with EXCLUDE and REPLACE), or expr [[AS] alias | AS (alias, …)]. Without AS the alias must not
// be a reserved word, so SELECT a FROM t never reads FROM as an alias.
func (p *parser) selectItem() SelectItem {
	t := p.tok()
	if star := p.star(); star != nil {
		p.starModifiers(star)
		return SelectItem{Expr: star, Pos: t.pos}
	}
	item := SelectItem{Expr: p.expr(), Pos: t.pos}
	if p.acceptWord("as") {
		if p.tok().isOp("(") {
			item.Aliases = p.identList()
		} else {
			item.Alias = p.aliasName()
		}
	} else if p.tok().isName() {
		item.Alias = p.advance().text
	}
	return item
}

// star parses * or a qualified t.*, ns.t.*, or returns nil.
func (p *parser) star() *Star {
	t := p.tok()
	if t.isOp("*") {
		p.advance()
		return &Star{Pos: t.pos}
	}
	n := 0
	for (p.peek(n).kind == tokWord || p.peek(n).kind == tokQuoted) && p.peek(n+1).isOp(".") {
		if p.peek(n + 2).isOp("*") {
			s := &Star{Pos: t.pos}
			for i := 0; i <= n; i += 2 {
				s.Table = append(s.Table, p.peek(i).text)
			}
			p.skip(n + 3)
			return s
		}
		n += 2
	}
	return nil
}

// starModifiers parses DuckDB's EXCLUDE (a, t.b) or EXCLUDE a, then
// REPLACE (expr AS a, …), after a star.
func (p *parser) starModifiers(star *Star) {
	if p.acceptWord("exclude") {
		paren := p.acceptOp("(")
		for {
			parts, pos := p.dottedName(0)
			star.Exclude = append(star.Exclude, &ColumnRef{Parts: parts, Pos: pos})
			if !paren || !p.acceptOp(",") {
				break
			}
		}
		if paren {
			p.expectOp(")")
		}
	}
	if p.acceptWord("replace") {
		p.expectOp("(")
		for {
			item := SelectItem{Pos: p.tok().pos, Expr: p.expr()}
			p.expectWord("as")
			item.Alias = p.aliasName()
			star.Replace = append(star.Replace, item)
			if !p.acceptOp(",") {
				break
			}
		}
		p.expectOp(")")
	}
}

// values parses VALUES (…), (…); all rows must have the same width.
func (p *parser) values() *Values {
	v := &Values{Pos: p.advance().pos}
	for {
		t := p.expectOp("(")
		row := p.exprList()
		p.expectOp(")")
		if len(v.Rows) > 0 && len(row) != len(v.Rows[0]) {
			panic(errorAt(t, "VALUES row has %d columns, the first row has %d", len(row), len(v.Rows[0])))
		}
		v.Rows = append(v.Rows, row)
		if !p.acceptOp(",") {
			return v
		}
	}
}

// from parses the FROM list; a comma is a cross join binding looser than JOIN.
func (p *parser) from() TableExpr {
	x := p.joined()
	for {
		t := p.tok()
		if !p.acceptOp(",") {
			return x
		}
		x = &Join{Type: JoinCross, L: x, R: p.joined(), Pos: t.pos}
	}
}

// joined parses a table followed by any number of JOINs, left-associative;
// a NATURAL join has no condition.
func (p *parser) joined() TableExpr {
	x := p.tablePrimary()
	for {
		t := p.tok()
		if t.isWord("lateral") && p.peek(1).isWord("view") {
			x = p.lateralView(x)
			continue
		}
		if p.pivotsHere() {
			if t.isWord("pivot") {
				x = p.pivot(x)
			} else {
				x = p.unpivot(x)
			}
			continue
		}
		// NATURAL is not offered in "expected …" lists: a mistyped word
		// after a table is more likely a misspelt clause than a join.
		natural := t.isWord("natural")
		if natural {
			p.advance()
		}
		typ, ok := p.joinType()
		if !ok {
			if natural {
				p.want("JOIN")
				panic(p.unexpected())
			}
			return x
		}
		if natural && typ == JoinCross {
			panic(&Error{Pos: t.pos, Msg: "NATURAL CROSS JOIN is not a join: a cross join has no columns to match"})
		}
		j := &Join{Type: typ, L: x, R: p.tablePrimary(), Natural: natural, Pos: t.pos}
		if typ != JoinCross && !natural {
			p.joinCondition(j)
		}
		x = j
	}
}

// joinType parses the keywords of a join: [INNER] JOIN, LEFT|RIGHT|FULL
// [OUTER] JOIN, CROSS JOIN, and [LEFT] SEMI|ANTI JOIN (DuckDB, Spark).
func (p *parser) joinType() (JoinType, bool) {
	var typ JoinType
	if t := p.tok(); unsupportedJoins[t.text] != "" && t.kind == tokWord && p.joinsHere() {
		panic(errorAt(t, "%s JOIN is not supported: %s", strings.ToUpper(t.text), unsupportedJoins[t.text]))
	}
	switch {
	case p.acceptWord("join"):
		return JoinInner, true
	case p.acceptWord("inner"):
		typ = JoinInner
	case p.leftOnlyJoin(&typ):
	case p.acceptWord("left"):
		typ = JoinLeft
		p.leftOnlyJoin(&typ)
	case p.acceptWord("right"):
		typ = JoinRight
	case p.acceptWord("full"):
		typ = JoinFull
	case p.acceptWord("cross"):
		p.expectWord("join")
		return JoinCross, true
	default:
		return "", false
	}
	if typ == JoinLeft || typ == JoinRight || typ == JoinFull {
		p.eatWord("outer")
	}
	p.expectWord("join")
	return typ, true
}

// leftOnlyJoin consumes SEMI or ANTI and sets typ to its join. Like NATURAL
// it is not offered in "expected …" lists, which it would only lengthen.
func (p *parser) leftOnlyJoin(typ *JoinType) bool {
	switch t := p.tok(); {
	case t.isWord("semi"):
		*typ = JoinSemi
	case t.isWord("anti"):
		*typ = JoinAnti
	default:
		return false
	}
	p.advance()
	return true
}

// unsupportedJoins are DuckDB's joins lakesql does not run, with what to
// write instead; their words are no table alias before JOIN.
var unsupportedJoins = map[string]string{
	"asof":       "for each row the latest match, write LEFT JOIN LATERAL (SELECT … WHERE r.k = l.k AND r.ts <= l.ts ORDER BY r.ts DESC LIMIT 1) ON true",
	"positional": "join on row numbers: (SELECT *, row_number() OVER () AS n FROM …) USING (n)",
}

// joinsHere reports whether a join's first word comes next, followed by
// JOIN (SEMI, ANTI, ASOF, POSITIONAL) or LEFT JOIN (ASOF): it is no table
// alias then.
func (p *parser) joinsHere() bool {
	t, next := p.tok(), p.peek(1)
	switch {
	case t.kind != tokWord:
		return false
	case t.text == "semi" || t.text == "anti" || t.text == "asof" || t.text == "positional":
		return next.isWord("join") || t.text == "asof" && next.isWord("left") && p.peek(2).isWord("join")
	}
	return false
}

func (p *parser) joinCondition(j *Join) {
	switch {
	case p.acceptWord("on"):
		j.On = p.expr()
	case p.acceptWord("using"):
		j.Using = p.identList()
	default:
		panic(p.unexpected())
	}
}

// tablePrimary parses one FROM item: a table, a table function, a subquery or a
// parenthesized join.
func (p *parser) tablePrimary() TableExpr {
	defer p.nest()()
	t := p.tok()
	if t.isWord("lateral") {
		return p.lateral()
	}
	if t.isOp("(") {
		if p.parenStartsQuery() {
			return p.subqueryTable(false)
		}
		if w := p.peek(1); w.isWord("describe") || w.isWord("show") {
			panic(&Error{Pos: w.pos, Msg: strings.ToUpper(w.text) + " is a statement, not a table: query a metadata table instead, " +
				"SELECT … FROM t.snapshots or t.history (DESCRIBE HISTORY), t.partitions (SHOW PARTITIONS), t.files"})
		}
		p.advance()
		x := p.from()
		p.expectOp(")")
		return x
	}
	if t.isWord("values") && p.peek(1).isOp("(") {
		// Spark's FROM VALUES (…), (…) [AS] t(a, b), unparenthesized.
		s := &SubqueryTable{Query: &Query{Body: p.values()}, Pos: t.pos}
		return p.sampledWithAlias(s, func() { s.Alias, s.ColAliases = p.tableAliasWithColumns() })
	}
	if t.kind == tokString {
		p.advance()
		f := &FileTable{Path: t.text, Pos: t.pos}
		return p.sampledWithAlias(f, func() { f.Alias, f.ColAliases = p.tableAliasWithColumns() })
	}
	if !t.isName() {
		p.want("table")
		panic(p.unexpected())
	}
	name := p.objectName()
	if p.tok().isOp("(") {
		f := &TableFunc{Name: strings.ToLower(strings.Join(name.Parts, ".")), Args: p.callArgs(), Pos: t.pos}
		f.Ordinality = p.withOrdinality()
		return p.sampledWithAlias(f, func() { f.Alias, f.ColAliases = p.tableAliasWithColumns() })
	}
	tn := &TableName{Name: name, TimeTravel: p.timeTravel(), Pos: t.pos}
	return p.sampledWithAlias(tn, func() { tn.Alias = p.tableAlias() })
}

// lateral parses LATERAL (query) [alias], or LATERAL before a table
// function, which (unnest, explode, …) reads the rows before it anyway.
func (p *parser) lateral() TableExpr {
	p.advance()
	if at := p.tok(); !at.isOp("(") {
		f, ok := p.tablePrimary().(*TableFunc)
		if !ok {
			panic(&Error{Pos: at.pos, Msg: "LATERAL takes a subquery in parentheses or a table function"})
		}
		return f
	}
	if !p.parenStartsQuery() {
		p.want("subquery")
		panic(p.unexpected())
	}
	return p.subqueryTable(true)
}

// subqueryTable parses (query) [alias], LATERAL's when lateral is set.
func (p *parser) subqueryTable(lateral bool) TableExpr {
	t := p.advance()
	s := &SubqueryTable{Query: p.query(), Lateral: lateral, Pos: t.pos}
	p.expectOp(")")
	return p.sampledWithAlias(s, func() { s.Alias, s.ColAliases = p.tableAliasWithColumns() })
}

// tableAlias parses an optional [AS] alias; without AS it must not be a reserved word.
func (p *parser) tableAlias() string {
	if p.acceptWord("as") {
		return p.aliasName()
	}
	if p.tok().isName() && !p.pivotsHere() && !p.joinsHere() {
		return p.advance().text
	}
	return ""
}

// pivotsHere reports whether PIVOT (agg(… or UNPIVOT [INCLUDE|EXCLUDE
// NULLS] (name FOR comes next, which is no table alias: pivot(x) and
// pivot(x, y) are one with its column list.
func (p *parser) pivotsHere() bool {
	t, next := p.tok(), p.peek(1)
	inside := next.isOp("(") && p.peek(2).isName()
	switch {
	case t.isWord("pivot"):
		return inside && !p.peek(3).isOp(")") && !p.peek(3).isOp(",")
	case t.isWord("unpivot"):
		return inside && p.peek(3).isWord("for") || next.isWord("include") || next.isWord("exclude")
	}
	return false
}

// tableAliasWithColumns parses [AS] alias [(col, …)].
func (p *parser) tableAliasWithColumns() (string, []string) {
	alias := p.tableAlias()
	if alias != "" && p.tok().isOp("(") {
		return alias, p.identList()
	}
	return alias, nil
}

// timeTravel parses FOR SYSTEM_VERSION|VERSION|SYSTEM_TIME|TIMESTAMP AS OF expr or
// the Spark forms VERSION AS OF expr and TIMESTAMP AS OF expr, or returns nil.
func (p *parser) timeTravel() *TimeTravel {
	kinds := map[string]string{"system_version": "VERSION", "version": "VERSION", "system_time": "TIMESTAMP", "timestamp": "TIMESTAMP"}
	t := p.tok()
	switch {
	case t.isWord("for"):
		p.advance()
		k := p.tok()
		if kinds[k.text] == "" || k.kind != tokWord {
			p.want("SYSTEM_VERSION")
			p.want("SYSTEM_TIME")
			panic(p.unexpected())
		}
		t = p.advance()
	case (t.isWord("version") || t.isWord("timestamp")) && p.peek(1).isWord("as") && p.peek(2).isWord("of"):
		p.advance()
	default:
		return nil
	}
	p.expectWord("as")
	p.expectWord("of")
	return &TimeTravel{Kind: kinds[t.text], Value: p.expr()}
}
