package lakesql_test

// The golden SQL test runner: every testdata/queries/*.test script runs in a
// fresh warehouse, and the rows its queries return are compared with the text
// written after "----". The format (sqllogictest / datadriven style):
//
//	# a comment
//
//	statement ok
//	CREATE NAMESPACE db
//
//	statement error table db.t already exists
//	CREATE TABLE db.t (a INT)
//
//	query [sort]
//	SELECT a, b FROM db.t
//	----
//	1	x
//	2	NULL
//
//	explain
//	SELECT a FROM db.t
//	----
//	<the plan lines>
//
//	explain expect=prune_files,normalize_predicates
//	SELECT a FROM db.t WHERE DATE(ts) = '2026-01-15'
//	----
//	<the plan lines>
//
// A record's SQL runs until a blank line or "----"; its expected output runs
// until a blank line. "query error <text>" is a synonym of "statement error
// <text>": the statement must fail with a one-line message containing <text>.
// Cells are joined by a tab and rendered with value.Format, as the CLI renders them; NULL prints as
// NULL and the empty string as (empty). "query sort" sorts the lines of both the
// actual and the expected output before comparing them. "explain" runs
// EXPLAIN <sql>; with expect=, each named optimizer rule must fire: the plan
// with that rule turned off (SET disabled_optimizers) must differ. In SQL, <WAREHOUSE> and <FIXTURES> stand for the warehouse and
// fixtures folders; in output and error messages those folders are printed as
// the placeholders, and explain output prints snapshot=<ID> for snapshot ids.
//
// Scripts live in testdata/queries/<area>/; those whose name starts with
// "_" are skipped. go test -run TestGolden
// -rewrite replaces the expected output of query and explain records with the
// actual output, leaving everything else as written.

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakesql/lakesql"
	"github.com/lakesql/lakesql/internal/demo"
	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/sql"
	"github.com/lakesql/lakesql/value"
)

var rewrite = flag.Bool("rewrite", false, "rewrite the expected output of testdata/queries/**/*.test with the actual output")

const (
	queriesDir = "testdata/queries"
	// fixturesDir is the fixtures folder (copied from the project's shared fixtures with their LICENSE).
	fixturesDir = "testdata/fixtures"
	// emptyCell renders the empty string (and a blank output line) so that it
	// cannot be confused with the end of an expected-output block.
	emptyCell = "(empty)"
)

func TestGolden(t *testing.T) {
	fixtures, err := filepath.Abs(fixturesDir)
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	err = filepath.WalkDir(queriesDir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".test") && !strings.HasPrefix(d.Name(), "_") {
			paths = append(paths, path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) == 0 {
		t.Fatalf("no scripts in %s", queriesDir)
	}
	for _, path := range paths {
		name, _ := filepath.Rel(queriesDir, path)
		t.Run(strings.TrimSuffix(filepath.ToSlash(name), ".test"), func(t *testing.T) {
			runScript(t, path, fixtures)
		})
	}
}

// recordKind is what a record expects of its statement.
type recordKind int

const (
	statementOK    recordKind = iota // success; rows, if any, are ignored
	statementError                   // an error containing record.errText
	queryRows                        // rows equal to record.expected
	explainPlan                      // EXPLAIN output equal to record.expected
)

// record is one directive with its SQL and expected output.
type record struct {
	kind    recordKind
	line    int    // 1-based line of the directive, for messages
	sql     string // the statement as written
	errText string // statementError: the text the error must contain
	sorted  bool   // queryRows: compare sorted lines
	// expect names optimizer rules that must fire (explain expect=rule,…):
	// turning any of them off (SET disabled_optimizers) must change the plan.
	expect []string

	expected []string // queryRows, explainPlan: the lines after "----"

	// Lines [start, sqlEnd) hold the directive and the SQL, lines [sqlEnd, end)
	// the "----" separator and the expected output, if any.
	start, sqlEnd, end int
}

// hasOutput reports whether the record compares output (and can be rewritten).
func (r *record) hasOutput() bool { return r.kind == queryRows || r.kind == explainPlan }

// script is a parsed .test file.
type script struct {
	path    string
	text    string // the file as read
	lines   []string
	records []*record
}

func isBlank(line string) bool { return strings.TrimSpace(line) == "" }

// parseScript splits a script into records; comments and blank lines between
// records are kept in lines only.
func parseScript(path, text string) (*script, error) {
	sc := &script{path: path, text: text}
	if text != "" {
		sc.lines = strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	}
	for i := 0; i < len(sc.lines); {
		if isBlank(sc.lines[i]) || strings.HasPrefix(sc.lines[i], "#") {
			i++
			continue
		}
		rec, err := parseRecord(sc.lines, i)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, i+1, err)
		}
		sc.records = append(sc.records, rec)
		i = rec.end
	}
	return sc, nil
}

