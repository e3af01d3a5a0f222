package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"testing"

	"github.com/lakesql/lakesql"
)

// TestMain turns the garbage collector on, as main does: the package's
// imports turned it off for initialisation (internal/gcpercent/initoff).
func TestMain(m *testing.M) {
	lakesql.TuneGC()
	os.Exit(m.Run())
}

type cliRun struct {
	code           int
	stdout, stderr string
	opts           lakesql.Options // what the session was opened with
}

// runCLI runs the program in-process against sess, in an existing empty
// warehouse unless the test chose one.
func runCLI(t *testing.T, sess *fakeSession, stdin string, args ...string) cliRun {
	t.Helper()
	if _, set := os.LookupEnv("LAKESQL_WAREHOUSE"); !set && !slices.Contains(args, "--warehouse") {
		t.Setenv("LAKESQL_WAREHOUSE", t.TempDir())
	}
	var r cliRun
	saved := openSession
	t.Cleanup(func() { openSession = saved })
	openSession = func(_ context.Context, opts lakesql.Options) (session, error) {
		r.opts = opts
		return sess, nil
	}
	var stdout, stderr bytes.Buffer
	r.code = run(args, strings.NewReader(stdin), &stdout, &stderr)
	r.stdout, r.stderr = stdout.String(), stderr.String()
	return r
}

func TestExecRunsStatementsInOrder(t *testing.T) {
	sess := &fakeSession{}
	r := runCLI(t, sess, "", "-e", "CREATE TABLE a (x INT); INSERT INTO a VALUES (1)", "-e", "DROP TABLE a")
	if r.code != exitOK || r.stderr != "" {
		t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
	}
	want := []string{"CREATE TABLE a (x INT)", "INSERT INTO a VALUES (1)", "DROP TABLE a"}
	if !slices.Equal(sess.executed, want) {
		t.Errorf("executed %q, want %q", sess.executed, want)
	}
	if r.stdout != "OK\nOK\nOK\n" {
		t.Errorf("stdout %q, want three OK lines", r.stdout)
	}
	if !sess.closed {
		t.Error("session not closed")
	}
}

func TestExecPrintsRowsInChosenFormat(t *testing.T) {
	mem := checkedAlloc(t)
	sess := &fakeSession{results: map[string]func() (result, error){
		"SELECT n": rowsResult(intBatch(t, mem, "n", "[1, null]")),
	}}
	r := runCLI(t, sess, "", "--format", "csv", "-e", "SELECT n;")
	if r.code != exitOK || r.stdout != "n\n1\n\n" {
		t.Errorf("exit %d, stdout %q", r.code, r.stdout)
	}
}

func TestExecStopsAtFirstError(t *testing.T) {
	sess := &fakeSession{results: map[string]func() (result, error){
		"bad": failing("table x not found\nat line 1"),
	}}
	r := runCLI(t, sess, "", "-e", "good; bad; never", "-e", "never either")
	if r.code != exitError {
		t.Errorf("exit %d, want %d", r.code, exitError)
	}
	if r.stderr != "Error: table x not found at line 1\n" {
		t.Errorf("stderr %q, want one Error: line", r.stderr)
	}
	if r.stdout != "OK\n" {
		t.Errorf("stdout %q, want the first statement's OK", r.stdout)
	}
	if !slices.Equal(sess.executed, []string{"good", "bad"}) {
		t.Errorf("executed %q", sess.executed)
	}
}

func TestPanicBecomesError(t *testing.T) {
	sess := &fakeSession{results: map[string]func() (result, error){
		"crash": func() (result, error) { panic("index out of range") },
	}}
	r := runCLI(t, sess, "", "-e", "crash")
	if r.code != exitError || r.stderr != "Error: internal error: index out of range\n" {
		t.Errorf("exit %d, stderr %q", r.code, r.stderr)
	}
}

