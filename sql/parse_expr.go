package sql

import (
	"strconv"
	"strings"
)

// Expressions are parsed by precedence climbing, one function per level,
// lowest first: OR, AND, NOT, comparison and predicates, the other binary
// operators (|| ->> & | << >>, left to right, as in PostgreSQL and DuckDB,
// and prefix ~, whose operand is a sum), + -, * / %, unary - +, AT TIME
// ZONE, the :: cast postfix, primary.
//
// Operator nodes carry the position of their operator, which is where a type
// error about them belongs; other nodes carry the position of their first token.
// Operators are recognized without listing them as expected alternatives, which
// would drown error messages.

func (p *parser) expr() Expr {
	defer p.nest()()
	return p.or()
}

func (p *parser) or() Expr {
	x := p.and()
	for p.tok().isWord("or") {
		t := p.advance()
		x = &BinaryExpr{Op: "OR", L: x, R: p.and(), Pos: t.pos}
	}
	return x
}

func (p *parser) and() Expr {
	x := p.not()
	for p.tok().isWord("and") {
		t := p.advance()
		x = &BinaryExpr{Op: "AND", L: x, R: p.not(), Pos: t.pos}
	}
	return x
}

// not parses NOT x. NOT EXISTS (…) becomes an ExistsExpr with Not set.
func (p *parser) not() Expr {
	defer p.nest()()
	if !p.tok().isWord("not") {
		return p.comparison()
	}
	t := p.advance()
	x := p.not()
	if e, ok := x.(*ExistsExpr); ok && !e.Not {
		e.Not, e.Pos = true, t.pos
		return e
	}
	return &UnaryExpr{Op: "NOT", X: x, Pos: t.pos}
}

var comparisonOps = map[string]bool{"=": true, "<>": true, "<": true, "<=": true, ">": true, ">=": true}

// comparison parses the left-associative comparison level: = <> < <= > >=,
// IS …, [NOT] BETWEEN, [NOT] IN and [NOT] LIKE/ILIKE.
func (p *parser) comparison() Expr {
	x := p.concat()
	for {
		t := p.tok()
		switch {
		case t.isOp("<=>"):
			// MySQL's and Spark's null-safe equality.
			p.advance()
			x = &IsDistinctExpr{L: x, R: p.concat(), Not: true, Pos: t.pos}
		case t.kind == tokOp && comparisonOps[t.text]:
			p.advance()
			if q := p.quantifier(); q != "" {
				x = &QuantifiedExpr{X: x, Op: t.text, All: q == "all", Query: p.parenQuery(), Pos: t.pos}
				continue
			}
			x = &BinaryExpr{Op: t.text, L: x, R: p.concat(), Pos: t.pos}
		case t.isWord("is"):
			x = p.isPredicate(x)
		case isPredicateWord(t):
			x = p.predicate(x, false, t.pos)
		case t.isWord("not") && isPredicateWord(p.peek(1)):
			p.advance()
			x = p.predicate(x, true, t.pos)
		case p.isRegexpWord(0):
			x = p.regexpPredicate(x, false)
		case t.isWord("not") && p.isRegexpWord(1):
			p.advance()
			x = p.regexpPredicate(x, true)
		default:
			return x
		}
	}
}

// quantifier consumes ANY, SOME or ALL when a parenthesized query follows,
// and returns it ("some" as "any"); "" when the comparison's right side is
// an ordinary expression (a column may be named any).
func (p *parser) quantifier() string {
	t := p.tok()
	if !(t.isWord("any") || t.isWord("some") || t.isWord("all")) || !p.peek(1).isOp("(") {
		return ""
	}
	if !startsQuery(p.peek(2)) && !p.peek(2).isOp("(") {
		panic(errorAt(t, "%s needs a subquery: x op %s (SELECT …)", strings.ToUpper(t.text), strings.ToUpper(t.text)))
	}
	p.advance()
	if t.isWord("all") {
		return "all"
	}
	return "any"
}

