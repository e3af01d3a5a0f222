package sql

import (
	"fmt"
	"slices"
	"strings"
)

// parser is a recursive-descent parser over a token slice.
//
// A syntax error aborts the parse by panicking with an *Error that catch
// recovers (the technique go/parser uses), so the grammar functions return
// plain nodes instead of threading errors through every call.
//
// expected collects the alternatives tried at the current token (by acceptWord,
// acceptOp and want), so an error there can list them; advance clears it.
type parser struct {
	toks     []token
	i        int
	expected []string
	depth    int
	// windows is the innermost SELECT block's named windows, nil outside
	// one; lastWindows those of the block parsed last, for its query's
	// ORDER BY.
	windows     *namedWindows
	lastWindows map[string]*WindowSpec
	// distinctOns holds the SELECT DISTINCT ON blocks of the query being
	// parsed, whose ORDER BY is not parsed yet (parse_distinct_on.go).
	distinctOns []pendingDistinctOn
}

// maxDepth bounds the parser's recursion, so that absurdly nested input fails
// with an error instead of overflowing the stack.
const maxDepth = 1000

// nest counts one level of recursion and returns the function that uncounts it:
// defer p.nest()().
func (p *parser) nest() func() {
	p.depth++
	if p.depth > maxDepth {
		panic(errorAt(p.tok(), "statement is nested too deeply"))
	}
	return func() { p.depth-- }
}

// catch runs parse and returns the *Error it panicked with, if any.
// Other panics are bugs and propagate.
func (p *parser) catch(parse func(*parser)) (err *Error) {
	defer func() {
		if r := recover(); r != nil {
			e, ok := r.(*Error)
			if !ok {
				panic(r)
			}
			err = e
		}
	}()
	parse(p)
	return nil
}

func (p *parser) tok() token { return p.peek(0) }

// peek returns the token n places ahead; past the end it returns the final tokEOF.
func (p *parser) peek(n int) token {
	if p.i+n < len(p.toks) {
		return p.toks[p.i+n]
	}
	return p.toks[len(p.toks)-1]
}

// advance consumes and returns the current token. It never moves past tokEOF.
func (p *parser) advance() token {
	t := p.tok()
	if t.kind != tokEOF {
		p.i++
	}
	p.expected = p.expected[:0]
	return t
}

// skip consumes n tokens.
func (p *parser) skip(n int) {
	for range n {
		p.advance()
	}
}

// want records desc as an alternative expected at the current token.
func (p *parser) want(desc string) {
	if !slices.Contains(p.expected, desc) {
		p.expected = append(p.expected, desc)
	}
}

// acceptWord consumes the keyword w if it is next; otherwise it lists w as expected.
func (p *parser) acceptWord(w string) bool {
	if p.tok().isWord(w) {
		p.advance()
		return true
	}
	p.want(strings.ToUpper(w))
	return false
}

// eatWord consumes w if it is next, without listing it in error messages;
// it is for optional noise words such as OUTER.
func (p *parser) eatWord(w string) bool {
	if p.tok().isWord(w) {
		p.advance()
		return true
	}
	return false
}

func (p *parser) expectWord(w string) token {
	t := p.tok()
	if !p.acceptWord(w) {
		panic(p.unexpected())
	}
	return t
}

// acceptOp consumes the operator op if it is next; otherwise it lists op as expected.
func (p *parser) acceptOp(op string) bool {
	if p.tok().isOp(op) {
		p.advance()
		return true
	}
	p.want(fmt.Sprintf("%q", op))
	return false
}

func (p *parser) expectOp(op string) token {
	t := p.tok()
	if !p.acceptOp(op) {
		err := p.unexpected()
		if open, ok := p.unclosedParen(); ok && op == ")" {
			// Point at the parenthesis left open: that is what needs fixing.
			err = errorAt(open, "unclosed parenthesis: %s", err.Msg)
		}
		panic(err)
	}
	return t
}

// unclosedParen returns the "(" before the current token that no ")"
// closes, in the statement, neither before nor after it; a ")" later on
// means the current token, not the parenthesis, is what is wrong.
func (p *parser) unclosedParen() (token, bool) {
	depth := 0
	for i := p.i; i < len(p.toks) && !p.toks[i].isOp(";"); i++ {
		switch t := p.toks[i]; {
		case t.isOp("("):
			depth++
		case t.isOp(")") && depth == 0:
			return token{}, false
		case t.isOp(")"):
			depth--
		}
	}
	depth = 0
	for i := min(p.i, len(p.toks)) - 1; i >= 0; i-- {
		switch t := p.toks[i]; {
		case t.isOp(")"):
			depth++
		case t.isOp("(") && depth == 0:
			return t, true
		case t.isOp("("):
			depth--
		}
	}
	return token{}, false
}

// unexpected is the error for the current token, listing what was expected
// there and, for a likely misspelt keyword, the keyword.
func (p *parser) unexpected() *Error {
	t := p.tok()
	msg := "unexpected " + describe(t)
	if len(p.expected) > 0 {
		msg += ", expected " + alternatives(p.expected)
	}
	if kw := p.suggestKeyword(t); kw != "" {
		msg += " (did you mean " + kw + "?)"
	}
	return &Error{Pos: t.pos, Msg: msg}
}

