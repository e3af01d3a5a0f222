package lakesql_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakesql/lakesql/internal/testutil"
	"github.com/lakesql/lakesql/storage"
)

// writeParquet writes a Parquet file without field ids (as tools other than
// Iceberg writers do) with columns id BIGINT and name STRING.
func writeParquet(t *testing.T, path string, ids []int64, names []string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cols := []storage.WriteColumn{{Name: "id", Type: arrow.PrimitiveTypes.Int64}, {Name: "name", Type: arrow.BinaryTypes.String}}
	w, err := storage.NewParquetWriter(f, cols, storage.ParquetWriterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	b := array.NewRecordBuilder(memory.DefaultAllocator, arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "name", Type: arrow.BinaryTypes.String, Nullable: true},
	}, nil))
	defer b.Release()
	b.Field(0).(*array.Int64Builder).AppendValues(ids, nil)
	for _, n := range names {
		if n == "NULL" {
			b.Field(1).AppendNull()
		} else {
			b.Field(1).(*array.StringBuilder).Append(n)
		}
	}
	batch := b.NewRecordBatch()
	defer batch.Release()
	if err := w.Write(batch); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestReadParquetGlobAndArray(t *testing.T) {
	s, dir := testutil.Open(t, "CREATE NAMESPACE db")
	writeParquet(t, filepath.Join(dir, "files/a.parquet"), []int64{1, 2}, []string{"a", "NULL"})
	writeParquet(t, filepath.Join(dir, "files/b.parquet"), []int64{3}, []string{"c"})
	a, b := filepath.Join(dir, "files/a.parquet"), filepath.Join(dir, "files/b.parquet")
	testutil.WantRows(t, s, "SELECT id, name FROM read_parquet('"+filepath.Join(dir, "files/*.parquet")+"')", "1|a", "2|NULL", "3|c")
	testutil.WantRows(t, s, "SELECT name FROM read_parquet('"+a+"') AS f WHERE f.id = 2", "NULL")
	testutil.WantRows(t, s, "SELECT sum(id) FROM read_parquet(array('"+a+"', '"+b+"'))", "6")
	testutil.WantRows(t, s, "SELECT x FROM read_parquet('"+b+"') AS f(x, y)", "3")
}

// TestReadParquetErrors reads damaged files; the errors that need no file
// are in testdata/queries/select/table_functions.test.
func TestReadParquetErrors(t *testing.T) {
	s, dir := testutil.Open(t, "CREATE NAMESPACE db")
	testutil.WriteFile(t, filepath.Join(dir, "bad/a.parquet"), "not parquet")
	testutil.WriteFile(t, filepath.Join(dir, "mixed/b.parquet"), "not parquet")
	writeParquet(t, filepath.Join(dir, "mixed/a.parquet"), []int64{1}, []string{"a"})
	for _, tc := range []struct{ sql, want string }{
		{"SELECT * FROM read_parquet('" + dir + "/bad/a.parquet')", dir + "/bad/a.parquet"},
		{"SELECT * FROM read_parquet('" + dir + "/mixed/*.parquet')", dir + "/mixed/b.parquet"},
	} {
		testutil.WantError(t, s, tc.sql, tc.want)
	}
}

// TestReadParquetSchemaMismatch globs files of two tables whose name columns differ in type.
func TestReadParquetSchemaMismatch(t *testing.T) {
	s, dir := testutil.Open(t, "CREATE NAMESPACE db")
	testutil.Exec(t, s, "CREATE TABLE db.t1 (id BIGINT, name STRING)", "INSERT INTO db.t1 VALUES (1, 'a')",
		"CREATE TABLE db.t2 (id BIGINT, name BIGINT)", "INSERT INTO db.t2 VALUES (2, 2)")
	got := testutil.Error(t, s, "SELECT * FROM read_parquet('"+dir+"/db/*/data/*.parquet')")
	if !strings.Contains(got, "/db/t2/data/") || !strings.Contains(got, "name BIGINT") {
		t.Fatalf("got %s, want an error naming the t2 file and its column", got)
	}
}

