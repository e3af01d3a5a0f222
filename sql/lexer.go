package sql

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// tokenKind classifies a token.
type tokenKind int

const (
	tokEOF    tokenKind = iota // end of input, or the point where lexing failed
	tokWord                    // unquoted identifier or keyword; text is lower case
	tokQuoted                  // "quoted" or `quoted` identifier; text keeps its case
	tokString                  // '…' literal; text is the unescaped value
	tokNumber                  // numeric literal; text as written
	tokOp                      // operator or punctuation; text is canonical (!= is <>, == is =)
)

// token is one lexical unit. raw is the source text, quoted back in error messages.
type token struct {
	kind tokenKind
	text string
	raw  string
	pos  Pos
}

func (t token) isWord(w string) bool { return t.kind == tokWord && t.text == w }
func (t token) isOp(op string) bool  { return t.kind == tokOp && t.text == op }

// isName reports whether t can start an identifier: a quoted name or a non-reserved word.
func (t token) isName() bool {
	return t.kind == tokQuoted || t.kind == tokWord && !reserved[t.text]
}

// operators lists the multi-character operators before the single-character ones
// so that the longest match wins.
var operators = []string{
	"<=>", "::", "=>", "->>", "->", "==", "<>", "!=", "<=", ">=", "||", "//",
	"<<", ">>", "+", "-", "*", "/", "%", "=", "<", ">", "(", ")", ",", ".", ";",
	"[", "]", ":", "{", "}", "&", "|", "~",
}

// canonicalOps maps operator spellings to the one the parser sees.
var canonicalOps = map[string]string{"==": "=", "!=": "<>"}

// lexer scans SQL text, tracking the 1-based line and column (in characters) of off.
type lexer struct {
	src       string
	off       int
	line, col int
}

// tokenize splits src into tokens terminated by a tokEOF. On a lexical error it
// returns the tokens before the error followed by a tokEOF at the error position,
// plus the error, so the parser can report whichever error comes first in the text.
func tokenize(src string) ([]token, *Error) {
	l := &lexer{src: src, line: 1, col: 1}
	toks := make([]token, 0, len(src)/4+1) // typical SQL has a token every 4-6 bytes
	for {
		t, err := l.next()
		if err != nil {
			return append(toks, token{kind: tokEOF, pos: err.Pos}), err
		}
		toks = append(toks, t)
		if t.kind == tokEOF {
			return toks, nil
		}
	}
}

func (l *lexer) pos() Pos { return Pos{Line: l.line, Col: l.col} }

// advance moves past n bytes, counting lines and UTF-8 characters.
func (l *lexer) advance(n int) {
	for _, c := range []byte(l.src[l.off : l.off+n]) {
		switch {
		case c == '\n':
			l.line++
			l.col = 1
		case c&0xC0 != 0x80: // not a UTF-8 continuation byte
			l.col++
		}
	}
	l.off += n
}

func (l *lexer) peekByte(i int) byte {
	if l.off+i < len(l.src) {
		return l.src[l.off+i]
	}
	return 0
}

func (l *lexer) next() (token, *Error) {
	if err := l.skipSpaceAndComments(); err != nil {
		return token{}, err
	}
	pos := l.pos()
	if l.off >= len(l.src) {
		return token{kind: tokEOF, pos: pos}, nil
	}
	c := l.src[l.off]
	switch {
	case c == '\'':
		return l.stringLit(pos)
	case c == '"' || c == '`':
		return l.quotedIdent(pos, c)
	case isDigit(c) || c == '.' && isDigit(l.peekByte(1)):
		return l.number(pos)
	case l.identStartLen() > 0:
		return l.word(pos), nil
	}
	for _, op := range operators {
		if strings.HasPrefix(l.src[l.off:], op) {
			if op == "//" && l.peekByte(2) == '*' {
				continue // a / followed by a /* comment */, as DuckDB reads 6//*c*/4
			}
			l.advance(len(op))
			text := op
			if c, ok := canonicalOps[op]; ok {
				text = c
			}
			return token{kind: tokOp, text: text, raw: op, pos: pos}, nil
		}
	}
	r, _ := utf8.DecodeRuneInString(l.src[l.off:])
	return token{}, &Error{Pos: pos, Msg: fmt.Sprintf("unexpected character %q", r)}
}

