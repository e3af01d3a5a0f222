package sql

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// ErrSyntax is the kind of every parse error: errors.Is(err, sql.ErrSyntax)
// holds for a statement that does not parse.
var ErrSyntax = errors.New("syntax error")

// Error is a parse error at a position of the statement text.
type Error struct {
	Pos Pos
	Msg string
}

func (e *Error) Error() string {
	return fmt.Sprintf("syntax error at line %d, column %d: %s", e.Pos.Line, e.Pos.Col, e.Msg)
}

// Unwrap makes errors.Is(err, ErrSyntax) hold.
func (e *Error) Unwrap() error { return ErrSyntax }

// Parse parses one or more ';'-separated statements; empty statements are skipped.
// Every returned Statement is a pointer (*QueryStmt, *CreateTable, …).
// The error, if any, is an *Error.
func Parse(text string) ([]Statement, error) {
	var stmts []Statement
	err := run(text, func(p *parser) {
		for {
			for p.tok().isOp(";") {
				p.advance()
			}
			if p.tok().kind == tokEOF {
				return
			}
			stmts = append(stmts, p.statement())
			p.endOfStatement()
		}
	})
	if err != nil {
		return nil, err
	}
	return stmts, nil
}

// ParseOne parses text holding exactly one statement, optionally followed by ';'.
func ParseOne(text string) (Statement, error) {
	var stmt Statement
	err := run(text, func(p *parser) {
		stmt = p.statement()
		p.endOfStatement()
		for p.tok().isOp(";") {
			p.advance()
		}
		if p.tok().kind != tokEOF {
			p.want("end of input")
			panic(p.unexpected())
		}
	})
	if err != nil {
		return nil, err
	}
	return stmt, nil
}

// Keywords returns the words with a meaning in the grammar, upper case and
// sorted, for tab completion.
func Keywords() []string {
	return slices.Clone(keywords)
}

// run tokenizes text and calls parse, returning the first error in text order:
// a lexical error (an unterminated string, say) is reported unless the parser
// failed before reaching it.
func run(text string, parse func(*parser)) error {
	toks, lexErr := tokenize(text)
	p := &parser{toks: toks}
	parseErr := p.catch(parse)
	switch {
	case lexErr != nil && (parseErr == nil || !before(parseErr.Pos, lexErr.Pos)):
		return lexErr
	case parseErr != nil:
		return parseErr
	}
	return nil
}

func before(a, b Pos) bool {
	return a.Line < b.Line || a.Line == b.Line && a.Col < b.Col
}

// describe names a token in an error message.
func describe(t token) string {
	if t.kind == tokEOF || t.isOp(";") {
		return "end of statement"
	}
	raw := []rune(t.raw)
	if len(raw) > 24 {
		return fmt.Sprintf("%q", string(raw[:20])+"…")
	}
	return fmt.Sprintf("%q", t.raw)
}

// alternatives joins the expected alternatives, eliding the middle of long lists:
// `FROM, WHERE, GROUP, … or end of statement`.
func alternatives(items []string) string {
	if len(items) == 1 {
		return items[0]
	}
	last := items[len(items)-1]
	head := items[:len(items)-1]
	if len(head) > 3 {
		head = append(slices.Clone(head[:3]), "…")
	}
	return strings.Join(head, ", ") + " or " + last
}
