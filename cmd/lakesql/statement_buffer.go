package main

import (
	"strings"

	"github.com/lakesql/lakesql/sql"
)

// located is one statement and where its first character is in its source
// (1-based line and column), so errors can point into the file.
type located struct {
	text      string
	line, col int
}

// statementBuffer accumulates input lines until they hold complete
// statements. It is the REPL's and the script runner's line logic, kept free
// of terminal I/O so it can be tested directly.
type statementBuffer struct {
	pending   string
	line, col int // where pending starts in the source
	lines     int // lines added so far
}

// add appends one input line (without its newline) and returns the
// statements it completes, in order.
func (b *statementBuffer) add(line string) []located {
	b.lines++
	if b.pending == "" {
		b.line, b.col = b.lines, 1
	}
	b.pending += line + "\n"
	stmts, rest := sql.Split(b.pending)
	out := make([]located, 0, len(stmts))
	from := 0
	for _, s := range stmts {
		// Split returns trimmed substrings of pending, in order.
		off := from + strings.Index(b.pending[from:], s)
		l, c := b.position(off)
		out = append(out, located{text: s, line: l, col: c})
		from = off + len(s)
	}
	if strings.TrimSpace(rest) == "" {
		b.pending = ""
		return out
	}
	off := len(b.pending) - len(rest)
	b.line, b.col = b.position(off)
	b.pending = rest
	return out
}

// position is the source line and column of byte off of pending.
func (b *statementBuffer) position(off int) (line, col int) {
	before := b.pending[:off]
	nl := strings.LastIndexByte(before, '\n')
	if nl < 0 {
		return b.line, b.col + off
	}
	return b.line + strings.Count(before, "\n"), off - nl
}

// skip counts a line that is not SQL (a dot command) so later statements
// keep their source line numbers.
func (b *statementBuffer) skip() { b.lines++ }

// empty reports whether no statement is partially typed.
func (b *statementBuffer) empty() bool { return b.pending == "" }

// reset drops the partially typed statement.
func (b *statementBuffer) reset() { b.pending = "" }

// flush returns the unterminated tail, for the end of a script, and resets.
func (b *statementBuffer) flush() (located, bool) {
	text := strings.TrimSpace(b.pending)
	if text == "" {
		b.pending = ""
		return located{}, false
	}
	l, c := b.position(strings.Index(b.pending, text))
	b.pending = ""
	return located{text: text, line: l, col: c}, true
}