// parenQuery parses "(" query ")".
func (p *parser) parenQuery() *Query {
	p.expectOp("(")
	q := p.query()
	p.expectOp(")")
	return q
}

func isPredicateWord(t token) bool {
	return t.isWord("between") || t.isWord("in") || t.isWord("like") || t.isWord("ilike")
}

// isPredicate parses IS [NOT] NULL|TRUE|FALSE|DISTINCT FROM y after x.
func (p *parser) isPredicate(x Expr) Expr {
	pos := p.advance().pos
	not := p.acceptWord("not")
	switch {
	case p.acceptWord("null"):
		return &IsNullExpr{X: x, Not: not, Pos: pos}
	case p.acceptWord("true"):
		return &IsBoolExpr{X: x, Value: true, Not: not, Pos: pos}
	case p.acceptWord("false"):
		return &IsBoolExpr{X: x, Value: false, Not: not, Pos: pos}
	case p.acceptWord("distinct"):
		p.expectWord("from")
		return &IsDistinctExpr{L: x, R: p.concat(), Not: not, Pos: pos}
	}
	panic(p.unexpected())
}

// predicate parses BETWEEN, IN, LIKE or ILIKE after x (and after NOT when not is set).
func (p *parser) predicate(x Expr, not bool, pos Pos) Expr {
	kw := p.advance()
	switch kw.text {
	case "between":
		lo := p.concat()
		p.expectWord("and")
		return &BetweenExpr{X: x, Lo: lo, Hi: p.concat(), Not: not, Pos: pos}
	case "in":
		p.expectOp("(")
		if startsQuery(p.tok()) {
			q := p.query()
			p.expectOp(")")
			return &InSubqueryExpr{X: x, Query: q, Not: not, Pos: pos}
		}
		list := p.exprList()
		p.expectOp(")")
		return &InListExpr{X: x, List: list, Not: not, Pos: pos}
	}
	like := &LikeExpr{X: x, Not: not, CaseInsensitive: kw.text == "ilike", Pos: pos}
	like.Pattern = p.concat()
	if p.acceptWord("escape") {
		like.Escape = p.concat()
	}
	return like
}

// isRegexpWord reports whether the token n ahead is Spark's and MySQL's
// infix RLIKE or REGEXP: followed by a pattern, not a column alias.
func (p *parser) isRegexpWord(n int) bool {
	t := p.peek(n)
	if !t.isWord("rlike") && !t.isWord("regexp") {
		return false
	}
	return startsOperand(p.peek(n + 1))
}

// regexpPredicate parses x [NOT] RLIKE|REGEXP pattern: regexp_like(x,
// pattern), true when the pattern matches anywhere in x.
func (p *parser) regexpPredicate(x Expr, not bool) Expr {
	t := p.advance()
	var e Expr = &FuncCall{Name: "regexp_like", Args: []Expr{x, p.concat()}, Pos: t.pos}
	if not {
		e = &UnaryExpr{Op: "NOT", X: e, Pos: t.pos}
	}
	return e
}

// otherOps are the binary operators of the level between comparison and
// addition: string concatenation, DuckDB's JSON ->> and the bitwise ones.
var otherOps = map[string]bool{"||": true, "->>": true, "&": true, "|": true, "<<": true, ">>": true}

// concat parses the operators of otherOps, which share a level between
// comparison and addition, as PostgreSQL's operators do.
func (p *parser) concat() Expr {
	x := p.additive()
	for p.tok().kind == tokOp && otherOps[p.tok().text] {
		t := p.advance()
		x = &BinaryExpr{Op: t.text, L: x, R: p.additive(), Pos: t.pos}
	}
	return x
}

func (p *parser) additive() Expr {
	x := p.multiplicative()
	for p.tok().isOp("+") || p.tok().isOp("-") {
		t := p.advance()
		x = &BinaryExpr{Op: t.text, L: x, R: p.multiplicative(), Pos: t.pos}
	}
	return x
}

