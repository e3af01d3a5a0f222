package lakesql_test

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/lakesql/lakesql/internal/testutil"
)

// nestedSetup creates a table with every nested type — structs holding
// lists of structs, maps with list values, lists of lists, NOT NULL fields
// — and rows with NULL or empty values at each level, over two INSERTs (two
// data files).
var nestedSetup = []string{
	"CREATE NAMESPACE db",
	`CREATE TABLE db.nested (
		id INT NOT NULL,
		device STRUCT<os: STRING, version: INT NOT NULL, tags: ARRAY<STRING>>,
		items ARRAY<STRUCT<sku: STRING, qty: INT, price: DECIMAL(10,2)>>,
		props MAP<STRING, ARRAY<DOUBLE>>,
		grid ARRAY<ARRAY<BIGINT NOT NULL>>,
		counts MAP<INT, STRING>,
		note STRING)`,
	`INSERT INTO db.nested VALUES
		(1, named_struct('os', 'ios', 'version', 17, 'tags', array('a', NULL, 'c')),
		    array(named_struct('sku', 'x1', 'qty', 2, 'price', 9.99), NULL, named_struct('sku', NULL, 'qty', NULL, 'price', NULL)),
		    map('k1', array(1.5, NULL), 'k2', NULL, 'k3', array()),
		    array(array(1, 2), array(), NULL),
		    map(1, 'one', 2, NULL),
		    'first'),
		(2, NULL, NULL, NULL, NULL, NULL, NULL),
		(3, named_struct('os', NULL, 'version', 0, 'tags', NULL), array(), map(), array(), map(), 'third')`,
	`INSERT INTO db.nested VALUES
		(4, named_struct('os', 'android', 'version', 14, 'tags', array()), array(NULL), map('z', array(NULL)), array(NULL, array(7)), map(9, ''), NULL)`,
}

// TestIcebergGoReadsNestedTables writes nested values with lakesql and reads
// them with iceberg-go's scanner (arrow-go's Parquet reader): the same rows.
func TestIcebergGoReadsNestedTables(t *testing.T) {
	s, dir := testutil.Open(t, nestedSetup...)
	want := testutil.Rows(t, s, "SELECT * FROM db.nested")
	if len(want) != 4 {
		t.Fatalf("lakesql reads %d rows, want 4", len(want))
	}
	wantFirst := `1|{'os': 'ios', 'version': 17, 'tags': ['a', NULL, 'c']}|[{'sku': 'x1', 'qty': 2, 'price': 9.99}, NULL, {'sku': NULL, 'qty': NULL, 'price': NULL}]|{'k1'=[1.5, NULL], 'k2'=NULL, 'k3'=[]}|[[1, 2], [], NULL]|{1='one', 2=NULL}|first`
	if want[0] != wantFirst {
		t.Errorf("lakesql reads\n%s\nwant\n%s", want[0], wantFirst)
	}
	if got := testutil.IcebergGo(t, dir, "db", "nested", 0).Rows; !slices.Equal(got, want) {
		t.Fatalf("iceberg-go and lakesql differ:\n%s", testutil.DiffRows(got, want))
	}

	// CTAS copies nested columns, with fresh field ids, readable by iceberg-go.
	testutil.Exec(t, s, "CREATE TABLE db.copy AS SELECT id, device, items, props, grid, struct(id, note) AS pair FROM db.nested")
	wantCopy := testutil.Rows(t, s, "SELECT * FROM db.copy")
	if got := testutil.IcebergGo(t, dir, "db", "copy", 0).Rows; len(got) != 4 || !slices.Equal(got, wantCopy) {
		t.Fatalf("CTAS copy: iceberg-go and lakesql differ:\n%s", testutil.DiffRows(got, wantCopy))
	}
	testutil.WantRows(t, s, "SELECT pair.id, pair.note FROM db.copy WHERE id = 1", "1|first")
}

