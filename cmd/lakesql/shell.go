package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"
)

// defaultMaxRows is how many rows a table result shows on a terminal.
const defaultMaxRows = 40

// shell runs statements and dot commands and prints their results; the
// script runner (-e, -f, standard input, .read) and the REPL share it, so
// every way in prints and fails the same way.
type shell struct {
	sess  session
	opts  renderOptions // format, headers, nullvalue, insert table
	timer bool          // print "Run Time: …" after each statement
	// maxRows and maxWidth as set by .maxrows and .maxwidth; unset, they
	// apply only to a terminal (40 rows, the terminal's width).
	maxRows, maxWidth       int
	maxRowsSet, maxWidthSet bool

	stdout     io.Writer
	stdoutTerm func() (width int, ok bool) // reports whether stdout is a terminal, and its width
	out        *bufio.Writer               // current output, flushed after every statement
	file       *os.File                    // .output or .once file; nil for stdout
	fileName   string
	once       bool // file is for the next statement only
}

// newShell returns a shell printing to stdout in format f; term reports
// whether stdout is a terminal and its width (nil: never a terminal).
func newShell(sess session, f outputFormat, stdout io.Writer, term func() (int, bool)) *shell {
	if term == nil {
		term = func() (int, bool) { return 0, false }
	}
	return &shell{
		sess:       sess,
		opts:       renderOptions{format: f, headers: true},
		maxRows:    defaultMaxRows,
		stdout:     stdout,
		stdoutTerm: term,
		out:        bufio.NewWriter(stdout),
	}
}

// renderOptions resolves the row and width limits for the current output:
// set explicitly they always apply, otherwise only to a terminal.
func (sh *shell) renderOptions() renderOptions {
	o := sh.opts
	width, term := 0, false
	if sh.file == nil {
		width, term = sh.stdoutTerm()
	}
	if sh.maxRowsSet || term {
		o.maxRows = sh.maxRows
	}
	switch {
	case sh.maxWidthSet && sh.maxWidth > 0:
		o.maxWidth = sh.maxWidth
	case term:
		o.maxWidth = width
	}
	return o
}

// execute runs one statement and renders its result. A panic in the engine
// or a renderer is returned as an error so one bad statement cannot take the
// shell down.
func (sh *shell) execute(ctx context.Context, stmt string) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("internal error: %v", r)
		}
		if ferr := sh.out.Flush(); err == nil && ferr != nil {
			err = fmt.Errorf("writing output: %w", ferr)
		}
		if sh.once {
			if cerr := sh.setOutput(""); err == nil {
				err = cerr
			}
		}
	}()
	start := time.Now()
	res, err := sh.sess.Exec(ctx, stmt)
	if err != nil {
		return err
	}
	if err := renderResult(ctx, res, sh.renderOptions(), sh.out); err != nil {
		return err
	}
	if sh.timer {
		fmt.Fprintf(sh.out, "Run Time: %.3fs\n", time.Since(start).Seconds())
	}
	return nil
}

// setOutput sends what follows to the file name, or back to standard output
// for "" (and "stdout"), closing a previous file.
func (sh *shell) setOutput(name string) error {
	err := sh.out.Flush()
	if sh.file != nil {
		if cerr := sh.file.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("closing %s: %w", sh.fileName, cerr)
		}
		sh.file, sh.fileName, sh.once = nil, "", false
	}
	sh.out = bufio.NewWriter(sh.stdout)
	if name == "" || name == "stdout" {
		return err
	}
	f, ferr := os.Create(name)
	if ferr != nil {
		return ferr // *PathError names the file
	}
	sh.file, sh.fileName = f, name
	sh.out = bufio.NewWriter(f)
	return err
}

// close flushes the output and closes an output file.
func (sh *shell) close() error { return sh.setOutput("") }

// runScript runs the statements and dot commands read from r in order and
// stops at the first error or at .quit/exit. Input is read line by line, so
// a long script or a pipe starts running before it has been read in full; a
// final statement without ';' still runs. source names r in errors ("" for
// standard input); errors carry the statement and its place in r so they can
// be shown in style.
func (sh *shell) runScript(ctx context.Context, r io.Reader, source string, style errorStyle) (quit bool, err error) {
	var buf statementBuffer
	br := bufio.NewReader(r)
	for lineNo := 1; ; lineNo++ {
		line, readErr := br.ReadString('\n')
		if readErr != nil && readErr != io.EOF {
			return false, fmt.Errorf("reading %s: %w", sourceName(source), readErr)
		}
		line = strings.TrimRight(line, "\r\n")
		if buf.empty() && isShellCommand(line) {
			buf.skip()
			quit, err := sh.shellCommand(ctx, line)
			if err != nil {
				return false, &commandError{err: err, source: source, line: lineNo}
			}
			if quit {
				return true, nil
			}
		} else {
			for _, stmt := range buf.add(line) {
				if err := sh.execute(ctx, stmt.text); err != nil {
					return false, &statementError{err: err, stmt: stmt, source: source, style: style}
				}
			}
		}
		if readErr == io.EOF {
			break
		}
	}
	if stmt, ok := buf.flush(); ok {
		if err := sh.execute(ctx, stmt.text); err != nil {
			return false, &statementError{err: err, stmt: stmt, source: source, style: style}
		}
	}
	return false, nil
}

// isShellCommand reports whether a line (outside a statement) is for the
// shell rather than SQL: a dot command, or exit/quit as DuckDB accepts them.
func isShellCommand(line string) bool {
	t := strings.TrimSpace(line)
	return strings.HasPrefix(t, ".") || isQuitWord(t)
}

func isQuitWord(t string) bool {
	t = strings.ToLower(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(t), ";")))
	return t == "exit" || t == "quit"
}

// shellCommand runs a dot command or exit/quit.
func (sh *shell) shellCommand(ctx context.Context, line string) (quit bool, err error) {
	if isQuitWord(line) {
		return true, nil
	}
	return sh.dotCommand(ctx, strings.TrimSpace(line))
}

func sourceName(source string) string {
	if source == "" {
		return "standard input"
	}
	return source
}

// printError prints err as the one-line "Error: <message>" the CLI promises.
func printError(w io.Writer, err error) {
	fmt.Fprintf(w, "Error: %s\n", errorMessage(err))
}

// errorMessage turns err into one line. Cancellation (Ctrl-C) is reported as
// plain "canceled" rather than Go's "context canceled".
func errorMessage(err error) string {
	if errors.Is(err, context.Canceled) {
		return "canceled"
	}
	return strings.ReplaceAll(strings.TrimSpace(err.Error()), "\n", " ")
}
