package lakesql_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/iceberg-go"
	icecatalog "github.com/apache/iceberg-go/catalog"
	"github.com/apache/iceberg-go/table"
	"github.com/apache/iceberg-go/table/dv"

	"github.com/lakesql/lakesql/internal/testutil"
	"github.com/lakesql/lakesql/storage"
)

// TestDeletionVectorOnlyForSurvivingFiles: a deletion vector is read only for
// a data file the scan keeps. The Trino fixture's first vector (of the first
// data file, c1 0..7) is damaged; a query whose stats pruning drops that file
// still answers, and one that reads the file fails naming the vector's file.
func TestDeletionVectorOnlyForSurvivingFiles(t *testing.T) {
	dir := dmlCopyFixture(t, "deletion_vectors")
	vector := filepath.Join(dir, "data", "dv-20260504_111446_00010_8gkte-9a41c74f-3cae-4b67-a4e3-ec4437d1c988.puffin")
	if err := os.Truncate(vector, 10); err != nil {
		t.Fatal(err)
	}
	s, _ := testutil.Open(t, "CREATE NAMESPACE fx",
		"CALL system.register_table(table => 'fx.dv', metadata_file => '"+filepath.Join(dir, "metadata", "00004-ae0294d0-1de5-4fab-97f1-cd80e0078fa4.metadata.json")+"')")
	const beforeSecondDelete = " FOR VERSION AS OF 7026943662205930455"

	testutil.WantRows(t, s, "SELECT c1 FROM fx.dv"+beforeSecondDelete+" WHERE c1 >= 8", "8", "9", "10", "11", "12", "13", "14", "15")
	testutil.WantRows(t, s, "SELECT count(*) FROM fx.dv"+beforeSecondDelete+" WHERE c1 >= 8", "8")
	testutil.WantError(t, s, "SELECT c1 FROM fx.dv"+beforeSecondDelete, "dv-20260504_111446_00010_8gkte-9a41c74f-3cae-4b67-a4e3-ec4437d1c988.puffin")
	// The current snapshot's vectors are in another Puffin file.
	testutil.WantRows(t, s, "SELECT c1 FROM fx.dv", "2", "5", "8", "9", "11", "12", "14", "15")
}