// statementWords are the keywords that start a statement.
var statementWords = []string{"SELECT", "FROM", "WITH", "VALUES", "EXPLAIN", "CREATE", "DROP", "SHOW", "USE",
	"DESCRIBE", "INSERT", "DELETE", "CALL", "SET", "ALTER", "OPTIMIZE", "VACUUM",
	"UPDATE", "MERGE", "TRUNCATE", "REPLACE", "COPY", "SUMMARIZE"}

// suggestKeyword returns the expected keyword an unexpected word is a typo
// of, such as SELECT for SELEC; "" if none is close.
func (p *parser) suggestKeyword(t token) string {
	if t.kind != tokWord {
		return ""
	}
	var candidates []string
	for _, e := range p.expected {
		switch {
		case e == "statement":
			candidates = append(candidates, statementWords...)
		case e != "" && strings.ToUpper(e) == e && strings.Trim(e, "ABCDEFGHIJKLMNOPQRSTUVWXYZ_") == "":
			candidates = append(candidates, e)
		}
	}
	kw := Closest(t.text, candidates)
	if strings.EqualFold(kw, t.text) {
		return ""
	}
	return kw
}

func errorAt(t token, format string, args ...any) *Error {
	return &Error{Pos: t.pos, Msg: fmt.Sprintf(format, args...)}
}

// endOfStatement checks that the statement ends here, at ';' or the end of input.
func (p *parser) endOfStatement() {
	if t := p.tok(); t.kind != tokEOF && !t.isOp(";") {
		p.want("end of statement")
		panic(p.unexpected())
	}
	if len(p.distinctOns) > 0 {
		// A SELECT block parsed outside a query (none today): refused
		// rather than run without its DISTINCT ON.
		panic(&Error{Pos: p.distinctOns[0].s.Pos, Msg: "DISTINCT ON is not supported here"})
	}
}

// ident parses an identifier: a quoted name or an unquoted non-reserved word.
func (p *parser) ident() string {
	t := p.tok()
	if !t.isName() {
		p.want("identifier")
		panic(p.unexpected())
	}
	p.advance()
	return t.text
}

// aliasName parses the name after AS, where reserved words are allowed too.
func (p *parser) aliasName() string {
	if t := p.tok(); t.kind == tokWord {
		p.advance()
		return t.text
	}
	return p.ident()
}

// identList parses "(a, b, …)".
func (p *parser) identList() []string {
	p.expectOp("(")
	names := []string{p.ident()}
	for p.acceptOp(",") {
		names = append(names, p.ident())
	}
	p.expectOp(")")
	return names
}

// dottedName parses a.b.c with at most maxParts parts (0: no limit). Parts after
// a dot may be reserved words, since the dot makes them unambiguous.
func (p *parser) dottedName(maxParts int) ([]string, Pos) {
	pos := p.tok().pos
	parts := []string{p.ident()}
	for p.tok().isOp(".") {
		p.advance()
		t := p.tok()
		if maxParts > 0 && len(parts) == maxParts {
			panic(errorAt(t, "name has more than %d parts", maxParts))
		}
		parts = append(parts, p.aliasName())
	}
	return parts, pos
}

// objectName parses a table or namespace name: t, ns.t, catalog.ns.t or
// catalog.ns.t.metadata_table.
func (p *parser) objectName() ObjectName {
	parts, pos := p.dottedName(4)
	return ObjectName{Parts: parts, Pos: pos}
}

// startsQuery reports whether t begins a query body.
func startsQuery(t token) bool {
	return t.isWord("select") || t.isWord("with") || t.isWord("values")
}

// parenStartsQuery reports whether the "(" at the current token opens a query,
// as in "((SELECT …) UNION …)", rather than a column list or a join.
func (p *parser) parenStartsQuery() bool {
	n := 0
	for p.peek(n).isOp("(") {
		n++
	}
	if n == 0 || !startsQuery(p.peek(n)) {
		return false
	}
	if n == 1 {
		return true
	}
	// ((VALUES (1)) AS a JOIN t …) is a parenthesized join whose first
	// table is a subquery, as views store joins: after the inner query's
	// closing parenthesis comes an alias or a join, where a query would go
	// on with ')' or a set operation.
	next := p.peek(p.closingParen(1) + 1)
	return next.kind == tokEOF || next.isOp(")") || next.isWord("union") || next.isWord("intersect") ||
		next.isWord("except") || next.isWord("order") || next.isWord("limit") || next.isWord("offset")
}

// closingParen is the lookahead index of the parenthesis that closes the
// one at lookahead index open (of the end of input when none does).
func (p *parser) closingParen(open int) int {
	depth := 0
	for i := open; ; i++ {
		switch t := p.peek(i); {
		case t.kind == tokEOF:
			return i
		case t.isOp("("):
			depth++
		case t.isOp(")"):
			if depth--; depth == 0 {
				return i
			}
		}
	}
}

// wordBeforeName reports whether the current token is the keyword w followed by
// the start of a name, telling DESCRIBE HISTORY t from a table named history.
func (p *parser) wordBeforeName(w string) bool {
	return p.tok().isWord(w) && p.peek(1).isName()
}

// stringLit parses a string literal and returns its value.
func (p *parser) stringLit() string {
	t := p.tok()
	if t.kind != tokString {
		p.want("string")
		panic(p.unexpected())
	}
	p.advance()
	return t.text
}