func (p *parser) multiplicative() Expr {
	x := p.unary()
	for {
		t := p.tok()
		switch {
		case t.isOp("*") || t.isOp("/") || t.isOp("//") || t.isOp("%"):
		case t.isWord("div") && startsOperand(p.peek(1)):
			// Spark's and MySQL's integral division.
			t.text = "DIV"
		default:
			return x
		}
		p.advance()
		x = &BinaryExpr{Op: t.text, L: x, R: p.unary(), Pos: t.pos}
	}
}

// startsOperand reports whether t can start the operand of an infix
// operator spelled as a word (DIV, RLIKE), which tells the operator from a
// column alias with that name.
func startsOperand(t token) bool {
	return t.kind == tokString || t.kind == tokNumber || t.isName() || t.isOp("(") || t.isOp("-") || t.isOp("+")
}

func (p *parser) unary() Expr {
	defer p.nest()()
	if t := p.tok(); t.isOp("-") || t.isOp("+") {
		p.advance()
		return &UnaryExpr{Op: t.text, X: p.unary(), Pos: t.pos}
	}
	if t := p.tok(); t.isOp("~") {
		// ~ is an operator of the || level: it takes the sum or product
		// after it, ~2 * 3 is ~(2 * 3), as in DuckDB and PostgreSQL.
		p.advance()
		return &UnaryExpr{Op: t.text, X: p.additive(), Pos: t.pos}
	}
	return p.atTimeZone(p.postfix())
}

// atTimeZone parses x AT TIME ZONE zone, repeated: DuckDB's timezone(zone,
// x), the wall clock of an instant in zone or the instant of a wall clock.
func (p *parser) atTimeZone(x Expr) Expr {
	for p.tok().isWord("at") && p.peek(1).isWord("time") && p.peek(2).isWord("zone") {
		t := p.tok()
		p.skip(3)
		x = &FuncCall{Name: "timezone", Args: []Expr{p.postfix(), x}, Pos: t.pos}
	}
	return x
}

// postfix parses x::type, x[index] and x.field, possibly repeated.
func (p *parser) postfix() Expr {
	x := p.nestedPostfix(p.primary())
	for p.tok().isOp("::") {
		t := p.advance()
		x = &CastExpr{X: x, To: p.typeName(), Pos: t.pos}
	}
	return x
}

func (p *parser) primary() Expr {
	t := p.tok()
	switch t.kind {
	case tokNumber:
		p.advance()
		return numberLiteral(t)
	case tokString:
		p.advance()
		return &Literal{Kind: LitString, Value: t.text, Pos: t.pos}
	case tokQuoted:
		return p.nameExpr()
	case tokOp:
		switch t.text {
		case "(":
			return p.parenExpr()
		case "[":
			return p.listLiteral(t.pos)
		case "{":
			return p.structLiteral(t.pos)
		}
	case tokWord:
		if x := p.keywordExpr(); x != nil {
			return x
		}
		// LEFT and RIGHT are reserved for joins but are also string functions.
		if t.isName() || (t.text == "left" || t.text == "right") && p.peek(1).isOp("(") {
			return p.nameExpr()
		}
	}
	p.want("expression")
	panic(p.unexpected())
}

func numberLiteral(t token) *Literal {
	kind := LitInteger
	switch {
	case strings.ContainsAny(t.text, "eE"):
		kind = LitFloat
	case strings.Contains(t.text, "."):
		kind = LitDecimal
	}
	return &Literal{Kind: kind, Value: t.text, Pos: t.pos}
}

// parenExpr parses (expr) or a scalar subquery (SELECT …).
func (p *parser) parenExpr() Expr {
	t := p.advance()
	if startsQuery(p.tok()) {
		q := p.query()
		p.expectOp(")")
		return &SubqueryExpr{Query: q, Pos: t.pos}
	}
	x := p.expr()
	if p.tok().isOp(",") {
		row := &RowExpr{Items: []Expr{x}, Pos: t.pos}
		for p.acceptOp(",") {
			row.Items = append(row.Items, p.expr())
		}
		x = row
	}
	p.expectOp(")")
	return x
}