// TestNestedExpressions checks field access, indexing and the nested
// functions against the rows of nestedSetup, NULLs included.
func TestNestedExpressions(t *testing.T) {
	s, _ := testutil.Open(t, nestedSetup...)
	q := func(expr string, want ...string) {
		t.Helper()
		got := testutil.RowsInOrder(t, s, "SELECT id, "+expr+" FROM db.nested ORDER BY id")
		if !slices.Equal(got, want) {
			t.Errorf("%s:\n got %q\nwant %q", expr, got, want)
		}
	}
	q("device.os, nested.device.version, (device).tags[1]", "1|ios|17|NULL", "2|NULL|NULL|NULL", "3|NULL|0|NULL", "4|android|14|NULL")
	q("items[0].sku, element_at(items, -1).qty, items[1] IS NULL", "1|x1|NULL|true", "2|NULL|NULL|true", "3|NULL|NULL|true", "4|NULL|NULL|true")
	q("props['k1'], props['k2'] IS NULL, element_at(props, 'k3'), props['missing']",
		"1|[1.5, NULL]|true|[]|NULL", "2|NULL|true|NULL|NULL", "3|NULL|true|NULL|NULL", "4|NULL|true|NULL|NULL")
	q("size(items), cardinality(props), size(grid[0])", "1|3|3|2", "2|NULL|NULL|NULL", "3|0|0|NULL", "4|1|1|NULL")
	q("array_contains(device.tags, 'c'), array_contains(device.tags, 'b'), array_contains(grid[1], 7)",
		"1|true|NULL|false", "2|NULL|NULL|NULL", "3|NULL|NULL|NULL", "4|false|false|true")
	q("map_keys(counts), map_values(counts), counts[2], counts[9]",
		"1|[1, 2]|['one', NULL]|NULL|NULL", "2|NULL|NULL|NULL|NULL", "3|[]|[]|NULL|NULL", "4|[9]|['']|NULL|")
	q("ARRAY[id, id * 10], map('id', id)['id'], named_struct('x', id, 'y', note).y",
		"1|[1, 10]|1|first", "2|[2, 20]|2|NULL", "3|[3, 30]|3|third", "4|[4, 40]|4|NULL")
	testutil.WantRows(t, s, "SELECT count(*) FROM db.nested WHERE device.version > 10 AND array_contains(map_keys(props), 'z')", "1")
	testutil.WantRows(t, s, "SELECT CAST(grid AS ARRAY<ARRAY<STRING>>) FROM db.nested WHERE id = 1", "[['1', '2'], [], NULL]")

	for stmt, msg := range map[string]string{
		"SELECT device.nope FROM db.nested":                               "struct STRUCT<os: STRING, version: INT, tags: ARRAY<STRING>> has no field nope (fields: os, version, tags) (at line 1, column 8)",
		"SELECT note[0] FROM db.nested":                                   "cannot index STRING: only arrays and maps can be indexed (at line 1, column 12)",
		"SELECT items['a'] FROM db.nested":                                "an array index must be an integer, not STRING (at line 1, column 13)",
		"SELECT element_at(grid, 0) FROM db.nested":                       "element_at: array indices start at 1 (use a[0] for 0-based indexing) (at line 1, column 8)",
		"SELECT map(1, 2, 3) FROM db.nested":                              "map(key, value, …) takes pairs of arguments, got 3 (at line 1, column 8)",
		"INSERT INTO db.nested (id, grid) VALUES (9, array(array(NULL)))": "grid",
	} {
		if got := testutil.Error(t, s, stmt); !strings.Contains(got, msg) {
			t.Errorf("%s:\n got %s\nwant %s", stmt, got, msg)
		}
	}
}

// TestFlatQueriesSkipNestedChunks: count(*) and queries on flat columns of
// a table with nested columns decode none of the nested column chunks.
func TestFlatQueriesSkipNestedChunks(t *testing.T) {
	s, _ := testutil.Open(t, nestedSetup...)
	bytesRead := func(query string) float64 {
		t.Helper()
		plan := testutil.Explain(t, s, "ANALYZE "+query)
		m := regexp.MustCompile(`read: files \d+, row groups \d+/\d+, bytes ([\d.]+) (B|KiB)`).FindStringSubmatch(plan)
		if m == nil {
			t.Fatalf("no read line in\n%s", plan)
		}
		n, _ := strconv.ParseFloat(m[1], 64)
		if m[2] == "KiB" {
			n *= 1024
		}
		return n
	}
	flat := bytesRead("SELECT id, note FROM db.nested")
	withDevice := bytesRead("SELECT id, note, device.os FROM db.nested")
	all := bytesRead("SELECT * FROM db.nested")
	withWholeDevice := bytesRead("SELECT id, note, device FROM db.nested")
	if !(flat < withDevice && withDevice < withWholeDevice && withWholeDevice < all) {
		t.Errorf("bytes read: flat %.0f, with device.os %.0f, with device %.0f, all %.0f", flat, withDevice, withWholeDevice, all)
	}
	// Reading only some fields of a struct (prune_nested_fields) gives the
	// answers of reading it whole.
	for _, q := range []string{
		"SELECT id, device.os, items[0].sku FROM db.nested WHERE device.version > 10",
		"SELECT device.os, count(*), max(device.version) FROM db.nested GROUP BY device.os",
		"SELECT id, device.tags FROM db.nested ORDER BY device.version DESC LIMIT 2",
	} {
		pruned := testutil.Rows(t, s, q)
		testutil.Exec(t, s, "SET disabled_optimizers = 'prune_nested_fields'")
		whole := testutil.Rows(t, s, q)
		testutil.Exec(t, s, "RESET disabled_optimizers")
		if !slices.Equal(pruned, whole) || len(whole) == 0 {
			t.Errorf("%s:\npruned %q\nwhole  %q", q, pruned, whole)
		}
	}
	testutil.WantRows(t, s, "SELECT count(*) FROM db.nested", "4")
	// Struct fields have column statistics: the second file (version 14)
	// is pruned by device.version > 15.
	testutil.WantContains(t, testutil.Explain(t, s, "SELECT id FROM db.nested WHERE device.version > 15"),
		"stats filter: device.version > 15", "data files 1/2 (pruned by partition 0, by stats 1)")
	testutil.WantRows(t, s, "SELECT id FROM db.nested WHERE device.version > 15", "1")
	testutil.WantRows(t, s, "SELECT count(*), min(id) FROM db.nested WHERE note IS NOT NULL", "2|1")
}