// parseRecord parses the record whose directive is lines[start].
func parseRecord(lines []string, start int) (*record, error) {
	rec := &record{line: start + 1, start: start}
	if err := rec.parseDirective(lines[start]); err != nil {
		return nil, err
	}
	i := start + 1
	for i < len(lines) && !isBlank(lines[i]) && lines[i] != "----" {
		i++
	}
	rec.sql, rec.sqlEnd = strings.Join(lines[start+1:i], "\n"), i
	if err := checkOneStatement(rec.sql); err != nil {
		return nil, err
	}
	if i < len(lines) && lines[i] == "----" {
		if !rec.hasOutput() {
			return nil, fmt.Errorf("%q records have no expected output: remove the ---- line", lines[start])
		}
		i++
		for i < len(lines) && !isBlank(lines[i]) {
			rec.expected = append(rec.expected, lines[i])
			i++
		}
	}
	rec.end = i
	return rec, nil
}

// parseDirective reads "statement ok", "statement error <text>", "query error
// <text>", "query [sort]" or "explain".
func (r *record) parseDirective(line string) error {
	fields := strings.Fields(line)
	switch {
	case len(fields) == 2 && fields[0] == "statement" && fields[1] == "ok":
		r.kind = statementOK
	case len(fields) >= 2 && (fields[0] == "statement" || fields[0] == "query") && fields[1] == "error":
		r.kind = statementError
		_, text, _ := strings.Cut(line, "error")
		r.errText = strings.TrimSpace(text)
		if r.errText == "" {
			return fmt.Errorf("%q needs the text the error must contain", line)
		}
	case fields[0] == "query" && len(fields) <= 2:
		r.kind = queryRows
		if len(fields) == 2 {
			if fields[1] != "sort" {
				return fmt.Errorf("unknown query option %q (known: sort)", fields[1])
			}
			r.sorted = true
		}
	case fields[0] == "explain" && len(fields) <= 2:
		r.kind = explainPlan
		if len(fields) == 2 {
			rules, ok := strings.CutPrefix(fields[1], "expect=")
			if !ok || rules == "" {
				return fmt.Errorf("unknown explain option %q (known: expect=rule,…)", fields[1])
			}
			r.expect = strings.Split(rules, ",")
		}
	default:
		return fmt.Errorf("unknown directive %q (known: statement ok, statement error <text>, query [sort], query error <text>, explain [expect=rule,…])", line)
	}
	return nil
}

// checkOneStatement rejects records holding no statement or several.
func checkOneStatement(text string) error {
	stmts, rest := sql.Split(text)
	n := len(stmts)
	if rest != "" {
		n++
	}
	switch {
	case n == 0:
		return errors.New("the record has no SQL")
	case n > 1:
		return fmt.Errorf("the record holds %d statements; write one record per statement", n)
	}
	return nil
}

// substitutions maps the run's folders to placeholders and back.
type substitutions struct {
	toPlaceholder *strings.Replacer // real paths → <WAREHOUSE>, <FIXTURES>
	toPath        *strings.Replacer // <WAREHOUSE>, <FIXTURES> → real paths
}

