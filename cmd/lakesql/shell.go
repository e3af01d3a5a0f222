package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"
)

// shell runs statements and prints their results; the script runner and the
// REPL share it, so both modes print and fail the same way.
type shell struct {
	sess   session
	format outputFormat
	timer  bool          // print "Run Time: …" after each statement
	out    *bufio.Writer // flushed after every statement
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
	}()
	start := time.Now()
	res, err := sh.sess.Exec(ctx, stmt)
	if err != nil {
		return err
	}
	if err := renderResult(ctx, res, sh.format, sh.out); err != nil {
		return err
	}
	if sh.timer {
		fmt.Fprintf(sh.out, "Run Time: %.3fs\n", time.Since(start).Seconds())
	}
	return nil
}

// runScript runs the statements read from r in order and stops at the first
// error. Input is read line by line, so a long script or a pipe starts
// running before it has been read in full; a final statement without ';'
// still runs.
func (sh *shell) runScript(ctx context.Context, r io.Reader) error {
	var buf statementBuffer
	br := bufio.NewReader(r)
	for {
		line, readErr := br.ReadString('\n')
		if readErr != nil && readErr != io.EOF {
			return fmt.Errorf("reading SQL: %w", readErr)
		}
		for _, stmt := range buf.add(strings.TrimRight(line, "\r\n")) {
			if err := sh.execute(ctx, stmt); err != nil {
				return err
			}
		}
		if readErr == io.EOF {
			break
		}
	}
	if stmt := buf.flush(); stmt != "" {
		return sh.execute(ctx, stmt)
	}
	return nil
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
