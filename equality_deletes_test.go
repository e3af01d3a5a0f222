package lakesql_test

import (
	"context"
	"iter"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/iceberg-go/table"

	"github.com/lakesql/lakesql"
	"github.com/lakesql/lakesql/internal/testutil"
)

// TestEqualityDeletesMatchIcebergGo: equality delete files on one column and
// on two, holding NULLs (which equal NULL), written and committed by
// iceberg-go's own writer, delete the same rows for lakesql as for
// iceberg-go's scan: only from older data files, and, in a partitioned
// table, only in the delete file's partition.
func TestEqualityDeletesMatchIcebergGo(t *testing.T) {
	for _, partitioned := range []bool{false, true} {
		name := "unpartitioned"
		ddl := "CREATE TABLE db.t (id INT, name STRING, region STRING, v BIGINT)"
		if partitioned {
			name = "partitioned"
			ddl += " PARTITIONED BY (region)"
		}
		t.Run(name, func(t *testing.T) {
			s, dir := testutil.Open(t, "CREATE NAMESPACE db", ddl,
				`INSERT INTO db.t VALUES (1, 'a', 'eu', 10), (2, 'b', 'eu', 20), (3, NULL, 'eu', 30), (NULL, 'x', 'eu', 40), (NULL, NULL, 'eu', 50)`,
				`INSERT INTO db.t VALUES (1, 'a', 'us', 11), (2, 'b', 'us', 21), (3, NULL, 'us', 31), (NULL, 'x', 'us', 41), (4, 'd', NULL, 61)`)
			if n := len(testutil.Rows(t, s, "SELECT * FROM db.t")); n != 10 {
				t.Fatalf("%d rows before the deletes", n)
			}
			// Partitioned, the partition source column routes each delete
			// row to its partition; unpartitioned, the deletes are global.
			keys := func(cols ...string) []string {
				if partitioned {
					return append(cols, "region")
				}
				return cols
			}
			// One column: id 1 and NULL, in region eu.
			commitEqualityDeletes(t, s, keys("id"), []string{"id"},
				`[{"id": 1, "region": "eu"}, {"id": null, "region": "eu"}]`)
			// Two columns: (2, 'b'), (3, NULL) and (NULL, 'x'), in region us.
			commitEqualityDeletes(t, s, keys("id", "name"), []string{"id", "name"},
				`[{"id": 2, "name": "b", "region": "us"}, {"id": 3, "name": null, "region": "us"}, {"id": null, "name": "x", "region": "us"}]`)
			// Rows written after the deletes are not deleted by them.
			testutil.Exec(t, s, `INSERT INTO db.t VALUES (1, 'a', 'eu', 12), (NULL, 'x', 'us', 42), (3, NULL, 'us', 32)`)

			got := testutil.Rows(t, s, "SELECT * FROM db.t")
			if want := testutil.IcebergGoRows(t, dir, "db", "t"); !slices.Equal(got, want) {
				t.Fatalf("lakesql read\n%s\niceberg-go read\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
			later := []string{"1|a|eu|12", "NULL|x|us|42", "3|NULL|us|32"}
			if partitioned {
				// Each delete file deletes in its own partition only; the
				// row of the NULL partition is in neither.
				testutil.WantRows(t, s, "SELECT * FROM db.t", append([]string{"2|b|eu|20", "3|NULL|eu|30", "1|a|us|11", "4|d|NULL|61"}, later...)...)
				testutil.WantRows(t, s, "SELECT count(*), sum(v) FROM db.t WHERE v < 50", "6|147")
			} else {
				testutil.WantRows(t, s, "SELECT * FROM db.t", append([]string{"4|d|NULL|61"}, later...)...)
				testutil.WantRows(t, s, "SELECT count(*), sum(v) FROM db.t WHERE v < 50", "3|86")
			}
			// The equality columns are read even when the query reads none.
			testutil.WantRows(t, s, "SELECT count(*) FROM db.t", itoa(len(got)))
			nullNames := []string{"us"}
			if partitioned {
				nullNames = append(nullNames, "eu")
			}
			testutil.WantRows(t, s, "SELECT region FROM db.t WHERE name IS NULL AND id = 3", nullNames...)
		})
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// commitEqualityDeletes writes the rows (JSON, columns cols of the table) as
// equality deletes on the columns eq, with iceberg-go, and commits them.
func commitEqualityDeletes(t *testing.T, s *lakesql.Session, cols, eq []string, rows string) {
	t.Helper()
	ctx := context.Background()
	tbl := testutil.Table(t, s, "db", "t")
	sub, err := tbl.Schema().Select(true, cols...)
	if err != nil {
		t.Fatal(err)
	}
	schema, err := table.SchemaToArrowSchema(sub, nil, false, false)
	if err != nil {
		t.Fatal(err)
	}
	rec, _, err := array.RecordFromJSON(memory.DefaultAllocator, schema, strings.NewReader(rows))
	if err != nil {
		t.Fatal(err)
	}
	defer rec.Release()
	ids := make([]int, len(eq))
	for i, name := range eq {
		f, ok := tbl.Schema().FindFieldByName(name)
		if !ok {
			t.Fatalf("no column %s", name)
		}
		ids[i] = f.ID
	}
	tx := tbl.NewTransaction()
	records := iter.Seq2[arrow.RecordBatch, error](func(yield func(arrow.RecordBatch, error) bool) { yield(rec, nil) })
	if err := tx.CommitEqualityDeletes(ctx, ids, records, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}
}