func newSubstitutions(warehouse, fixtures string) *substitutions {
	var pairs []string
	for _, p := range []struct{ path, name string }{{warehouse, "<WAREHOUSE>"}, {fixtures, "<FIXTURES>"}} {
		pairs = append(pairs, p.path, p.name)
		if real, err := filepath.EvalSymlinks(p.path); err == nil && real != p.path {
			pairs = append(pairs, real, p.name)
		}
	}
	return &substitutions{
		toPlaceholder: strings.NewReplacer(pairs...),
		toPath:        strings.NewReplacer("<WAREHOUSE>", warehouse, "<FIXTURES>", fixtures),
	}
}

var snapshotID = regexp.MustCompile(`snapshot=\d+`)

// runScript runs one script in a fresh warehouse and, with -rewrite, writes
// the actual output back into it.
func runScript(t *testing.T, path, fixtures string) {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sc, err := parseScript(path, string(data))
	if err != nil {
		t.Fatal(err)
	}
	warehouse := t.TempDir()
	ctx := t.Context()
	opts, err := scriptOptions(sc)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if !opts.clock.IsZero() {
		ctx = planner.WithStatementTime(ctx, opts.clock)
	}
	if opts.demo != nil {
		opts.demo.Warehouse = warehouse
		if err := demo.Build(ctx, *opts.demo); err != nil {
			t.Fatal(err)
		}
	}
	sess, err := lakesql.Open(ctx, lakesql.Options{Warehouse: warehouse, Catalog: opts.catalog})
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	subst := newSubstitutions(warehouse, fixtures)
	actual := map[*record][]string{}
	for _, rec := range sc.records {
		if out, ok := runRecord(ctx, t, sc, rec, sess, subst); ok {
			actual[rec] = out
		}
	}
	if *rewrite {
		writeScript(t, sc, actual)
	}
}

// options are set by header comments before a script's first record:
//
//	# catalog: oleander             the session's catalog name (default lakesql)
//	# demo: 7 days, 2000 events     build the demo warehouse first (lakesql demo)
//	# clock: 2026-11-30 12:00:00     the statements' now() (UTC), for now()-relative filters
type options struct {
	catalog string
	demo    *demo.Options
	clock   time.Time
}

func scriptOptions(sc *script) (options, error) {
	opts := options{catalog: "lakesql"}
	end := len(sc.lines)
	if len(sc.records) > 0 {
		end = sc.records[0].start
	}
	for _, line := range sc.lines[:end] {
		key, value, ok := strings.Cut(strings.TrimPrefix(line, "#"), ":")
		switch strings.TrimSpace(key) {
		case "catalog":
			opts.catalog = strings.TrimSpace(value)
		case "demo":
			var days, events int
			if _, err := fmt.Sscanf(strings.TrimSpace(value), "%d days, %d events", &days, &events); err != nil || !ok {
				return opts, fmt.Errorf("header %q: want \"# demo: N days, M events\"", line)
			}
			opts.demo = &demo.Options{Days: days, EventsPerDay: events}
		case "clock":
			t, err := time.Parse(time.DateTime, strings.TrimSpace(value))
			if err != nil {
				return opts, fmt.Errorf("header %q: want \"# clock: 2006-01-02 15:04:05\"", line)
			}
			opts.clock = t
		}
	}
	return opts, nil
}

