package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/lakesql/lakesql"
)

// openPTY opens a pseudo-terminal of the given width; the shell gets the
// terminal side, the test drives the other.
func openPTY(t *testing.T, width uint16) (control, term *os.File) {
	t.Helper()
	control, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
	if err != nil {
		t.Skipf("no pseudo-terminals here: %v", err)
	}
	t.Cleanup(func() { control.Close() })
	if err := unix.IoctlSetPointerInt(int(control.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Fatal(err)
	}
	n, err := unix.IoctlGetInt(int(control.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Fatal(err)
	}
	term, err = os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { term.Close() })
	if err := unix.IoctlSetWinsize(int(term.Fd()), unix.TIOCSWINSZ, &unix.Winsize{Row: 50, Col: width}); err != nil {
		t.Fatal(err)
	}
	return control, term
}

// syncBuffer collects what the shell writes to the terminal.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

var ansiEscape = regexp.MustCompile(`\x1b\[[0-9;?]*[A-Za-z]`)

// TestREPLOnATerminal runs the whole program on a 60-column pseudo-terminal:
// tables fit the width, long results show their first and last rows with a
// footer, and errors show the line with a caret.
func TestREPLOnATerminal(t *testing.T) {
	const width = 60
	control, term := openPTY(t, width)
	mem := checkedAlloc(t)
	sess := &fakeSession{results: map[string]func() (result, error){
		"SELECT wide": func() (result, error) { return rowsResult(allTypesBatch(t, mem))() },
		"SELECT many": func() (result, error) { return rowsResult(intBatch(t, mem, "n", numbers(1, 100)))() },
		"SELEC 1":     failing(`syntax error at line 1, column 1: unexpected "SELEC", expected statement (did you mean SELECT?)`),
	}}
	saved := openSession
	t.Cleanup(func() { openSession = saved })
	openSession = func(context.Context, lakesql.Options) (session, error) { return sess, nil }
	t.Setenv("LAKESQL_HISTORY", t.TempDir()+"/history")

	var screen syncBuffer
	go func() {
		buf := make([]byte, 4096)
		for {
			n, err := control.Read(buf)
			screen.Write(buf[:n])
			if err != nil {
				return
			}
		}
	}()
	done := make(chan int, 1)
	go func() { done <- run([]string{"--warehouse", t.TempDir()}, term, term, term) }()

	waitFor := func(what string) {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for !strings.Contains(screen.String(), what) {
			if time.Now().After(deadline) {
				t.Fatalf("timed out waiting for %q; screen:\n%s", what, screen.String())
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	waitFor("lakesql> ")
	for _, line := range []string{"SELECT wide;", "SELECT many;", "SELEC 1;"} {
		before := strings.Count(screen.String(), "lakesql> ")
		if _, err := control.WriteString(line + "\r"); err != nil {
			t.Fatal(err)
		}
		deadline := time.Now().Add(10 * time.Second)
		for strings.Count(screen.String(), "lakesql> ") <= before && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
	}
	control.WriteString(".quit\r")
	select {
	case code := <-done:
		if code != exitOK {
			t.Errorf("exit %d", code)
		}
	case <-time.After(10 * time.Second):
		t.Fatalf("the shell did not quit; screen:\n%s", screen.String())
	}
	// The shell has quit, but the reader may not have drained the
	// terminal yet: the error of the last statement comes last.
	waitFor("LINE 1: SELEC 1")

	out := strings.ReplaceAll(ansiEscape.ReplaceAllString(screen.String(), ""), "\r", "")
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "│") || strings.HasPrefix(line, "┌") {
			if n := len([]rune(line)); n > width {
				t.Errorf("table line of %d columns on a %d-column terminal: %s", n, width, line)
			}
		}
	}
	for _, want := range []string{
		"(3 rows)  14 columns (", // all rows, but not all columns, fit
		"│ … │",
		"100 rows (40 shown)",
		"│  20 │\n│   … │\n│  81 │", // the first 20 and the last 20 rows
		"Error: syntax error at line 1, column 1: unexpected \"SELEC\", expected statement (did you mean SELECT?)\nLINE 1: SELEC 1\n        ^\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("terminal lacks %q; screen:\n%s", want, out)
		}
	}
}