// typedLiterals maps DATE '…'-style prefixes to their literal kinds.
var typedLiterals = map[string]LitKind{
	"date": LitDate, "time": LitTime, "timestamp": LitTimestamp, "timestamptz": LitTimestampTZ,
}

// castLiteralTypes are the types whose constants Trino and PostgreSQL
// write as TYPE 'text': DOUBLE '1.5', INTEGER '3', DECIMAL '1.25'.
var castLiteralTypes = map[string]bool{
	"boolean": true, "bool": true, "tinyint": true, "smallint": true, "int": true, "integer": true,
	"bigint": true, "real": true, "float": true, "double": true, "decimal": true, "numeric": true,
	"varchar": true, "char": true, "uuid": true,
}

// castLiteral parses TYPE 'text' as CAST('text' AS TYPE). DECIMAL '1.25'
// without precision and scale is the decimal as written, DECIMAL(3,2), as
// in Trino.
func (p *parser) castLiteral() Expr {
	t, text := p.tok(), p.peek(1)
	if t.isWord("decimal") || t.isWord("numeric") {
		number := strings.TrimSpace(text.text)
		digits, negative := strings.CutPrefix(number, "-")
		if !negative {
			digits, _ = strings.CutPrefix(number, "+")
		}
		if isDecimalText(digits) {
			p.skip(2)
			var x Expr = &Literal{Kind: LitDecimal, Value: digits, Pos: text.pos}
			if negative {
				x = &UnaryExpr{Op: "-", X: x, Pos: t.pos}
			}
			return x
		}
	}
	to := p.typeName()
	p.advance()
	return &CastExpr{X: &Literal{Kind: LitString, Value: text.text, Pos: text.pos}, To: to, Pos: t.pos}
}

// isDecimalText reports whether s is digits with at most one point.
func isDecimalText(s string) bool {
	digits := 0
	for i, c := range s {
		switch {
		case c >= '0' && c <= '9':
			digits++
		case c != '.' || strings.IndexByte(s[i+1:], '.') >= 0:
			return false
		}
	}
	return digits > 0
}

// keywordExpr parses the expressions introduced by a word with a special syntax,
// or returns nil. Most of these words are not reserved, so each case checks the
// token after the word: DATE '2024-01-01' is a literal, date(ts) a call and date a column.
func (p *parser) keywordExpr() Expr {
	t, next := p.tok(), p.peek(1)
	switch t.text {
	case "null":
		p.advance()
		return &Literal{Kind: LitNull, Pos: t.pos}
	case "true", "false":
		p.advance()
		return &Literal{Kind: LitBool, Value: t.text, Pos: t.pos}
	case "case":
		return p.caseExpr()
	case "exists":
		if next.isOp("(") && !startsQuery(p.peek(2)) && !p.peek(2).isOp("(") {
			p.advance()
			return p.funcCall("exists", t.pos) // Spark's exists(list, x -> condition)
		}
		p.advance()
		p.expectOp("(")
		q := p.query()
		p.expectOp(")")
		return &ExistsExpr{Query: q, Pos: t.pos}
	case "timestamp":
		if kind, n := p.zoneSuffix(1); n > 0 && p.peek(n+1).kind == tokString {
			p.skip(n + 1)
			return &Literal{Kind: kind, Value: p.advance().text, Pos: t.pos}
		}
	case "interval":
		// INTERVAL -1 DAY needs the unit to tell it from the column interval minus 1.
		signed := (next.isOp("-") || next.isOp("+")) && p.peek(2).kind == tokNumber && isIntervalUnit(p.peek(3))
		if next.kind == tokString || next.kind == tokNumber || signed {
			return p.interval()
		}
	case "array":
		if next.isOp("[") {
			return p.arrayConstructor()
		}
	case "map":
		if next.isOp("{") {
			return p.mapLiteral()
		}
	case "current_date", "current_time", "current_timestamp":
		if !next.isOp("(") {
			p.advance()
			return &FuncCall{Name: t.text, Pos: t.pos}
		}
	}
	if kind, ok := typedLiterals[t.text]; ok && next.kind == tokString {
		p.advance()
		return &Literal{Kind: kind, Value: p.advance().text, Pos: t.pos}
	}
	if castLiteralTypes[t.text] && next.kind == tokString {
		return p.castLiteral()
	}
	if !next.isOp("(") {
		return nil
	}
	switch t.text {
	case "cast", "try_cast":
		return p.cast()
	case "extract":
		return p.extract()
	case "substring":
		return p.substring()
	case "position":
		return p.position()
	case "trim":
		return p.trim()
	}
	return nil
}