// TestDeletionVectorsWrittenByIcebergGo: deletion vectors that iceberg-go's
// DV writer puts in one Puffin file, for two data files of 150,000 rows
// (positions past the 65,536 of a Roaring container), delete the same rows
// for lakesql as for iceberg-go's scan. The table had v2 position deletes
// first: once a data file has a vector, its position delete files no longer
// apply (a writer merges them into the vector; here it did not, on purpose).
func TestDeletionVectorsWrittenByIcebergGo(t *testing.T) {
	ctx := context.Background()
	s, dir := testutil.Open(t, "CREATE NAMESPACE db")
	schema := iceberg.NewSchema(0, iceberg.NestedField{ID: 1, Name: "id", Type: iceberg.PrimitiveTypes.Int64})
	if _, err := s.Warehouse().Catalog().CreateTable(ctx, table.Identifier{"db", "t"}, schema,
		icecatalog.WithProperties(iceberg.Properties{"format-version": "2", "write.parquet.row-group-limit": "40000"})); err != nil {
		t.Fatal(err)
	}
	const n = 150000
	appendIDs(t, testutil.Table(t, s, "db", "t"), 0, n)
	files := testutil.LiveFiles(t, s, "db", "t") // the first file: ids 0..n-1
	appendIDs(t, testutil.Table(t, s, "db", "t"), n, n)
	files = append(files, slices.DeleteFunc(testutil.LiveFiles(t, s, "db", "t"), func(f string) bool { return f == files[0] })...)
	tbl := testutil.Table(t, s, "db", "t")
	// v2 position deletes, in one file: rows 1..9 of each data file.
	var paths []string
	var positions []int64
	for _, f := range files {
		for p := int64(1); p <= 9; p++ {
			paths, positions = append(paths, f), append(positions, p)
		}
	}
	dmlCommitDeletes(t, s, tbl, iceberg.EntryContentPosDeletes, nil, nil,
		[]storage.WriteColumn{{FieldID: 2147483546, Name: "file_path", Type: arrow.BinaryTypes.String, Required: true}, {FieldID: 2147483545, Name: "pos", Type: arrow.PrimitiveTypes.Int64, Required: true}},
		[]any{paths, positions})
	tbl = testutil.Table(t, s, "db", "t")
	testutil.WantRows(t, s, "SELECT count(*) FROM db.t", fmt.Sprint(2*n-18))

	// Format v3, and a vector for the first file only: every 7th row and
	// the last one, in one Puffin file.
	tx := tbl.NewTransaction()
	if err := tx.UpgradeFormatVersion(3); err != nil {
		t.Fatal(err)
	}
	if tbl, err := tx.Commit(ctx); err != nil {
		t.Fatal(err)
	} else {
		w := dv.NewDVWriter(s.Warehouse().FS(), func(id int32) *iceberg.PartitionSpec { return tbl.Metadata().PartitionSpecByID(int(id)) })
		var positions []int64
		for p := int64(0); p < n; p += 7 {
			positions = append(positions, p)
		}
		positions = append(positions, n-1)
		if err := w.Add(files[0], positions, 0, nil); err != nil {
			t.Fatal(err)
		}
		vectors, err := w.Flush(ctx, tbl.Location()+"/data/vectors.puffin")
		if err != nil {
			t.Fatal(err)
		}
		tx := tbl.NewTransaction()
		if err := tx.NewRowDelta(nil).AddDeletes(vectors...).Commit(ctx); err != nil {
			t.Fatal(err)
		}
		if _, err := tx.Commit(ctx); err != nil {
			t.Fatal(err)
		}
	}

	got := testutil.Rows(t, s, "SELECT id FROM db.t")
	if want := testutil.IcebergGoRows(t, dir, "db", "t"); !slices.Equal(got, want) {
		t.Fatalf("lakesql and iceberg-go differ: %s", testutil.DiffRows(got, want))
	}
	first := n - (n+6)/7 - 1 // the vector's rows; the position deletes no longer apply
	testutil.WantRows(t, s, "SELECT count(*) FROM db.t", fmt.Sprint(first+n-9))
	// 0, 7, 70000 and 149999 are in the vector, 150001 in the position
	// deletes of the second file; 1 and 8 were position-deleted before the
	// first file had a vector.
	testutil.WantRows(t, s, "SELECT id FROM db.t WHERE id IN (0, 1, 7, 8, 70000, 70001, 149999, 150001, 150010)", "1", "8", "70001", "150010")
	testutil.WantRows(t, s, "SELECT id FROM db.t WHERE id BETWEEN 65534 AND 65541", "65535", "65536", "65537", "65538", "65539", "65540")
}

// appendIDs appends the ids first..first+n-1 to tbl, in one data file, through iceberg-go.
func appendIDs(t *testing.T, tbl *table.Table, first int64, n int) {
	t.Helper()
	b := array.NewInt64Builder(memory.DefaultAllocator)
	for i := range int64(n) {
		b.Append(first + i)
	}
	ids := b.NewArray()
	defer ids.Release()
	schema := arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int64, Nullable: true}}, nil)
	rec := array.NewRecordBatch(schema, []arrow.Array{ids}, int64(n))
	defer rec.Release()
	data := array.NewTableFromRecords(schema, []arrow.RecordBatch{rec})
	defer data.Release()
	tx := tbl.NewTransaction()
	if err := tx.AppendTable(context.Background(), data, int64(n), nil); err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Commit(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// TestFormatV3TablesAreNotWritten: writes to a format v3 table fail before
// writing any file, in one line, and the table reads as before.
func TestFormatV3TablesAreNotWritten(t *testing.T) {
	dir := dmlCopyFixture(t, "deletion_vectors")
	s, _ := testutil.Open(t, "CREATE NAMESPACE fx",
		"CALL system.register_table(table => 'fx.dv', metadata_file => '"+filepath.Join(dir, "metadata", "00004-ae0294d0-1de5-4fab-97f1-cd80e0078fa4.metadata.json")+"')")
	before := testutil.FilesBelow(t, dir)
	for _, stmt := range []string{
		"INSERT INTO fx.dv VALUES (100, 1)",
		"DELETE FROM fx.dv WHERE c1 = 2",
		"DELETE FROM fx.dv WHERE c1 < 8", // every row of one file
		"DELETE FROM fx.dv",
		"CALL system.rewrite_data_files(table => 'fx.dv', options => map('rewrite-all', 'true'))",
	} {
		testutil.WantError(t, s, stmt, "write fx.dv: the table is Iceberg format v3, which lakesql reads but does not write yet")
	}
	if after := testutil.FilesBelow(t, dir); !slices.Equal(before, after) {
		t.Fatalf("files written: before %v, after %v", before, after)
	}
	testutil.WantRows(t, s, "SELECT count(*) FROM fx.dv", "8")
}