func TestFileAndExecRunInCommandLineOrder(t *testing.T) {
	path := filepath.Join(t.TempDir(), "script.sql")
	script := "CREATE TABLE t\n  (x INT);\nINSERT INTO t VALUES ('a;b')\n"
	if err := os.WriteFile(path, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	sess := &fakeSession{}
	r := runCLI(t, sess, "", "-e", "first", "-f", path, "-e", "last")
	if r.code != exitOK {
		t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
	}
	want := []string{"first", "CREATE TABLE t\n  (x INT)", "INSERT INTO t VALUES ('a;b')", "last"}
	if !slices.Equal(sess.executed, want) {
		t.Errorf("executed %q, want %q", sess.executed, want)
	}
}

func TestMissingFileIsAnError(t *testing.T) {
	r := runCLI(t, &fakeSession{}, "", "-f", "/nonexistent/x.sql")
	if r.code != exitError || !strings.HasPrefix(r.stderr, "Error: open /nonexistent/x.sql:") {
		t.Errorf("exit %d, stderr %q", r.code, r.stderr)
	}
}

func TestStdinIsRunWhenNotATerminal(t *testing.T) {
	sess := &fakeSession{}
	r := runCLI(t, sess, "SELECT 1;\nSELECT\n2")
	if r.code != exitOK {
		t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
	}
	if want := []string{"SELECT 1", "SELECT\n2"}; !slices.Equal(sess.executed, want) {
		t.Errorf("executed %q, want %q", sess.executed, want)
	}
}

func TestExecIgnoresStdin(t *testing.T) {
	sess := &fakeSession{}
	runCLI(t, sess, "from stdin;", "-e", "from flag")
	if !slices.Equal(sess.executed, []string{"from flag"}) {
		t.Errorf("executed %q", sess.executed)
	}
}

func TestWarehouseAndCatalog(t *testing.T) {
	t.Chdir(t.TempDir())
	t.Setenv("LAKESQL_WAREHOUSE", "")
	if err := os.Mkdir("warehouse", 0o755); err != nil {
		t.Fatal(err)
	}
	if r := runCLI(t, &fakeSession{}, "", "-e", "x"); r.opts.Warehouse != "./warehouse" || r.opts.Catalog != "lakesql" {
		t.Errorf("defaults: opened %+v", r.opts)
	}
	t.Setenv("LAKESQL_WAREHOUSE", "warehouse")
	if r := runCLI(t, &fakeSession{}, "", "-e", "x"); r.opts.Warehouse != "warehouse" {
		t.Errorf("$LAKESQL_WAREHOUSE: opened %+v", r.opts)
	}
	r := runCLI(t, &fakeSession{}, "", "--warehouse", "warehouse", "--catalog", "prod", "-e", "x")
	if r.opts.Warehouse != "warehouse" || r.opts.Catalog != "prod" {
		t.Errorf("flags: opened %+v", r.opts)
	}
}

func TestMissingWarehouseIsAnErrorUnlessAStatementCreates(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "typo")
	sess := &fakeSession{}
	r := runCLI(t, sess, "", "--warehouse", dir, "-e", "INSERT INTO n.t VALUES (1)")
	if r.code != exitError || r.stderr != "Error: warehouse folder "+dir+" does not exist (check --warehouse or $LAKESQL_WAREHOUSE; a CREATE statement creates it)\n" {
		t.Errorf("exit %d, stderr %q", r.code, r.stderr)
	}
	if len(sess.executed) > 0 || r.opts.Warehouse != "" {
		t.Errorf("opened %+v and ran %q for a missing warehouse", r.opts, sess.executed)
	}
	// A query may read files only: it runs on an empty scratch warehouse,
	// and the missing folder stays missing.
	r = runCLI(t, sess, "", "--warehouse", dir, "-e", "/* files */ SELECT * FROM 'x.csv'")
	if r.code != exitOK || r.opts.Warehouse == dir || !strings.Contains(r.opts.Warehouse, "lakesql-scratch-") {
		t.Errorf("query without a warehouse: exit %d, stderr %q, opened %+v", r.code, r.stderr, r.opts)
	}
	if _, err := os.Stat(dir); err == nil {
		t.Errorf("a query created the missing warehouse %s", dir)
	}
	r = runCLI(t, sess, "", "--warehouse", dir, "-e", "-- new\nCREATE NAMESPACE n; SELECT 1")
	if r.code != exitOK || r.stderr != "Created warehouse folder "+dir+"\n" || r.opts.Warehouse != dir {
		t.Errorf("CREATE: exit %d, stderr %q, opened %+v", r.code, r.stderr, r.opts)
	}
}

func TestUsageErrors(t *testing.T) {
	cases := [][]string{
		{"--format", "xml", "-e", "x"},
		{"--no-such-flag"},
		{"SELECT 1"},
		{"-e"},
	}
	for _, args := range cases {
		sess := &fakeSession{}
		r := runCLI(t, sess, "", args...)
		if r.code != exitUsage || !strings.HasPrefix(r.stderr, "Error: ") {
			t.Errorf("%q: exit %d, stderr %q", args, r.code, r.stderr)
		}
		if len(sess.executed) > 0 {
			t.Errorf("%q ran statements", args)
		}
	}
}

func TestVersion(t *testing.T) {
	saved := readBuildInfo
	t.Cleanup(func() { readBuildInfo = saved })
	readBuildInfo = func() *debug.BuildInfo {
		return &debug.BuildInfo{Main: debug.Module{Version: "v0.3.1"}, Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: "0123456789abcdef0123"},
			{Key: "vcs.time", Value: "2026-11-30T10:00:00Z"},
			{Key: "vcs.modified", Value: "true"},
		}}
	}
	r := runCLI(t, &fakeSession{}, "", "--version")
	if want := "lakesql v0.3.1 (revision 0123456789ab, modified, 2026-11-30T10:00:00Z)\n"; r.code != exitOK || r.stdout != want {
		t.Errorf("exit %d, stdout %q, want %q", r.code, r.stdout, want)
	}
	if got := formatVersion("", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}); got != "lakesql (devel)" {
		t.Errorf("a build without VCS stamp: %q", got)
	}
	if got := formatVersion("v1.0.0", nil); got != "lakesql v1.0.0" {
		t.Errorf("-X main.version: %q", got)
	}
}

func TestHelpListsEveryFlagAndTheSubcommand(t *testing.T) {
	for _, arg := range []string{"--help", "-h"} {
		r := runCLI(t, &fakeSession{}, "", arg)
		if r.code != exitOK {
			t.Errorf("%s: exit %d", arg, r.code)
		}
		for _, want := range []string{"--warehouse", "--catalog", "--format", "-e SQL", "-f FILE",
			"--version", "--help", "lakesql demo", "--days", "--events-per-day", "--start",
			"table, line, list, csv, tsv, json, jsonl", "markdown, html, insert"} {
			if !strings.Contains(r.stdout, want) {
				t.Errorf("%s output lacks %q", arg, want)
			}
		}
	}
}

func TestErrorMessageForCancellation(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if got := errorMessage(ctx.Err()); got != "canceled" {
		t.Errorf("errorMessage(canceled) = %q", got)
	}
}
