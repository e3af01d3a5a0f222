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

const replHelp = `Enter SQL statements terminated by ';'. A statement may span several lines.
Dot commands (at the start of a line):
  .help              show this help
  .tables            list the tables of the warehouse
  .schema TABLE      describe TABLE
  .mode FORMAT       set the output format: table, csv, json, markdown
  .timer on|off      print the run time after each statement
  .quit, .exit       leave the shell (Ctrl-D too)
Ctrl-C cancels the running statement, or clears the current input.
`

// statementBuffer accumulates input lines until they hold complete
// statements. It is the REPL's and the script runner's line logic, kept free
// of terminal I/O so it can be tested directly.
type statementBuffer struct {
	pending string
}

// add appends one input line (without its newline) and returns the
// statements it completes, in order.
func (b *statementBuffer) add(line string) []string {
	b.pending += line + "\n"
	stmts, rest := sql.Split(b.pending)
	if strings.TrimSpace(rest) == "" {
		rest = ""
	}
	b.pending = rest
	return stmts
}

// empty reports whether no statement is partially typed.
func (b *statementBuffer) empty() bool { return b.pending == "" }

// reset drops the partially typed statement.
func (b *statementBuffer) reset() { b.pending = "" }

// flush returns the unterminated tail, for the end of a script, and resets.
func (b *statementBuffer) flush() string {
	s := strings.TrimSpace(b.pending)
	b.pending = ""
	return s
}

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
	if r.buf.empty() && strings.HasPrefix(strings.TrimSpace(line), ".") {
		quit, err := r.dotCommand(strings.TrimSpace(line))
		if err != nil {
			printError(r.stderr, err)
		}
		return strings.TrimSpace(line), quit
	}
	r.lines = append(r.lines, line)
	stmts := r.buf.add(line)
	for _, stmt := range stmts {
		if err := r.runStatement(stmt); err != nil {
			printError(r.stderr, err)
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

// dotCommand runs a shell command such as ".mode csv".
func (r *replState) dotCommand(line string) (quit bool, err error) {
	fields := strings.Fields(line)
	name, args := fields[0], fields[1:]
	switch name {
	case ".quit", ".exit":
		return true, nil
	case ".help":
		_, err = io.WriteString(r.sh.out, replHelp)
	case ".tables":
		err = r.printTables()
	case ".schema":
		if len(args) != 1 {
			return false, errors.New("usage: .schema TABLE")
		}
		err = r.runStatement("DESCRIBE " + args[0])
	case ".mode":
		err = r.setMode(args)
	case ".timer":
		err = r.setTimer(args)
	default:
		return false, fmt.Errorf("unknown command %s (enter .help for the list)", name)
	}
	if ferr := r.sh.out.Flush(); err == nil {
		err = ferr
	}
	return false, err
}

func (r *replState) printTables() error {
	for _, name := range r.sh.sess.TableNames(context.Background()) {
		if _, err := fmt.Fprintln(r.sh.out, name); err != nil {
			return err
		}
	}
	return nil
}

func (r *replState) setMode(args []string) error {
	if len(args) == 0 {
		_, err := fmt.Fprintf(r.sh.out, "current output format: %s\n", r.sh.format)
		return err
	}
	if len(args) > 1 {
		return errors.New("usage: .mode FORMAT")
	}
	f, err := parseFormat(args[0])
	if err != nil {
		return err
	}
	r.sh.format = f
	return nil
}

func (r *replState) setTimer(args []string) error {
	if len(args) != 1 || (args[0] != "on" && args[0] != "off") {
		return errors.New("usage: .timer on|off")
	}
	r.sh.timer = args[0] == "on"
	return nil
}

// runREPL runs the interactive shell on a terminal until .quit or Ctrl-D.
func runREPL(sh *shell, stdin *os.File, stdout, stderr io.Writer) int {
	comp := newCompleter(sql.Keywords(), sh.sess)
	rl, err := readline.NewEx(&readline.Config{
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
	fmt.Fprintf(stdout, "lakesql %s\nEnter \".help\" for usage hints.\n", version)
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
