package bench

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lakesql/lakesql"
)

// TestDifferentialParquetLayout checks that DuckDB's read_parquet reads the
// files lakesql writes at a size where the layout matters: dictionary pages
// (user_id, country), PLAIN pages (id, note), several pages per column
// chunk and a page index. Both engines must agree on every column.
func TestDifferentialParquetLayout(t *testing.T) {
	ctx := context.Background()
	s, err := lakesql.Open(ctx, lakesql.Options{Warehouse: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	db, err := openDuck()
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	digits := "(VALUES (0), (1), (2), (3), (4), (5), (6), (7), (8), (9))"
	if err := lakeExec(ctx, s,
		"CREATE NAMESPACE db",
		`CREATE TABLE db.layout PARTITIONED BY (bucket(2, id)) AS
		 SELECT id, id % 100 AS user_id, CASE WHEN id % 9 = 0 THEN NULL ELSE concat('country-', CAST(id % 7 AS STRING)) END AS country,
		        concat('note ', CAST(id * 7919 AS STRING)) AS note, CAST(id % 13 AS DOUBLE) / 4 AS ratio
		 FROM (SELECT a.x + 10 * b.x + 100 * c.x + 1000 * d.x + 10000 * e.x AS id
		       FROM `+digits+` AS a(x) CROSS JOIN `+digits+` AS b(x) CROSS JOIN `+digits+` AS c(x)
		       CROSS JOIN `+digits+` AS d(x) CROSS JOIN `+digits+` AS e(x)) AS n`,
	); err != nil {
		t.Fatal(err)
	}
	if err := duckViewOf(ctx, s, db, "db.layout"); err != nil {
		t.Fatal(err)
	}
	files, err := dataFiles(ctx, s, "db.layout")
	if err != nil {
		t.Fatal(err)
	}
	enc, err := duckRows(ctx, db, `SELECT path_in_schema, string_agg(DISTINCT CAST(encodings AS VARCHAR), ';')
		FROM parquet_metadata('`+filepath.Clean(files[0])+`') GROUP BY ALL ORDER BY 1`)
	if err != nil {
		t.Fatalf("duckdb parquet_metadata: %v", err)
	}
	dict := map[string]bool{}
	for _, r := range enc.rows {
		dict[r[0].s] = strings.Contains(r[1].s, "DICTIONARY")
	}
	if !dict["user_id"] || !dict["country"] || dict["id"] || dict["note"] {
		t.Fatalf("DuckDB sees encodings %v, want dictionaries in user_id and country only", enc.rows)
	}
	for _, q := range []string{
		`SELECT count(*), count(country), sum(user_id), count(DISTINCT country), min(note), max(note), sum(ratio) FROM db.layout`,
		`SELECT country, count(*), sum(id), min(user_id), max(user_id) FROM db.layout GROUP BY country ORDER BY country NULLS FIRST`,
		`SELECT id, user_id, country, note, ratio FROM db.layout WHERE id IN (0, 9, 19999, 20000, 54321, 99999) ORDER BY id`,
	} {
		want, err := duckRows(ctx, db, q)
		if err != nil {
			t.Fatalf("duckdb: %s: %v", q, err)
		}
		got, err := lakeRows(ctx, s, q)
		if err != nil {
			t.Fatalf("lakesql: %s: %v", q, err)
		}
		if diff := diffResults(want, got, true); diff != "" {
			t.Errorf("%s\n%s\n  duckdb:\n%s  lakesql:\n%s", q, diff, formatRows(want.rows, 10), formatRows(got.rows, 10))
		}
	}
}
