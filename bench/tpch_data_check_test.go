package bench

import (
	"path/filepath"
	"testing"
)

// tpchCardinalities are the rows of each table at SF=1 (TPC-H 2.18 §4.2.5).
var tpchCardinalities = map[string]int64{
	"region": 5, "nation": 25, "supplier": 10_000, "customer": 150_000,
	"part": 200_000, "partsupp": 800_000, "orders": 1_500_000, "lineitem": 6_001_215,
}

// TestTPCHData generates the SF=1 data set (once; it is kept in
// .tpch-data/) and checks that every table has the spec's row count and
// that DuckDB's answers on it match go-tpc's reference answers where those
// apply, which shows the rows are dbgen's.
func TestTPCHData(t *testing.T) {
	if testing.Short() {
		t.Skip("tpch: generating SF=1 is skipped in -short mode")
	}
	ctx := t.Context()
	dir, err := tpchDataset(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	db, err := openDuck()
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, tb := range tpchTables {
		var n int64
		if err := db.QueryRowContext(ctx, "SELECT count(*) FROM read_parquet('"+filepath.Join(dir, tb.name+".parquet")+"')").Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n != tpchCardinalities[tb.name] {
			t.Errorf("%s has %d rows, want %d", tb.name, n, tpchCardinalities[tb.name])
		}
		view := "CREATE VIEW " + tb.name + " AS SELECT * FROM read_parquet('" + filepath.Join(dir, tb.name+".parquet") + "')"
		if err := duckExec(ctx, db, view); err != nil {
			t.Fatal(err)
		}
	}
	refs, err := referenceAnswers(false)
	if err != nil {
		t.Fatal(err)
	}
	queries, err := tpchQueries()
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range queries {
		if ref := refs[q.id]; ref != nil {
			got, err := duckRows(ctx, db, q.text)
			if err != nil {
				t.Fatalf("Q%d: %v", q.id, err)
			}
			if d := ref.diff(got); d != "" {
				t.Errorf("Q%d: DuckDB's answer differs from go-tpc's: %s", q.id, d)
			}
		}
	}
}
