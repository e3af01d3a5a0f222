package lakesql_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/table"

	"github.com/lakesql/lakesql"
	"github.com/lakesql/lakesql/internal/testutil"
	"github.com/lakesql/lakesql/storage"
)

func TestDeleteByPartitionDropsFilesWithoutRewrite(t *testing.T) {
	s, _ := testutil.Open(t,
		"CREATE NAMESPACE db",
		"CREATE TABLE db.t (id INT, region STRING) PARTITIONED BY (region)",
		"INSERT INTO db.t VALUES (1, 'eu'), (2, 'eu'), (3, 'us'), (4, 'asia')",
	)
	before := testutil.LiveFiles(t, s, "db", "t")
	if msg := testutil.Message(t, s, "DELETE FROM db.t WHERE region IN ('eu', 'asia')"); msg != "3 rows deleted" {
		t.Fatalf("message %q", msg)
	}
	after := testutil.LiveFiles(t, s, "db", "t")
	if len(before) != 3 || len(after) != 1 || !slices.Contains(before, after[0]) || !strings.Contains(after[0], "region=us") {
		t.Fatalf("files before %v, after %v: want the us file kept as it was", before, after)
	}
	snap := testutil.Table(t, s, "db", "t").CurrentSnapshot()
	if snap.Summary.Operation != table.OpOverwrite || snap.Summary.Properties["added-data-files"] != "" {
		t.Fatalf("snapshot %v: want an overwrite adding no file", snap.Summary)
	}
	testutil.WantRows(t, s, "SELECT id FROM db.t", "3")
}

func TestDeleteRowLevelRewritesOnlyMatchingFiles(t *testing.T) {
	s, _ := testutil.Open(t,
		"CREATE NAMESPACE db",
		"CREATE TABLE db.t (id INT, v DOUBLE)",
		"INSERT INTO db.t VALUES (1, 1.0), (2, NULL), (3, 3.0)",
		"INSERT INTO db.t VALUES (10, 10.0)",
	)
	before := testutil.LiveFiles(t, s, "db", "t")
	// v > 2 is NULL for id 2, which stays; the second file has no match
	// after reading and is not rewritten.
	if msg := testutil.Message(t, s, "DELETE FROM db.t WHERE v > 2 AND id < 5"); msg != "1 row deleted" {
		t.Fatalf("message %q", msg)
	}
	after := testutil.LiveFiles(t, s, "db", "t")
	kept := 0
	for _, p := range after {
		if slices.Contains(before, p) {
			kept++
		}
	}
	if len(after) != 2 || kept != 1 {
		t.Fatalf("files before %v, after %v: want one kept and one rewritten", before, after)
	}
	testutil.WantRows(t, s, "SELECT id, v FROM db.t", "1|1.0", "2|NULL", "10|10.0")
}

// dmlCopyFixture copies a fixture table to a temporary folder, so statements
// that write never touch the shared fixtures.
func dmlCopyFixture(t *testing.T, name string) string {
	t.Helper()
	src := filepath.Join(dmlFixtures, "iceberg", name)
	dst := filepath.Join(t.TempDir(), name)
	if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	return dst
}

const dmlFixtures = "testdata/fixtures"

func TestPositionDeletesFromSpark(t *testing.T) {
	s, _ := testutil.Open(t)
	dir := dmlCopyFixture(t, "spark_position_deletes")
	testutil.Exec(t, s, "CREATE NAMESPACE fx",
		"CALL system.register_table(table => 'fx.t', metadata_file => '"+filepath.Join(dir, "metadata/00002-8dbf0bf0-882a-4822-ae9c-ec1c0f34ef6d.metadata.json")+"')")
	testutil.WantRows(t, s, "SELECT a FROM fx.t", "1", "2", "4", "5", "7", "8", "10", "11", "13", "14")
	testutil.WantRows(t, s, "SELECT count(*) FROM fx.t", "10")
	testutil.WantRows(t, s, "SELECT count(*) FROM fx.t WHERE b > 1000", "8")

	// Rows 0 and 3 are already deleted: DELETE counts live rows only, and the
	// copies it writes leave the deleted rows out.
	if msg := testutil.Message(t, s, "DELETE FROM fx.t WHERE a < 5"); msg != "3 rows deleted" {
		t.Fatalf("message %q", msg)
	}
	testutil.WantRows(t, s, "SELECT a FROM fx.t", "5", "7", "8", "10", "11", "13", "14")
}