// zoneSuffix looks for WITH TIME ZONE or WITHOUT TIME ZONE n tokens ahead, after
// the word TIMESTAMP, and returns the timestamp kind it means and its length in
// tokens (0 when absent).
func (p *parser) zoneSuffix(n int) (LitKind, int) {
	if !p.peek(n+1).isWord("time") || !p.peek(n+2).isWord("zone") {
		return LitTimestamp, 0
	}
	switch {
	case p.peek(n).isWord("with"):
		return LitTimestampTZ, 3
	case p.peek(n).isWord("without"):
		return LitTimestamp, 3
	}
	return LitTimestamp, 0
}

// intervalUnits maps unit words, singular and plural, to Interval.Unit.
var intervalUnits = func() map[string]string {
	m := map[string]string{}
	for _, u := range []string{"decade", "year", "quarter", "month", "week", "day", "hour", "minute", "second", "millisecond", "microsecond"} {
		m[u] = strings.ToUpper(u)
		m[u+"s"] = strings.ToUpper(u)
	}
	m["century"], m["centuries"] = "CENTURY", "CENTURY"
	m["millennium"], m["millennia"] = "MILLENNIUM", "MILLENNIUM"
	return m
}()

func isIntervalUnit(t token) bool {
	_, ok := intervalUnits[t.text]
	return ok && t.kind == tokWord
}

// interval parses INTERVAL '1' DAY, INTERVAL 1 DAY, INTERVAL -1 DAY or INTERVAL '1 day'.
// The unit may be omitted only when the value is a string, which then holds it.
func (p *parser) interval() Expr {
	pos := p.advance().pos
	iv := &Interval{Value: p.unary(), Pos: pos}
	if t := p.tok(); isIntervalUnit(t) {
		p.advance()
		iv.Unit = intervalUnits[t.text]
		return iv
	}
	if lit, ok := iv.Value.(*Literal); ok && lit.Kind == LitString {
		return iv
	}
	p.want("interval unit")
	panic(p.unexpected())
}

func (p *parser) caseExpr() Expr {
	c := &CaseExpr{Pos: p.advance().pos}
	if !p.tok().isWord("when") {
		c.Operand = p.expr()
	}
	p.expectWord("when")
	for {
		cond := p.expr()
		p.expectWord("then")
		c.Whens = append(c.Whens, When{Cond: cond, Result: p.expr()})
		if !p.acceptWord("when") {
			break
		}
	}
	if p.acceptWord("else") {
		c.Else = p.expr()
	}
	p.expectWord("end")
	return c
}

// cast parses CAST(x AS type) or TRY_CAST(x AS type).
func (p *parser) cast() Expr {
	t := p.advance()
	p.expectOp("(")
	x := p.expr()
	p.expectWord("as")
	to := p.typeName()
	p.expectOp(")")
	return &CastExpr{X: x, To: to, Try: t.text == "try_cast", Pos: t.pos}
}

// extract parses EXTRACT(field FROM x) into extract('FIELD', x).
func (p *parser) extract() Expr {
	t := p.advance()
	p.expectOp("(")
	f := p.tok()
	if f.kind != tokWord && f.kind != tokString {
		p.want("date part")
		panic(p.unexpected())
	}
	p.advance()
	field := &Literal{Kind: LitString, Value: strings.ToUpper(f.text), Pos: f.pos}
	p.expectWord("from")
	x := p.expr()
	p.expectOp(")")
	return &FuncCall{Name: "extract", Args: []Expr{field, x}, Pos: t.pos}
}

