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
