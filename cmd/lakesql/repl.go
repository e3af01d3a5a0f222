package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"

	"github.com/chzyer/readline"

	"github.com/lakesql/lakesql/sql"
)

const (
	promptFirst        = "lakesql> "
	promptContinuation = "     ...> "
	historyLimit       = 10000
)

// replState is the terminal-independent part of the REPL: it consumes input
// lines and runs what they complete.
type replState struct {
	sh     *shell
	stderr io.Writer
	buf    statementBuffer
	lines  []string // lines of the entry being typed, saved to history as one
	// interrupts delivers Ctrl-C while a statement runs; nil disables it.
	interrupts <-chan os.Signal
	// executed is called after statements ran, so completion can refresh
	// its table and column names.
	executed func()
}

// prompt is the prompt for the next line.
func (r *replState) prompt() string {
	if r.buf.empty() {
		return promptFirst
	}
	return promptContinuation
}

// interrupt handles Ctrl-C at the prompt: it clears the current input.
func (r *replState) interrupt() {
	r.buf.reset()
	r.lines = nil
}

// handleLine processes one input line. It returns the history entry the line
// completes ("" while a statement is still open) and whether to quit.
func (r *replState) handleLine(line string) (historyEntry string, quit bool) {
	if r.buf.empty() && isShellCommand(line) {
		quit, err := r.sh.shellCommand(context.Background(), line)
		if err != nil {
			reportError(r.stderr, err)
		}
		return strings.TrimSpace(line), quit
	}
	r.lines = append(r.lines, line)
	stmts := r.buf.add(line)
	for _, stmt := range stmts {
		if err := r.runStatement(stmt.text); err != nil {
			reportError(r.stderr, &statementError{err: err, stmt: stmt, style: caretREPL})
		}
	}
	if len(stmts) > 0 && r.executed != nil {
		r.executed()
	}
	if !r.buf.empty() {
		return "", false
	}
	entry := strings.TrimSpace(strings.Join(r.lines, " "))
	r.lines = nil
	return entry, false
}

// runStatement runs stmt with a context that Ctrl-C cancels, leaving the
// REPL itself running.
func (r *replState) runStatement(stmt string) error {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan struct{})
	defer close(done)
	if r.interrupts != nil {
		drainSignals(r.interrupts) // a Ctrl-C from before this statement is stale
		go func() {
			select {
			case <-r.interrupts:
				cancel()
			case <-done:
			}
		}()
	}
	return r.sh.execute(ctx, stmt)
}

func drainSignals(ch <-chan os.Signal) {
	for {
		select {
		case <-ch:
		default:
			return
		}
	}
}

// runREPL runs the interactive shell on a terminal until .quit or Ctrl-D.
func runREPL(sh *shell, stdin *os.File, stdout, stderr io.Writer) int {
	comp := newCompleter(sql.Keywords(), sh.sess)
	// readline's defaults put os.Stdin into raw mode and measure os.Stdout;
	// the shell's terminal is the one it was given.
	fd := int(stdin.Fd())
	var cooked *readline.State
	rl, err := readline.NewEx(&readline.Config{
		FuncIsTerminal: func() bool { return true },
		FuncMakeRaw: func() (err error) {
			cooked, err = readline.MakeRaw(fd)
			return err
		},
		FuncExitRaw: func() error {
			if cooked == nil {
				return nil
			}
			return readline.Restore(fd, cooked)
		},
		FuncGetWidth: func() int {
			if w, _, err := readline.GetSize(fd); err == nil && w > 0 {
				return w
			}
			return 80
		},
		Prompt:                 promptFirst,
		HistoryFile:            historyPath(),
		HistoryLimit:           historyLimit,
		DisableAutoSaveHistory: true, // multi-line statements are saved whole
		AutoComplete:           comp,
		InterruptPrompt:        "^C",
		Stdin:                  stdin,
		Stdout:                 stdout,
		Stderr:                 stderr,
	})
	if err != nil {
		printError(stderr, fmt.Errorf("starting the shell: %w", err))
		return exitError
	}
	defer rl.Close()

	// While a statement runs the terminal is in cooked mode, so Ctrl-C
	// arrives as SIGINT; catching it for the whole session keeps a stray
	// Ctrl-C between statements from killing the shell.
	interrupts := make(chan os.Signal, 1)
	signal.Notify(interrupts, os.Interrupt)
	defer signal.Stop(interrupts)

	state := &replState{sh: sh, stderr: stderr, interrupts: interrupts, executed: comp.invalidate}
	fmt.Fprintf(stdout, "%s\nEnter \".help\" for usage hints.\n", versionText())
	for {
		rl.SetPrompt(state.prompt())
		line, err := rl.Readline()
		switch {
		case errors.Is(err, readline.ErrInterrupt):
			state.interrupt()
			continue
		case errors.Is(err, io.EOF):
			return exitOK
		case err != nil:
			printError(stderr, fmt.Errorf("reading input: %w", err))
			return exitError
		}
		entry, quit := state.handleLine(line)
		if entry != "" {
			// History is a convenience; failing to save it must not stop the shell.
			_ = rl.SaveHistory(entry)
		}
		if quit {
			return exitOK
		}
	}
}

// historyPath is $LAKESQL_HISTORY, else ~/.lakesql_history; "" (no history)
// when neither can be determined.
func historyPath() string {
	if p := os.Getenv("LAKESQL_HISTORY"); p != "" {
		return p
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return ""
	}
	return filepath.Join(home, ".lakesql_history")
}