func TestReadParquetHive(t *testing.T) {
	s, dir := testutil.Open(t, "CREATE NAMESPACE db")
	writeParquet(t, filepath.Join(dir, "hive/order_date=2024-03-22/region=eu/part-0.parquet"), []int64{1, 2}, []string{"a", "NULL"})
	writeParquet(t, filepath.Join(dir, "hive/order_date=2024-03-23/region=__HIVE_DEFAULT_PARTITION__/part-0.parquet"), []int64{3}, []string{"c"})
	// A damaged file in a partition the query rules out: reading it would fail.
	testutil.WriteFile(t, filepath.Join(dir, "hive/order_date=2024-03-24/region=us/part-0.parquet"), "not parquet")
	hive := "read_parquet('" + filepath.Join(dir, "hive/*/*/*.parquet") + "', hive_partitioning => true)"
	testutil.WantRows(t, s, "SELECT id, name, order_date, region FROM "+hive+" WHERE order_date <= DATE '2024-03-23'",
		"1|a|2024-03-22|eu", "2|NULL|2024-03-22|eu", "3|c|2024-03-23|NULL")
	testutil.WantRows(t, s, "SELECT count(*) FROM "+hive+" WHERE order_date = '2024-03-23' AND id > 0", "1")
	testutil.WantRows(t, s, "SELECT count(*) FROM "+hive+" WHERE region IS NULL OR region = 'eu'", "3")
	if got := testutil.Error(t, s, "SELECT count(*) FROM "+hive); !strings.Contains(got, "order_date=2024-03-24/region=us/part-0.parquet") {
		t.Fatalf("an unpruned scan should read the damaged file, got %s", got)
	}
	explain := testutil.Explain(t, s, "SELECT id FROM "+hive+" WHERE order_date = DATE '2024-03-23' AND id > 1")
	if !strings.Contains(explain, "hive_filter=") || strings.Contains(explain, "hive_filter=(id") {
		t.Fatalf("EXPLAIN shows no hive filter (or one over a file column):\n%s", explain)
	}
	testutil.WantContains(t, explain, "hive partition filter: (order_date = DATE '2024-03-23'); files 1/3")

	// As in DuckDB, key=value folders are partitions without being asked
	// for, and ** reaches files at any depth; the broken file is left out
	// by the folder filter.
	auto := "'" + filepath.Join(dir, "hive/**/*.parquet") + "'"
	testutil.WantRows(t, s, "SELECT id, order_date, region FROM "+auto+" WHERE order_date <= DATE '2024-03-23'",
		"1|2024-03-22|eu", "2|2024-03-22|eu", "3|2024-03-23|NULL")
	testutil.WantContains(t, testutil.Explain(t, s, "SELECT id FROM "+auto+" WHERE order_date = DATE '2024-03-23'"),
		"hive partition filter: (order_date = DATE '2024-03-23'); files 1/3")
	off := "read_parquet(" + auto + ", hive_partitioning => false)"
	if got := testutil.Error(t, s, "SELECT count(*) FROM "+off+" WHERE order_date IS NULL"); !strings.Contains(got, "order_date") {
		t.Fatalf("hive_partitioning => false still adds the folder columns: %s", got)
	}
}

