package main

import (
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
)

// errorStyle is how a failed statement is reported.
type errorStyle int

const (
	oneLine     errorStyle = iota // -e: "Error: <message>", positions within the statement
	caretREPL                     // REPL: plus the line and a caret, positions within the statement
	caretScript                   // -f, stdin, .read: plus the line and a caret, positions within the file
)

// statementError is a statement that failed, with where it came from.
type statementError struct {
	err    error
	stmt   located
	source string // file name; "" for standard input
	style  errorStyle
}

func (e *statementError) Error() string { return e.err.Error() }
func (e *statementError) Unwrap() error { return e.err }

// commandError is a dot command of a script that failed.
type commandError struct {
	err    error
	source string
	line   int
}

func (e *commandError) Error() string {
	return fmt.Sprintf("%s line %d: %s", sourceName(e.source), e.line, e.err)
}
func (e *commandError) Unwrap() error { return e.err }

// errorPosition finds the "line L, column C" that parser and binder errors
// carry, relative to the statement.
var errorPosition = regexp.MustCompile(`line (\d+), column (\d+)`)

// reportError prints err: one line for -e and other errors, and for the REPL
// and scripts the offending line with a caret under the error position, as
// DuckDB's shell does.
func reportError(w io.Writer, err error) {
	var se *statementError
	if !errors.As(err, &se) || se.style == oneLine {
		if se != nil {
			err = se.err
		}
		printError(w, err)
		return
	}
	msg := errorMessage(se.err)
	m := errorPosition.FindStringSubmatchIndex(msg)
	if m == nil {
		if se.style == caretScript {
			msg += fmt.Sprintf(" (%s line %d)", sourceName(se.source), se.stmt.line)
		}
		fmt.Fprintf(w, "Error: %s\n", msg)
		return
	}
	line, _ := strconv.Atoi(msg[m[2]:m[3]])
	col, _ := strconv.Atoi(msg[m[4]:m[5]])
	shown := line // the line number printed: the statement's or the file's
	if se.style == caretScript {
		shown = se.stmt.line + line - 1
		fileCol := col
		if line == 1 {
			fileCol = se.stmt.col + col - 1
		}
		where := fmt.Sprintf("line %d, column %d", shown, fileCol)
		if se.source != "" {
			where += " of " + se.source
		}
		msg = msg[:m[0]] + where + msg[m[1]:]
	}
	fmt.Fprintf(w, "Error: %s\n", msg)
	lines := strings.Split(se.stmt.text, "\n")
	if line < 1 || line > len(lines) {
		return
	}
	text := lines[line-1]
	prefix := fmt.Sprintf("LINE %d: ", shown)
	fmt.Fprintf(w, "%s%s\n%s^\n", prefix, text, strings.Repeat(" ", utf8.RuneCountInString(prefix))+caretPad(text, col))
}

// caretPad is the blank space before column col of text: tabs are kept so
// the caret lines up under them.
func caretPad(text string, col int) string {
	var b strings.Builder
	for i, r := range []rune(text) {
		if i >= col-1 {
			break
		}
		if r == '\t' {
			b.WriteRune('\t')
		} else {
			b.WriteByte(' ')
		}
	}
	if n := col - 1 - utf8.RuneCountInString(text); n > 0 {
		b.WriteString(strings.Repeat(" ", n))
	}
	return b.String()
}
