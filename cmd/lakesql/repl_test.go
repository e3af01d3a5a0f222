package main

import (
	"bytes"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestStatementBuffer(t *testing.T) {
	var b statementBuffer
	steps := []struct {
		line  string
		stmts []string
		empty bool
	}{
		{"SELECT 1;", []string{"SELECT 1"}, true},
		{"SELECT", nil, false},
		{"  2;  SELECT 3; SELECT", []string{"SELECT\n  2", "SELECT 3"}, false},
		{"'a;", nil, false},
		{"b';", []string{"SELECT\n'a;\nb'"}, true},
		{"   ", nil, true},
		{";", nil, true},
	}
	for i, s := range steps {
		var got []string
		for _, stmt := range b.add(s.line) {
			got = append(got, stmt.text)
		}
		if !slices.Equal(got, s.stmts) {
			t.Errorf("step %d add(%q) = %q, want %q", i, s.line, got, s.stmts)
		}
		if b.empty() != s.empty {
			t.Errorf("step %d: empty() = %v, want %v (pending %q)", i, b.empty(), s.empty, b.pending)
		}
	}
	b.add("SELECT 4")
	if got, ok := b.flush(); !ok || got.text != "SELECT 4" || !b.empty() {
		t.Errorf("flush() = %q, empty %v", got.text, b.empty())
	}
	b.add("SELECT 5")
	b.reset()
	if !b.empty() {
		t.Error("reset left input pending")
	}
}

// newTestREPL returns a REPL state over sess whose output lands in the
// returned buffers.
func newTestREPL(sess *fakeSession) (*replState, *bytes.Buffer, *bytes.Buffer) {
	var stdout, stderr bytes.Buffer
	sh := newShell(sess, formatTable, &stdout, nil)
	return &replState{sh: sh, stderr: &stderr}, &stdout, &stderr
}

func TestREPLContinuationAndHistory(t *testing.T) {
	sess := &fakeSession{}
	r, stdout, _ := newTestREPL(sess)
	if r.prompt() != promptFirst {
		t.Errorf("first prompt %q", r.prompt())
	}
	if entry, quit := r.handleLine("CREATE TABLE t"); entry != "" || quit {
		t.Errorf("open statement gave entry %q quit %v", entry, quit)
	}
	if r.prompt() != promptContinuation {
		t.Errorf("continuation prompt %q", r.prompt())
	}
	entry, _ := r.handleLine("  (x INT);")
	if entry != "CREATE TABLE t   (x INT);" {
		t.Errorf("history entry %q", entry)
	}
	if r.prompt() != promptFirst || stdout.String() != "OK\n" {
		t.Errorf("after the statement: prompt %q, stdout %q", r.prompt(), stdout.String())
	}
	if !slices.Equal(sess.executed, []string{"CREATE TABLE t\n  (x INT)"}) {
		t.Errorf("executed %q", sess.executed)
	}
}

func TestREPLInterruptClearsInput(t *testing.T) {
	sess := &fakeSession{}
	r, _, _ := newTestREPL(sess)
	r.handleLine("SELECT oops")
	r.interrupt()
	if r.prompt() != promptFirst {
		t.Error("Ctrl-C did not clear the input")
	}
	if entry, _ := r.handleLine("SELECT 1;"); entry != "SELECT 1;" {
		t.Errorf("history entry %q kept cleared input", entry)
	}
	if !slices.Equal(sess.executed, []string{"SELECT 1"}) {
		t.Errorf("executed %q", sess.executed)
	}
}

func TestREPLErrorsAndPanicsDoNotStopIt(t *testing.T) {
	sess := &fakeSession{results: map[string]func() (result, error){
		"bad":   failing("no such table"),
		"crash": func() (result, error) { panic("nil map") },
	}}
	r, stdout, stderr := newTestREPL(sess)
	_, quit := r.handleLine("bad; crash; good;")
	if quit {
		t.Error("an error quit the REPL")
	}
	if want := "Error: no such table\nError: internal error: nil map\n"; stderr.String() != want {
		t.Errorf("stderr %q, want %q", stderr.String(), want)
	}
	if stdout.String() != "OK\n" {
		t.Errorf("stdout %q: the statement after the errors did not run", stdout.String())
	}
}

func TestREPLCtrlCCancelsRunningStatement(t *testing.T) {
	sess := &fakeSession{results: map[string]func() (result, error){
		"slow": func() (result, error) { return &fakeResult{schema: intSchema, block: true}, nil },
	}}
	r, _, stderr := newTestREPL(sess)
	interrupts := make(chan os.Signal, 1)
	r.interrupts = interrupts
	interrupts <- os.Interrupt // stale: pressed before the statement started
	go func() {
		time.Sleep(50 * time.Millisecond)
		interrupts <- os.Interrupt
	}()
	done := make(chan struct{})
	go func() {
		r.handleLine("slow;")
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Ctrl-C did not cancel the statement")
	}
	if stderr.String() != "Error: canceled\n" {
		t.Errorf("stderr %q", stderr.String())
	}
	if _, quit := r.handleLine("next;"); quit {
		t.Error("REPL quit after a cancellation")
	}
}

func TestREPLDotCommands(t *testing.T) {
	mem := checkedAlloc(t)
	sess := &fakeSession{
		tables: []string{"web.events", "web.users"},
		results: map[string]func() (result, error){
			"SELECT n": rowsResult(intBatch(t, mem, "n", "[7]")),
		},
	}
	r, stdout, stderr := newTestREPL(sess)
	steps := []struct {
		line, stdout, stderr string
	}{
		{".tables", "web.events\nweb.users\n", ""},
		{".schema web.events", "OK\n", ""},
		{".mode", "current output mode: table\n", ""},
		{".mode csv", "", ""},
		{"SELECT n;", "n\n7\n", ""},
		{".mode xml", "", "Error: unknown format \"xml\" (want table, line, list, csv, tsv, json, jsonl, markdown, html, insert)\n"},
		{".timer maybe", "", "Error: usage: .timer on|off\n"},
		{".frobnicate", "", "Error: unknown command .frobnicate (enter .help for the list)\n"},
		{".mode table", "", ""},
		{".timer on", "", ""},
	}
	for _, s := range steps {
		stdout.Reset()
		stderr.Reset()
		if entry, quit := r.handleLine(s.line); quit || entry == "" {
			t.Errorf("%s: quit %v, history entry %q", s.line, quit, entry)
		}
		if stdout.String() != s.stdout || stderr.String() != s.stderr {
			t.Errorf("%s: stdout %q stderr %q, want %q %q", s.line, stdout.String(), stderr.String(), s.stdout, s.stderr)
		}
	}
	stdout.Reset()
	r.handleLine("CREATE x;")
	if !regexp.MustCompile(`^OK\nRun Time: \d+\.\d{3}s\n$`).MatchString(stdout.String()) {
		t.Errorf("with .timer on: stdout %q", stdout.String())
	}
	if !slices.Contains(sess.executed, "SHOW CREATE TABLE web.events") {
		t.Errorf(".schema did not run SHOW CREATE TABLE: %q", sess.executed)
	}
	stdout.Reset()
	r.handleLine(".help")
	if !strings.Contains(stdout.String(), ".schema [TABLE]") {
		t.Errorf(".help printed %q", stdout.String())
	}
	for _, cmd := range []string{".quit", "  .exit", "exit", "QUIT;"} {
		if _, quit := r.handleLine(cmd); !quit {
			t.Errorf("%s did not quit", cmd)
		}
	}
}

func TestREPLDotInsideStatementIsSQL(t *testing.T) {
	sess := &fakeSession{}
	r, _, _ := newTestREPL(sess)
	r.handleLine("SELECT")
	if _, quit := r.handleLine(".quit;"); quit {
		t.Error("a line continuing a statement was taken as a dot command")
	}
	if !slices.Equal(sess.executed, []string{"SELECT\n.quit"}) {
		t.Errorf("executed %q", sess.executed)
	}
}

func TestREPLNotifiesAfterStatements(t *testing.T) {
	r, _, _ := newTestREPL(&fakeSession{})
	calls := 0
	r.executed = func() { calls++ }
	r.handleLine("SELECT")
	r.handleLine("1; SELECT 2;")
	r.handleLine(".mode csv")
	if calls != 1 {
		t.Errorf("executed called %d times, want once per line that ran statements", calls)
	}
}

func TestHistoryPath(t *testing.T) {
	t.Setenv("LAKESQL_HISTORY", "/tmp/h")
	if got := historyPath(); got != "/tmp/h" {
		t.Errorf("historyPath() = %q", got)
	}
	t.Setenv("LAKESQL_HISTORY", "")
	t.Setenv("HOME", "/home/u")
	if got := historyPath(); got != "/home/u/.lakesql_history" {
		t.Errorf("historyPath() = %q", got)
	}
}