// substring parses SUBSTRING(x FROM a [FOR b]) as well as the plain call
// substring(x, a [, b]).
func (p *parser) substring() Expr {
	t := p.advance()
	p.expectOp("(")
	f := &FuncCall{Name: "substring", Args: []Expr{p.expr()}, Pos: t.pos}
	if p.acceptWord("from") {
		f.Args = append(f.Args, p.expr())
		if p.acceptWord("for") {
			f.Args = append(f.Args, p.expr())
		}
	} else {
		for p.acceptOp(",") {
			f.Args = append(f.Args, p.expr())
		}
	}
	p.expectOp(")")
	return f
}

// position parses the standard POSITION(search IN string) as
// strpos(string, search), and passes position(a, b) on as a plain call.
// search is parsed above comparisons, so that IN is not taken for x IN (…).
func (p *parser) position() Expr {
	t := p.advance()
	p.expectOp("(")
	search := p.concat()
	if !p.acceptWord("in") {
		args := []Expr{search}
		for p.acceptOp(",") {
			args = append(args, p.expr())
		}
		p.expectOp(")")
		return &FuncCall{Name: "position", Args: args, Pos: t.pos}
	}
	str := p.expr()
	p.expectOp(")")
	return &FuncCall{Name: "strpos", Args: []Expr{str, search}, Pos: t.pos}
}

// trimFuncs maps the TRIM side keyword to the function it becomes.
var trimFuncs = map[string]string{"both": "trim", "leading": "ltrim", "trailing": "rtrim"}

// trim parses TRIM([BOTH|LEADING|TRAILING] [chars] FROM x) into trim/ltrim/rtrim(x [, chars]),
// as well as the plain call trim(x [, chars]).
func (p *parser) trim() Expr {
	t := p.advance()
	p.expectOp("(")
	f := &FuncCall{Name: "trim", Pos: t.pos}
	side := p.tok()
	name, hasSide := trimFuncs[side.text]
	hasSide = hasSide && side.kind == tokWord && !p.peek(1).isOp(")") && !p.peek(1).isOp(",")
	if hasSide {
		p.advance()
		f.Name = name
	}
	if p.acceptWord("from") {
		f.Args = []Expr{p.expr()}
		p.expectOp(")")
		return f
	}
	first := p.expr()
	switch {
	case p.acceptWord("from"):
		f.Args = []Expr{p.expr(), first}
	case hasSide:
		p.expectWord("from")
	default:
		f.Args = []Expr{first}
		for p.acceptOp(",") {
			f.Args = append(f.Args, p.expr())
		}
	}
	p.expectOp(")")
	return f
}

// nullTreatment parses IGNORE NULLS or RESPECT NULLS (the default) and
// reports whether it did; seen says one came before.
func (p *parser) nullTreatment(f *FuncCall, seen bool) bool {
	t := p.tok()
	if !(t.isWord("ignore") || t.isWord("respect")) || !p.peek(1).isWord("nulls") {
		return false
	}
	if seen {
		panic(errorAt(t, "IGNORE NULLS or RESPECT NULLS may be given once"))
	}
	f.IgnoreNulls = t.isWord("ignore")
	p.skip(2)
	return true
}

// nameExpr parses a column reference a.b.c or a function call a.b(…).
func (p *parser) nameExpr() Expr {
	t := p.advance()
	parts := []string{t.text}
	for p.tok().isOp(".") {
		p.advance()
		parts = append(parts, p.aliasName())
	}
	if p.tok().isOp("(") {
		return p.funcCall(strings.ToLower(strings.Join(parts, ".")), t.pos)
	}
	return &ColumnRef{Parts: parts, Pos: t.pos}
}