func TestReadCSV(t *testing.T) {
	s, dir := testutil.Open(t, "CREATE NAMESPACE db")
	testutil.WriteFile(t, filepath.Join(dir, "a.csv"), "id,ok,price,day,at,note\n"+
		"1,true,1.5,2024-01-02,2024-01-02 10:00:00,\"x, \"\"quoted\"\"\"\n"+
		"2,,,,,\n"+
		"3,FALSE,2,2024-01-03,2024-01-03T11:30:00.5,\"multi\nline\"\n")
	path := filepath.Join(dir, "a.csv")
	testutil.WantRows(t, s, "SELECT * FROM read_csv('"+path+"', header => true)",
		"1|true|1.5|2024-01-02|2024-01-02 10:00:00|x, \"quoted\"",
		"2|NULL|NULL|NULL|NULL|NULL",
		"3|false|2.0|2024-01-03|2024-01-03 11:30:00.5|multi\nline")
	testutil.WriteFile(t, filepath.Join(dir, "b.txt"), "1;x\n2;y\n")
	testutil.WantRows(t, s, "SELECT column0 + 1, column1 FROM read_csv('"+filepath.Join(dir, "b.txt")+"', header => false, delim => ';')", "2|x", "3|y")
}

func TestCreateTableAs(t *testing.T) {
	s, dir := testutil.Open(t, "CREATE NAMESPACE db")
	writeParquet(t, filepath.Join(dir, "in/a.parquet"), []int64{1, 2, 3}, []string{"a", "b", "NULL"})
	src := "read_parquet('" + filepath.Join(dir, "in/*.parquet") + "')"
	testutil.Exec(t, s, "CREATE TABLE db.c PARTITIONED BY (bucket(4, id)) TBLPROPERTIES ('write.parquet.compression-codec' = 'snappy') AS SELECT id, upper(name) AS name FROM "+src)
	testutil.WantRows(t, s, "SELECT id, name FROM db.c", "1|A", "2|B", "3|NULL")
	testutil.WantRows(t, s, "SELECT count(*) FROM db.c.snapshots", "1")
	testutil.Exec(t, s, "CREATE TABLE IF NOT EXISTS db.c AS SELECT 1 AS x")
	testutil.WantRows(t, s, "SELECT count(*) FROM db.c", "3")
	if got := testutil.Error(t, s, "CREATE TABLE db.c AS SELECT 1 AS x"); !strings.Contains(got, "already exists") {
		t.Fatalf("got %s", got)
	}
	testutil.Exec(t, s, "INSERT INTO db.c SELECT id + 10, name FROM "+src)
	testutil.WantRows(t, s, "SELECT count(*), sum(id) FROM db.c", "6|42")
	testutil.Exec(t, s, "CREATE TABLE db.empty AS SELECT id FROM db.c WHERE id < 0")
	testutil.WantRows(t, s, "SELECT count(*) FROM db.empty", "0")
}

// A CREATE TABLE … AS whose query fails after some data files were written
// leaves neither a table nor a file behind.
func TestCreateTableAsFailureLeavesNothing(t *testing.T) {
	s, dir := testutil.Open(t, "CREATE NAMESPACE db")
	var csv strings.Builder
	csv.WriteString("n,v\n")
	for i := range 3 * 8192 {
		fmt.Fprintf(&csv, "%d,%d\n", i, i)
	}
	csv.WriteString("99999,oops\n")
	testutil.WriteFile(t, filepath.Join(dir, "in.csv"), csv.String())
	got := testutil.Error(t, s, "CREATE TABLE db.bad PARTITIONED BY (bucket(8, n)) AS SELECT n, CAST(v AS INT) AS v FROM read_csv('"+filepath.Join(dir, "in.csv")+"')")
	if !strings.Contains(got, "oops") {
		t.Fatalf("got %s, want the CAST error", got)
	}
	if tables := testutil.Rows(t, s, "SHOW TABLES IN db"); len(tables) != 0 {
		t.Fatalf("tables after a failed CTAS: %v", tables)
	}
	if files := testutil.FilesBelow(t, filepath.Join(dir, "db")); len(files) != 0 {
		t.Fatalf("files after a failed CTAS: %v", files)
	}
	if _, err := os.Stat(filepath.Join(dir, "db/bad")); !os.IsNotExist(err) {
		t.Fatalf("the table folder is left behind: %v", err)
	}
	testutil.Exec(t, s, "CREATE TABLE db.bad AS SELECT 1 AS x")
}