// dmlCommitDeletes writes a delete file with the given columns and values
// ([]int32, []int64 or []string each) and commits it to the table.
func dmlCommitDeletes(t *testing.T, s *lakesql.Session, tbl *table.Table, content iceberg.ManifestEntryContent, partition map[int]any, equalityIDs []int, cols []storage.WriteColumn, values []any) {
	t.Helper()
	ctx := context.Background()
	path := tbl.Location() + "/data/deletes-" + content.String() + ".parquet"
	out, err := s.Warehouse().FS().Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w, err := storage.NewParquetWriter(out, cols, storage.ParquetWriterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	fields := make([]arrow.Field, len(cols))
	arrays := make([]arrow.Array, len(cols))
	for i, c := range cols {
		fields[i] = arrow.Field{Name: c.Name, Type: c.Type, Nullable: !c.Required}
		arrays[i] = dmlArray(values[i])
	}
	batch := array.NewRecordBatch(arrow.NewSchema(fields, nil), arrays, int64(arrays[0].Len()))
	if err := w.Write(batch); err != nil {
		t.Fatal(err)
	}
	m, err := w.Close()
	if err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
	db, err := iceberg.NewDataFileBuilder(tbl.Spec(), content, path, iceberg.ParquetFile, partition, nil, nil, m.RecordCount, m.FileSize)
	if err != nil {
		t.Fatal(err)
	}
	if equalityIDs != nil {
		db.EqualityFieldIDs(equalityIDs)
	}
	tx := tbl.NewTransaction()
	if err := tx.NewRowDelta(nil).AddDeletes(db.Build()).Commit(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}
}

func dmlArray(values any) arrow.Array {
	switch v := values.(type) {
	case []int32:
		b := array.NewInt32Builder(memory.DefaultAllocator)
		b.AppendValues(v, nil)
		return b.NewArray()
	case []int64:
		b := array.NewInt64Builder(memory.DefaultAllocator)
		b.AppendValues(v, nil)
		return b.NewArray()
	case []string:
		b := array.NewStringBuilder(memory.DefaultAllocator)
		b.AppendValues(v, nil)
		return b.NewArray()
	}
	panic("unsupported test values")
}

// TestPositionDeletesAcrossRowGroups: positions count from the start of the
// file, across row groups, including row groups the scan skips.
func TestPositionDeletesAcrossRowGroups(t *testing.T) {
	s, _ := testutil.Open(t,
		"CREATE NAMESPACE db",
		"CREATE TABLE db.t (id BIGINT) TBLPROPERTIES ('write.parquet.row-group-size-rows' = '2')",
		"INSERT INTO db.t VALUES (0), (1), (2), (3), (4), (5)",
	)
	data := testutil.LiveFiles(t, s, "db", "t")[0]
	tbl := testutil.Table(t, s, "db", "t")
	dmlCommitDeletes(t, s, tbl, iceberg.EntryContentPosDeletes, nil, nil,
		[]storage.WriteColumn{{FieldID: 2147483546, Name: "file_path", Type: arrow.BinaryTypes.String, Required: true}, {FieldID: 2147483545, Name: "pos", Type: arrow.PrimitiveTypes.Int64, Required: true}},
		[]any{[]string{data, data, data}, []int64{1, 4, 5}})

	testutil.WantRows(t, s, "SELECT id FROM db.t", "0", "2", "3")
	testutil.WantRows(t, s, "SELECT id FROM db.t WHERE id >= 3", "3")
	testutil.WantRows(t, s, "SELECT count(*) FROM db.t", "3")
}

func TestEqualityDeletes(t *testing.T) {
	s, _ := testutil.Open(t,
		"CREATE NAMESPACE db",
		"CREATE TABLE db.t (id INT, region STRING) PARTITIONED BY (region)",
		"INSERT INTO db.t VALUES (1, 'eu'), (2, 'eu'), (3, 'eu'), (1, 'us'), (2, 'us')",
	)
	dmlCommitDeletes(t, s, testutil.Table(t, s, "db", "t"), iceberg.EntryContentEqDeletes, map[int]any{1000: "eu"}, []int{1},
		[]storage.WriteColumn{{FieldID: 1, Name: "id", Type: arrow.PrimitiveTypes.Int32}}, []any{[]int32{1, 3}})
	// Rows inserted after the delete (a higher sequence number) stay.
	testutil.Exec(t, s, "INSERT INTO db.t VALUES (1, 'eu')")

	testutil.WantRows(t, s, "SELECT id, region FROM db.t", "2|eu", "1|us", "2|us", "1|eu")
	// The equality column is read even when the query does not ask for it.
	testutil.WantRows(t, s, "SELECT region FROM db.t", "eu", "us", "us", "eu")
	testutil.WantRows(t, s, "SELECT count(*) FROM db.t", "4")

	if msg := testutil.Message(t, s, "DELETE FROM db.t WHERE region = 'eu'"); msg != "2 rows deleted" {
		t.Fatalf("message %q", msg)
	}
	testutil.WantRows(t, s, "SELECT id, region FROM db.t", "1|us", "2|us")
}

func TestInsertOverwrite(t *testing.T) {
	s, _ := testutil.Open(t,
		"CREATE NAMESPACE db",
		"CREATE TABLE db.t (id INT, region STRING) PARTITIONED BY (region)",
		"INSERT INTO db.t VALUES (1, 'eu'), (2, 'us')",
	)
	if msg := testutil.Message(t, s, "INSERT OVERWRITE db.t VALUES (3, 'eu'), (4, 'eu')"); msg != "2 rows inserted" {
		t.Fatalf("message %q", msg)
	}
	if op := testutil.Table(t, s, "db", "t").CurrentSnapshot().Summary.Operation; op != table.OpOverwrite {
		t.Fatalf("operation %s, want overwrite", op)
	}
	testutil.WantRows(t, s, "SELECT id, region FROM db.t", "3|eu", "4|eu", "2|us")

	// A failure leaves the table and its data folder as they were.
	dataDir := filepath.Join(s.Warehouse().Dir(), "db", "t", "data")
	before := testutil.FilesBelow(t, dataDir)
	testutil.Error(t, s, "INSERT OVERWRITE db.t SELECT CAST(region AS INT), region FROM db.t")
	if after := testutil.FilesBelow(t, dataDir); !slices.Equal(before, after) {
		t.Fatalf("data files before %v, after %v", before, after)
	}
	testutil.WantRows(t, s, "SELECT id, region FROM db.t", "3|eu", "4|eu", "2|us")
}