// funcCall parses the argument list of name(…) and an optional OVER (…).
func (p *parser) funcCall(name string, pos Pos) Expr {
	p.expectOp("(")
	f := &FuncCall{Name: name, Pos: pos}
	treated := false // IGNORE or RESPECT NULLS seen
	switch {
	case p.tok().isOp("*"): // count(*); a missing ")" is then reported as such
		p.advance()
		f.Star = true
	case !p.tok().isOp(")"):
		if p.eatWord("distinct") {
			f.Distinct = true
		} else {
			p.eatWord("all")
		}
		f.Args = p.args()
		if p.tok().isWord("order") && p.peek(1).isWord("by") {
			// string_agg(x, sep ORDER BY y), array_agg(x ORDER BY y)
			p.skip(2)
			f.OrderBy = p.orderItems()
		}
		treated = p.nullTreatment(f, false) // DuckDB: last_value(x IGNORE NULLS)
	}
	p.expectOp(")")
	p.nullTreatment(f, treated) // Trino, Spark, Snowflake: last_value(x) IGNORE NULLS
	if p.tok().isWord("within") && p.peek(1).isWord("group") {
		p.withinGroup(f)
	}
	if p.tok().isWord("filter") && p.peek(1).isOp("(") {
		// agg(…) FILTER (WHERE cond): the aggregate sees only the rows
		// where cond is TRUE (SQL:2003, PostgreSQL, DuckDB, Trino, Spark).
		p.advance()
		p.expectOp("(")
		p.expectWord("where")
		f.Filter = p.expr()
		p.expectOp(")")
	}
	if p.tok().isWord("over") && (p.peek(1).isOp("(") || p.peek(1).isName()) {
		p.advance()
		f.Over = p.over()
	}
	return f
}

// args parses a non-empty argument list whose items are expressions or name => value.
func (p *parser) args() []Expr {
	args := []Expr{p.arg()}
	for p.acceptOp(",") {
		args = append(args, p.arg())
	}
	return args
}

func (p *parser) arg() Expr {
	if n := p.lambdaParams(); n > 0 {
		return p.lambda(n)
	}
	if t := p.tok(); (t.kind == tokWord || t.kind == tokQuoted) && p.peek(1).isOp("=>") {
		p.advance()
		p.advance()
		return &NamedArg{Name: strings.ToLower(t.text), Value: p.expr(), Pos: t.pos}
	}
	return p.expr()
}

// lambdaParams reports whether a lambda starts at the current token, x ->
// or (x, i) ->, and then how many tokens its parameters take.
func (p *parser) lambdaParams() int {
	if p.tok().isName() && p.peek(1).isOp("->") {
		return 1
	}
	if !p.tok().isOp("(") {
		return 0
	}
	for n := 1; p.peek(n).isName(); n += 2 {
		switch next := p.peek(n + 1); {
		case next.isOp(")") && p.peek(n+2).isOp("->"):
			return n + 2
		case !next.isOp(","):
			return 0
		}
	}
	return 0
}

// lambda parses a lambda whose parameters take the next n tokens.
func (p *parser) lambda(n int) Expr {
	l := &LambdaExpr{Pos: p.tok().pos}
	for range n {
		if t := p.advance(); t.isName() {
			l.Params = append(l.Params, t.text)
		}
	}
	p.expectOp("->")
	l.Body = p.expr()
	return l
}

// callArgs parses "(args)", where the list may be empty.
func (p *parser) callArgs() []Expr {
	p.expectOp("(")
	if p.acceptOp(")") {
		return nil
	}
	args := p.args()
	p.expectOp(")")
	return args
}

func (p *parser) exprList() []Expr {
	list := []Expr{p.expr()}
	for p.acceptOp(",") {
		list = append(list, p.expr())
	}
	return list
}

// orderItems parses expr [ASC|DESC] [NULLS FIRST|LAST], ….
func (p *parser) orderItems() []OrderItem {
	items := []OrderItem{p.orderItem()}
	for p.acceptOp(",") {
		items = append(items, p.orderItem())
	}
	return items
}

func (p *parser) orderItem() OrderItem {
	item := OrderItem{Expr: p.expr()}
	p.orderDirection(&item)
	return item
}