// skipSpaceAndComments skips white space, -- line comments and /* block */ comments.
func (l *lexer) skipSpaceAndComments() *Error {
	for l.off < len(l.src) {
		c := l.src[l.off]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			l.advance(1)
		case c == '-' && l.peekByte(1) == '-':
			n := strings.IndexByte(l.src[l.off:], '\n')
			if n < 0 {
				n = len(l.src) - l.off
			}
			l.advance(n)
		case c == '/' && l.peekByte(1) == '*':
			pos := l.pos()
			n := strings.Index(l.src[l.off+2:], "*/")
			if n < 0 {
				return &Error{Pos: pos, Msg: "unterminated comment"}
			}
			l.advance(n + 4)
		default:
			return nil
		}
	}
	return nil
}

// stringLit scans a '…' literal, where a doubled quote stands for one.
func (l *lexer) stringLit(pos Pos) (token, *Error) {
	text, raw, ok := l.quoted('\'')
	if !ok {
		return token{}, &Error{Pos: pos, Msg: "unterminated string literal"}
	}
	return token{kind: tokString, text: text, raw: raw, pos: pos}, nil
}

// quotedIdent scans "…" or `…` where a doubled quote stands for one.
func (l *lexer) quotedIdent(pos Pos, q byte) (token, *Error) {
	text, raw, ok := l.quoted(q)
	if !ok {
		return token{}, &Error{Pos: pos, Msg: "unterminated quoted identifier"}
	}
	if text == "" {
		return token{}, &Error{Pos: pos, Msg: "empty quoted identifier"}
	}
	return token{kind: tokQuoted, text: text, raw: raw, pos: pos}, nil
}

// quoted scans a run quoted by q starting at l.off and returns its unescaped
// content and source text; ok is false (and nothing is consumed) if it is unterminated.
func (l *lexer) quoted(q byte) (text, raw string, ok bool) {
	var b strings.Builder
	for i := l.off + 1; i < len(l.src); i++ {
		if l.src[i] != q {
			b.WriteByte(l.src[i])
			continue
		}
		if i+1 < len(l.src) && l.src[i+1] == q {
			b.WriteByte(q)
			i++
			continue
		}
		raw = l.src[l.off : i+1]
		l.advance(len(raw))
		return b.String(), raw, true
	}
	return "", "", false
}

// number scans 12, 1.5, .5, 1., 1e10 and 1.5E-3. A number running into letters
// (12abc) is an error rather than a number followed by an alias.
func (l *lexer) number(pos Pos) (token, *Error) {
	i := l.off
	digits := func() {
		for i < len(l.src) && isDigit(l.src[i]) {
			i++
		}
	}
	digits()
	if i < len(l.src) && l.src[i] == '.' {
		i++
		digits()
	}
	if i < len(l.src) && (l.src[i] == 'e' || l.src[i] == 'E') {
		j := i + 1
		if j < len(l.src) && (l.src[j] == '+' || l.src[j] == '-') {
			j++
		}
		if j < len(l.src) && isDigit(l.src[j]) {
			i = j
			digits()
		}
	}
	raw := l.src[l.off:i]
	l.advance(len(raw))
	if n := l.identStartLen(); n > 0 || isDigit(l.peekByte(0)) {
		return token{}, &Error{Pos: pos, Msg: fmt.Sprintf("invalid number %q", raw+l.src[l.off:l.off+max(n, 1)])}
	}
	return token{kind: tokNumber, text: raw, raw: raw, pos: pos}, nil
}

// word scans an unquoted identifier or keyword and lower-cases it.
func (l *lexer) word(pos Pos) token {
	start := l.off
	for {
		n := l.identStartLen()
		if c := l.peekByte(0); n == 0 && (isDigit(c) || c == '$') {
			n = 1
		}
		if n == 0 {
			break
		}
		l.advance(n)
	}
	raw := l.src[start:l.off]
	return token{kind: tokWord, text: strings.ToLower(raw), raw: raw, pos: pos}
}

// identStartLen returns the byte length of the character at l.off if it can start
// an identifier (a letter or _), or 0.
func (l *lexer) identStartLen() int {
	if l.off >= len(l.src) {
		return 0
	}
	c := l.src[l.off]
	if c < utf8.RuneSelf {
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' {
			return 1
		}
		return 0
	}
	r, n := utf8.DecodeRuneInString(l.src[l.off:])
	if unicode.IsLetter(r) {
		return n
	}
	return 0
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
