package lakesql_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lakesql/lakesql/internal/testutil"
)

// Every TPC-H query plans with hash joins only: a comma join or a
// correlated subquery never becomes a nested loop join. (Uncorrelated
// subqueries stay <subquery>: they run once.)
func TestTPCHPlansUseHashJoins(t *testing.T) {
	fixtures, err := filepath.Abs(filepath.Join("testdata", "fixtures", "tpch"))
	if err != nil {
		t.Fatal(err)
	}
	setup := []string{"CREATE NAMESPACE tpch", "USE tpch"}
	for _, table := range []string{"region", "nation", "supplier", "customer", "part", "partsupp", "orders", "lineitem"} {
		setup = append(setup, "CREATE TABLE tpch."+table+" AS SELECT * FROM read_parquet('"+filepath.Join(fixtures, table+".parquet")+"')")
	}
	s, _ := testutil.Open(t, setup...)
	queries, err := filepath.Glob(filepath.Join("bench", "tpch", "queries", "q*.sql"))
	if err != nil || len(queries) != 22 {
		t.Fatalf("want the 22 TPC-H queries in bench/tpch/queries, found %d (%v)", len(queries), err)
	}
	for _, path := range queries {
		text, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		query := strings.TrimSuffix(strings.TrimSpace(string(text)), ";")
		plan := testutil.Explain(t, s, query)
		if strings.Contains(plan, "NestedLoopJoin") {
			t.Errorf("%s plans a nested loop join:\n%s", filepath.Base(path), plan)
		}
		if !strings.Contains(plan, "HashJoin") && !strings.Contains(path, "q01") && !strings.Contains(path, "q06") {
			t.Errorf("%s has no hash join:\n%s", filepath.Base(path), plan)
		}
	}
}