// runRecord runs one record and checks it, except that with -rewrite output
// differences are not failures. It returns the actual output of query and
// explain records that ran.
func runRecord(ctx context.Context, t *testing.T, sc *script, rec *record, sess *lakesql.Session, subst *substitutions) ([]string, bool) {
	t.Helper()
	text := subst.toPath.Replace(rec.sql)
	if rec.kind == explainPlan {
		text = "EXPLAIN " + text
	}
	rows, err := execute(ctx, sess, text)
	if err != nil {
		msg := subst.toPlaceholder.Replace(err.Error())
		if rec.kind != statementError {
			fail(t, sc, rec, "unexpected error:\n%s", msg)
			return nil, false
		}
		if strings.Contains(msg, "\n") {
			fail(t, sc, rec, "the error message has several lines (errors must be one line):\n%s", msg)
		}
		if !strings.Contains(msg, rec.errText) {
			fail(t, sc, rec, "expected an error containing:\n%s\nactual error:\n%s", rec.errText, msg)
		}
		return nil, false
	}
	switch rec.kind {
	case statementError:
		fail(t, sc, rec, "expected an error containing:\n%s\nbut the statement succeeded", rec.errText)
		return nil, false
	case statementOK:
		return nil, false
	}
	out := outputLines(rows, subst, rec.kind == explainPlan)
	if rec.sorted {
		// Sorted output keeps rewritten files stable whatever order rows came in.
		slices.Sort(out)
	}
	if !*rewrite {
		compareOutput(t, sc, rec, out)
	}
	for _, rule := range rec.expect {
		checkRuleFires(ctx, t, sc, rec, sess, subst, text, rule, out)
	}
	return out, true
}

// checkRuleFires runs an EXPLAIN again with one optimizer rule turned off:
// the rule fired if the plan is not the same without it.
func checkRuleFires(ctx context.Context, t *testing.T, sc *script, rec *record, sess *lakesql.Session, subst *substitutions, explain, rule string, with []string) {
	t.Helper()
	if _, err := execute(ctx, sess, "SET disabled_optimizers = '"+rule+"'"); err != nil {
		fail(t, sc, rec, "expect=%s: %v", rule, err)
		return
	}
	rows, err := execute(ctx, sess, explain)
	if _, resetErr := execute(ctx, sess, "SET disabled_optimizers = ''"); resetErr != nil {
		t.Fatal(resetErr)
	}
	if err != nil {
		fail(t, sc, rec, "expect=%s: with the rule off: %v", rule, err)
		return
	}
	if slices.Equal(outputLines(rows, subst, true), with) {
		fail(t, sc, rec, "expect=%s: the rule did not fire (the plan is the same without it)", rule)
	}
}

// execute runs one statement and renders its rows, one string per row.
func execute(ctx context.Context, sess *lakesql.Session, text string) (rows []string, err error) {
	res, err := sess.Exec(ctx, text)
	if err != nil {
		return nil, err
	}
	defer func() {
		if cerr := res.Close(); err == nil {
			err = cerr
		}
	}()
	for {
		batch, err := res.Next(ctx)
		if err != nil {
			return nil, err
		}
		if batch == nil {
			return rows, nil
		}
		rows = appendRows(rows, batch)
		batch.Release()
	}
}

// appendRows renders each row of batch as its cells joined by tabs.
func appendRows(rows []string, batch arrow.RecordBatch) []string {
	cells := make([]string, batch.NumCols())
	for i := 0; i < int(batch.NumRows()); i++ {
		for j, col := range batch.Columns() {
			cells[j] = value.Format(col, i)
			if cells[j] == "" {
				cells[j] = emptyCell
			}
		}
		rows = append(rows, strings.Join(cells, "\t"))
	}
	return rows
}

// outputLines turns rendered rows into the lines compared with a record's
// expected output (a cell holding newlines spans several lines).
func outputLines(rows []string, subst *substitutions, explain bool) []string {
	if len(rows) == 0 {
		return nil
	}
	text := subst.toPlaceholder.Replace(strings.Join(rows, "\n"))
	if explain {
		text = snapshotID.ReplaceAllString(text, "snapshot=<ID>")
	}
	lines := strings.Split(text, "\n")
	for i, line := range lines {
		if isBlank(line) {
			lines[i] = emptyCell
		}
	}
	return lines
}

// compareOutput fails the test if out differs from the record's expected lines.
func compareOutput(t *testing.T, sc *script, rec *record, out []string) {
	t.Helper()
	want := rec.expected
	if rec.sorted {
		want = slices.Sorted(slices.Values(want))
	}
	if !slices.Equal(out, want) {
		fail(t, sc, rec, "expected:\n%s\nactual:\n%s", showLines(want), showLines(out))
	}
}

