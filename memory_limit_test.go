package lakesql_test

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/lakesql/lakesql/internal/testutil"
)

// TestOrderBySpillsUnderMemoryLimit sorts more rows than SET memory_limit
// lets ORDER BY hold: the rows come back in the same order as without a
// limit, through spill files in temp_directory that are gone afterwards.
// (Not parallel: the memory limit is the process's.)
func TestOrderBySpillsUnderMemoryLimit(t *testing.T) {
	s, _ := testutil.Open(t)
	tmp := t.TempDir()
	query := "SELECT n, 'v' || CAST(n % 997 AS STRING) AS s, CASE WHEN n % 13 = 0 THEN NULL ELSE n % 101 END AS k FROM range(100000) AS r(n) ORDER BY k DESC NULLS FIRST, s, n"
	want := testutil.RowsInOrder(t, s, query)
	testutil.Exec(t, s, "SET memory_limit = '2MB'", "SET temp_directory = '"+tmp+"'")
	t.Cleanup(func() { testutil.Exec(t, s, "RESET memory_limit", "RESET temp_directory") })
	if rows := testutil.Rows(t, s, "SET memory_limit"); len(rows) != 1 || !strings.HasPrefix(rows[0], "memory_limit|1.9 MiB|") {
		t.Fatalf("SET memory_limit shows %q", rows)
	}
	got := testutil.RowsInOrder(t, s, query)
	if !slices.Equal(got, want) {
		t.Fatalf("ORDER BY under memory_limit differs: %d rows, want %d", len(got), len(want))
	}
	if entries, _ := os.ReadDir(tmp); len(entries) > 0 {
		t.Fatalf("%d spill files left in temp_directory", len(entries))
	}
	testutil.WantError(t, s, "SET memory_limit = 'lots'", `SET memory_limit takes a size such as '4GB' or '512MiB', not "lots"`)
	testutil.WantError(t, s, "SET temp_directory = '/nonexistent/x'", "SET temp_directory: /nonexistent/x is not a folder")
}

// spillQueries are the operators that spill, each over more rows than
// their share of SET memory_limit = '2MB', with NULLs among the keys.
var spillQueries = map[string]string{
	"DISTINCT": "SELECT DISTINCT n % 40000 AS a, CASE WHEN n % 7 = 0 THEN NULL ELSE 'v' || CAST(n % 13 AS STRING) END AS b FROM range(120000) AS r(n)",
	"hash join": "SELECT l.n, l.k, r.n FROM (SELECT n, CASE WHEN n % 11 = 0 THEN NULL ELSE n % 30000 END AS k FROM range(60000) AS t(n)) l " +
		"LEFT JOIN (SELECT n, n % 45000 AS k FROM range(45000) AS t(n)) r ON l.k = r.k",
	"anti join": "SELECT n FROM range(60000) AS t(n) WHERE NOT EXISTS (SELECT 1 FROM range(40000) AS u(m) WHERE u.m * 2 = t.n % 50000)",
	"window": "SELECT n, row_number() OVER (PARTITION BY n % 1000 ORDER BY n DESC) AS rn, sum(n) OVER (PARTITION BY n % 1000) AS s " +
		"FROM range(60000) AS t(n)",
	"semi join": "SELECT n FROM range(40000) AS t(n) WHERE EXISTS (SELECT 1 FROM range(60000) AS u(m) WHERE u.m % 30000 = t.n)",
}

// TestOperatorsSpillUnderMemoryLimit runs each spilling operator with and
// without SET memory_limit = '2MB': the same rows, and no spill file left
// in temp_directory. (Not parallel: the memory limit is the process's.)
func TestOperatorsSpillUnderMemoryLimit(t *testing.T) {
	s, _ := testutil.Open(t)
	tmp := t.TempDir()
	for what, query := range spillQueries {
		want := testutil.Rows(t, s, query)
		testutil.Exec(t, s, "SET memory_limit = '2MB'", "SET temp_directory = '"+tmp+"'")
		got := testutil.Rows(t, s, query)
		testutil.Exec(t, s, "RESET memory_limit", "RESET temp_directory")
		if !slices.Equal(got, want) {
			t.Errorf("%s under memory_limit differs: %d rows, want %d", what, len(got), len(want))
		}
		if entries, _ := os.ReadDir(tmp); len(entries) > 0 {
			t.Errorf("%s left %d spill files in temp_directory", what, len(entries))
		}
	}
}
