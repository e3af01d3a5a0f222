package lakesql_test

import (
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/lakesql/lakesql"
	"github.com/lakesql/lakesql/internal/testutil"
)

// fuzzRun runs a statement and returns its rows, sorted, or its error,
// which must be one line.
func fuzzRun(t *testing.T, s *lakesql.Session, statement string) ([]string, error) {
	t.Helper()
	rows, err := testutil.Try(s, statement)
	if err != nil {
		if msg := err.Error(); msg == "" || strings.Contains(msg, "\n") {
			t.Fatalf("%s: error %q is not one line", statement, msg)
		}
	}
	return rows, err
}

// count reads the single number a count query returns.
func count(t *testing.T, rows []string) int64 {
	t.Helper()
	if len(rows) == 1 {
		if n, err := strconv.ParseInt(rows[0], 10, 64); err == nil {
			return n
		}
	}
	t.Fatalf("a count query returned %v", rows)
	return 0
}

// FuzzExecute builds a small table from the fuzz input (random partition
// spec, zero to a few INSERTs of rows with NULLs, so possibly empty and of
// many files) and random queries over it, and checks that nothing panics,
// that every error is one line, and invariants that hold whatever the
// data:
//   - a predicate p splits the rows: count(p) + count(NOT p) + count(p IS
//     NULL) = count(*) (ternary logic partitioning);
//   - the group counts of GROUP BY e add up to count(*);
//   - SELECT * WHERE p reads the same rows with pruning on and off.
func FuzzExecute(f *testing.F) {
	// Seeds: testdata/fuzz/FuzzExecute.
	f.Fuzz(func(t *testing.T, data []byte) {
		ch := testutil.NewChoices(data)
		// Not t.TempDir: a seed's folder has a '#' in its name.
		dir, err := os.MkdirTemp("", "lakesql-fuzz")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.RemoveAll(dir) })
		s := testutil.OpenWith(t, lakesql.Options{Warehouse: dir}, "CREATE NAMESPACE db", "USE db",
			"CREATE TABLE t ("+testutil.FuzzColumns+") "+testutil.FuzzPartitionings[ch.Int(len(testutil.FuzzPartitionings))])
		for range ch.Int(4) {
			var rows []string
			for range 1 + ch.Int(6) {
				rows = append(rows, ch.Row())
			}
			testutil.Exec(t, s, "INSERT INTO t VALUES "+strings.Join(rows, ", "))
		}
		all, err := fuzzRun(t, s, "SELECT count(*) FROM t")
		if err != nil {
			t.Fatal(err)
		}
		total := count(t, all)

		p := ch.Bool()
		var parts int64
		for _, where := range []string{p, "NOT (" + p + ")", "(" + p + ") IS NULL"} {
			rows, err := fuzzRun(t, s, "SELECT count(*) FROM t WHERE "+where)
			if err != nil {
				parts = -1
				break
			}
			parts += count(t, rows)
		}
		if parts >= 0 && parts != total {
			t.Fatalf("WHERE %s, its negation and its NULLs count %d rows of %d", p, parts, total)
		}

		g := ch.Expr()
		if groups, err := fuzzRun(t, s, "SELECT count(*), "+g+" FROM t GROUP BY "+g); err == nil {
			var sum int64
			for _, row := range groups {
				n, _ := strconv.ParseInt(strings.SplitN(row, "|", 2)[0], 10, 64)
				sum += n
			}
			if sum != total {
				t.Fatalf("the groups of GROUP BY %s count %d rows of %d", g, sum, total)
			}
		}

		pruned, err := fuzzRun(t, s, "SELECT * FROM t WHERE "+p)
		testutil.Exec(t, s, "SET pruning = off")
		unpruned, uerr := fuzzRun(t, s, "SELECT * FROM t WHERE "+p)
		testutil.Exec(t, s, "SET pruning = on")
		if (err == nil) != (uerr == nil) || !slices.Equal(pruned, unpruned) {
			t.Fatalf("WHERE %s with pruning: %v (%v); without: %v (%v)", p, pruned, err, unpruned, uerr)
		}

		fuzzRun(t, s, ch.Query())
	})
}