// showLines prints output lines for a failure message.
func showLines(lines []string) string {
	if len(lines) == 0 {
		return "(no rows)"
	}
	return strings.Join(lines, "\n")
}

// fail reports a failed record with its location and SQL.
func fail(t *testing.T, sc *script, rec *record, format string, args ...any) {
	t.Helper()
	t.Errorf("%s:%d: %s\n%s\n%s", sc.path, rec.line, sc.lines[rec.start], rec.sql, fmt.Sprintf(format, args...))
}

// writeScript rewrites the script file with the actual output of its query
// and explain records, if that changes it.
func writeScript(t *testing.T, sc *script, actual map[*record][]string) {
	t.Helper()
	text := sc.render(actual)
	if text == sc.text {
		return
	}
	if err := os.WriteFile(sc.path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("rewrote %s", sc.path)
}

// render returns the script's text with the expected output of each record in
// actual replaced; other records, comments and blank lines stay as written.
func (sc *script) render(actual map[*record][]string) string {
	var out []string
	prev := 0
	for _, rec := range sc.records {
		out = append(out, sc.lines[prev:rec.sqlEnd]...)
		if lines, ok := actual[rec]; ok {
			out = append(out, "----")
			out = append(out, lines...)
		} else {
			out = append(out, sc.lines[rec.sqlEnd:rec.end]...)
		}
		prev = rec.end
	}
	out = append(out, sc.lines[prev:]...)
	return strings.Join(out, "\n") + "\n"
}

// TestGoldenFormat checks the script parser and the rewrite on a small script.
func TestGoldenFormat(t *testing.T) {
	const text = `# comment

statement ok
CREATE NAMESPACE db

query sort
SELECT a
FROM db.t
----
old

# between
explain
SELECT 1

query error boom
SELECT 2
`
	sc, err := parseScript("x.test", text)
	if err != nil {
		t.Fatal(err)
	}
	if len(sc.records) != 4 {
		t.Fatalf("got %d records, want 4", len(sc.records))
	}
	q, ex, qe := sc.records[1], sc.records[2], sc.records[3]
	if q.kind != queryRows || !q.sorted || q.sql != "SELECT a\nFROM db.t" || q.line != 6 || !slices.Equal(q.expected, []string{"old"}) {
		t.Errorf("query record parsed as %+v", q)
	}
	if ex.kind != explainPlan || ex.expected != nil {
		t.Errorf("explain record parsed as %+v", ex)
	}
	if qe.kind != statementError || qe.errText != "boom" {
		t.Errorf("query error record parsed as %+v", qe)
	}
	actual := map[*record][]string{q: {"1", "2"}, ex: {"Plan"}}
	want := strings.Replace(text, "----\nold\n", "----\n1\n2\n", 1)
	want = strings.Replace(want, "SELECT 1\n", "SELECT 1\n----\nPlan\n", 1)
	got := sc.render(actual)
	if got != want {
		t.Fatalf("render:\n%s\nwant:\n%s", got, want)
	}
	again, err := parseScript("x.test", got)
	if err != nil {
		t.Fatal(err)
	}
	if again.render(map[*record][]string{again.records[1]: {"1", "2"}, again.records[2]: {"Plan"}}) != got {
		t.Error("rewriting twice changed the script")
	}
}

func TestGoldenFormatErrors(t *testing.T) {
	for _, text := range []string{
		"statement okay\nSELECT 1\n",
		"statement ok\nSELECT 1\n----\n1\n",
		"statement error\nSELECT 1\n",
		"query nosort\nSELECT 1\n",
		"statement ok\nSELECT 1; SELECT 2\n",
		"statement ok\n-- only a comment\n",
	} {
		if _, err := parseScript("x.test", text); err == nil {
			t.Errorf("parseScript(%q) succeeded, want an error", text)
		}
	}
}