// queryOrderItems parses a query's ORDER BY keys, which may be DuckDB's ALL
// [ASC|DESC] [NULLS FIRST|LAST]: every output column, and nothing else.
func (p *parser) queryOrderItems() []OrderItem {
	if !p.tok().isWord("all") {
		return p.orderItems()
	}
	item := OrderItem{All: true}
	p.advance()
	p.orderDirection(&item)
	if t := p.tok(); t.isOp(",") {
		panic(errorAt(t, "ORDER BY ALL orders by every column; it cannot be combined with other ORDER BY keys"))
	}
	return []OrderItem{item}
}

// orderDirection parses [ASC|DESC] [NULLS FIRST|LAST].
func (p *parser) orderDirection(item *OrderItem) {
	if !p.acceptWord("asc") && p.acceptWord("desc") {
		item.Desc = true
	}
	if p.acceptWord("nulls") {
		first := p.acceptWord("first")
		if !first {
			p.expectWord("last")
		}
		item.NullsFirst = &first
	}
}

// typeName parses a SQL type and normalizes it as TypeName documents.
func (p *parser) typeName() TypeName {
	t := p.tok()
	if t.kind != tokWord {
		p.want("type")
		panic(p.unexpected())
	}
	p.advance()
	tn := TypeName{Pos: t.pos}
	maxParams := 0
	switch t.text {
	case "boolean", "bool":
		tn.Name = "BOOLEAN"
	case "tinyint":
		tn.Name = "TINYINT"
	case "smallint":
		tn.Name = "SMALLINT"
	case "int", "integer":
		tn.Name = "INT"
	case "bigint", "long":
		tn.Name = "BIGINT"
	case "float", "real":
		tn.Name = "FLOAT"
	case "double":
		tn.Name = "DOUBLE"
		p.eatWord("precision")
	case "decimal", "numeric":
		tn.Name, maxParams = "DECIMAL", 2
	case "date":
		tn.Name = "DATE"
	case "time":
		tn.Name = "TIME"
	case "timestamp":
		tn.Name = "TIMESTAMP"
		if kind, n := p.zoneSuffix(0); n > 0 {
			p.skip(n)
			if kind == LitTimestampTZ {
				tn.Name = "TIMESTAMPTZ"
			}
		}
	case "timestamptz", "timestamp_ltz":
		tn.Name = "TIMESTAMPTZ"
	case "timestamp_ntz", "datetime":
		tn.Name = "TIMESTAMP"
	case "string", "text":
		tn.Name = "STRING"
	case "varchar", "char":
		tn.Name, maxParams = "STRING", 1
	case "binary", "varbinary", "bytea", "blob":
		tn.Name = "BINARY"
	case "uuid":
		tn.Name = "UUID"
	case "interval":
		tn.Name = "INTERVAL"
	case "array", "list", "map", "struct", "row":
		p.nestedTypeArgs(&tn, t.text)
	default:
		panic(errorAt(t, "unknown type %s", strings.ToUpper(t.raw)))
	}
	if maxParams > 0 && p.tok().isOp("(") {
		tn.Params = p.typeParams(maxParams)
	}
	// t[] is a list of t, as DuckDB and PostgreSQL write it (INT[][] nests).
	for p.tok().isOp("[") && p.peek(1).isOp("]") {
		p.skip(2)
		tn = TypeName{Name: "ARRAY", Pos: tn.Pos, Args: []TypeName{tn}}
	}
	return tn
}

// typeParams parses "(n [, m])" with up to max non-negative integers.
func (p *parser) typeParams(max int) []int {
	p.expectOp("(")
	var params []int
	for {
		params = append(params, p.nonNegativeInt())
		if len(params) == max || !p.acceptOp(",") {
			break
		}
	}
	p.expectOp(")")
	return params
}

// nonNegativeInt parses an integer literal that fits an int.
func (p *parser) nonNegativeInt() int {
	t := p.tok()
	if t.kind != tokNumber {
		p.want("integer")
		panic(p.unexpected())
	}
	n, err := strconv.Atoi(t.text)
	if err != nil {
		panic(errorAt(t, "invalid integer %s", t.raw))
	}
	p.advance()
	return n
}
