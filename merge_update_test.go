package lakesql_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/lakesql/lakesql/internal/testutil"
)

// TestIcebergGoReadsTablesAfterMergeAndUpdate changes a partitioned table of
// many types and files with UPDATE, MERGE, DELETE, REPLACE TABLE and
// TRUNCATE, in copy-on-write and in merge-on-read mode, and reads it back
// after each with iceberg-go's own catalog and scanner: the copies of
// rewritten files, the position delete files and the snapshots that commit
// them must mean to another Iceberg implementation what they mean to lakesql.
func TestIcebergGoReadsTablesAfterMergeAndUpdate(t *testing.T) {
	for _, mode := range []string{"copy-on-write", "merge-on-read"} {
		t.Run(mode, func(t *testing.T) { icebergGoReadsAfterChanges(t, mode) })
	}
}

func icebergGoReadsAfterChanges(t *testing.T, mode string) {
	s, dir := testutil.Open(t,
		"CREATE NAMESPACE db",
		`CREATE TABLE db.events (id BIGINT NOT NULL, ts TIMESTAMP, d DATE, name STRING, price DECIMAL(10,2), qty INT, ok BOOLEAN, ratio DOUBLE)
		 PARTITIONED BY (day(ts), bucket(4, id))
		 TBLPROPERTIES ('write.delete.mode' = '`+mode+`', 'write.update.mode' = '`+mode+`', 'write.merge.mode' = '`+mode+`')`,
		`INSERT INTO db.events VALUES
			(1, '2026-01-15 10:00:00', '2026-01-15', 'alpha', 1.50, 3, true, 0.25),
			(2, '2026-01-15 11:00:00', NULL, NULL, -2.25, NULL, false, NULL),
			(3, NULL, '2026-01-16', 'beta', NULL, -7, NULL, 1.5)`,
		`INSERT INTO db.events VALUES
			(4, '2026-01-16 09:00:00', '2026-01-16', 'gamma', 4.00, 4, true, 4.0),
			(5, '2026-01-17 09:00:00', '2026-01-17', 'delta', 5.00, 5, false, 5.0)`,
		`CREATE TABLE db.changes (id BIGINT, ts TIMESTAMP, name STRING, price DECIMAL(10,2), op STRING)`,
		`INSERT INTO db.changes VALUES
			(2, '2026-01-15 11:00:00', 'bravo', 20.00, 'u'),
			(5, NULL, NULL, NULL, 'd'),
			(6, '2026-01-18 00:00:00', 'echo', 6.00, 'i'),
			(NULL, '2026-01-18 00:00:00', 'nokey', 0.00, 'i')`,
	)
	check := func(step string, want ...string) {
		t.Helper()
		got := testutil.Rows(t, s, "SELECT * FROM db.events")
		if !slices.Equal(got, want) {
			t.Fatalf("%s: lakesql reads\n%s\nwant\n%s", step, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		if other := testutil.IcebergGoRows(t, dir, "db", "events"); !slices.Equal(other, got) {
			t.Fatalf("%s: iceberg-go reads\n%s\nlakesql reads\n%s", step, strings.Join(other, "\n"), strings.Join(got, "\n"))
		}
	}

	if msg := testutil.Message(t, s, "UPDATE db.events SET qty = qty * 10, ok = NOT ok WHERE ts >= '2026-01-16'"); msg != "2 rows updated" {
		t.Fatalf("UPDATE said %q", msg)
	}
	check("UPDATE",
		"1|2026-01-15 10:00:00|2026-01-15|alpha|1.50|3|true|0.25",
		"2|2026-01-15 11:00:00|NULL|NULL|-2.25|NULL|false|NULL",
		"3|NULL|2026-01-16|beta|NULL|-7|NULL|1.5",
		"4|2026-01-16 09:00:00|2026-01-16|gamma|4.00|40|false|4.0",
		"5|2026-01-17 09:00:00|2026-01-17|delta|5.00|50|true|5.0")

	msg := testutil.Message(t, s, `MERGE INTO db.events e USING db.changes c ON e.id = c.id
		WHEN MATCHED AND c.op = 'd' THEN DELETE
		WHEN MATCHED THEN UPDATE SET name = c.name, price = c.price, ts = c.ts
		WHEN NOT MATCHED AND c.id IS NOT NULL THEN INSERT (id, ts, name, price) VALUES (c.id, c.ts, c.name, c.price)`)
	if msg != "1 row updated, 1 row deleted, 1 row inserted" {
		t.Fatalf("MERGE said %q", msg)
	}
	check("MERGE",
		"1|2026-01-15 10:00:00|2026-01-15|alpha|1.50|3|true|0.25",
		"2|2026-01-15 11:00:00|NULL|bravo|20.00|NULL|false|NULL",
		"3|NULL|2026-01-16|beta|NULL|-7|NULL|1.5",
		"4|2026-01-16 09:00:00|2026-01-16|gamma|4.00|40|false|4.0",
		"6|2026-01-18 00:00:00|NULL|echo|6.00|NULL|NULL|NULL")

	testutil.Exec(t, s, `MERGE INTO db.events e USING (SELECT 1 AS id) c ON e.id = c.id
		WHEN NOT MATCHED BY SOURCE AND e.ts IS NULL THEN DELETE
		WHEN NOT MATCHED BY SOURCE THEN UPDATE SET ratio = -1`)
	check("MERGE … NOT MATCHED BY SOURCE",
		"1|2026-01-15 10:00:00|2026-01-15|alpha|1.50|3|true|0.25",
		"2|2026-01-15 11:00:00|NULL|bravo|20.00|NULL|false|-1.0",
		"4|2026-01-16 09:00:00|2026-01-16|gamma|4.00|40|false|-1.0",
		"6|2026-01-18 00:00:00|NULL|echo|6.00|NULL|NULL|-1.0")

	if msg := testutil.Message(t, s, "DELETE FROM db.events WHERE ratio < 0 AND id > 3"); msg != "2 rows deleted" {
		t.Fatalf("DELETE said %q", msg)
	}
	check("DELETE",
		"1|2026-01-15 10:00:00|2026-01-15|alpha|1.50|3|true|0.25",
		"2|2026-01-15 11:00:00|NULL|bravo|20.00|NULL|false|-1.0")

	// One position delete file per data file a statement changed, in
	// merge-on-read mode only: 2 by UPDATE, 2 by the first MERGE, 4 by the
	// second, 2 by DELETE (each row sits in a file of its own partition).
	deletes := map[string]string{"copy-on-write": "0", "merge-on-read": "10"}[mode]
	testutil.WantRows(t, s, "SELECT count(*) FROM db.events.files WHERE content = 1", deletes)

	testutil.Exec(t, s, "CREATE OR REPLACE TABLE db.events PARTITIONED BY (name) AS SELECT id, name, price * 2 AS price FROM db.events WHERE id < 5")
	check("CREATE OR REPLACE TABLE … AS", "1|alpha|3.00", "2|bravo|40.00")

	testutil.Exec(t, s, "TRUNCATE TABLE db.events")
	check("TRUNCATE")
}

// TestReplaceTableKeepsHistory checks that REPLACE TABLE is a commit on the
// same table: same UUID, the old snapshot still readable with its own
// schema by time travel, a column of the same name and type keeping its
// field id, and iceberg-go reading the replaced table.
func TestReplaceTableKeepsHistory(t *testing.T) {
	s, dir := testutil.Open(t,
		"CREATE NAMESPACE db",
		"CREATE TABLE db.t (id INT, region STRING, v DOUBLE) PARTITIONED BY (region)",
		"INSERT INTO db.t VALUES (1, 'eu', 1.5), (2, NULL, NULL)",
	)
	before := testutil.Table(t, s, "db", "t")
	oldSnap := before.CurrentSnapshot().SnapshotID
	testutil.Exec(t, s, "CREATE OR REPLACE TABLE db.t PARTITIONED BY (bucket(2, id)) AS SELECT id, CAST(id AS BIGINT) * 10 AS w FROM db.t")
	after := testutil.Table(t, s, "db", "t")
	if before.Metadata().TableUUID() != after.Metadata().TableUUID() {
		t.Fatalf("REPLACE TABLE made a new table: uuid %s, was %s", after.Metadata().TableUUID(), before.Metadata().TableUUID())
	}
	id, _ := after.Schema().FindFieldByName("id")
	w, _ := after.Schema().FindFieldByName("w")
	if id.ID != 1 || w.ID != 4 {
		t.Fatalf("field ids id=%d w=%d, want 1 (kept) and 4 (new)", id.ID, w.ID)
	}
	testutil.WantRows(t, s, "SELECT * FROM db.t", "1|10", "2|20")
	testutil.WantRows(t, s, "SELECT * FROM db.t VERSION AS OF "+strconv.FormatInt(oldSnap, 10), "1|eu|1.5", "2|NULL|NULL")
	if got := testutil.IcebergGoRows(t, dir, "db", "t"); !slices.Equal(got, []string{"1|10", "2|20"}) {
		t.Fatalf("iceberg-go reads %v", got)
	}
	if got := testutil.IcebergGo(t, dir, "db", "t", oldSnap).Rows; !slices.Equal(got, []string{"1|eu|1.5", "2|NULL|NULL"}) {
		t.Fatalf("iceberg-go reads the old snapshot as %v", got)
	}
}

// TestMergeAndUpdateReadOnlyCandidateFiles removes the file of one
// partition from disk: UPDATE and MERGE that prune it — by partition, by the
// ON condition's target-only conjunct, or by the source's join keys against
// the file's column bounds — never open it and succeed, while one that needs
// it fails naming it. Pruning must keep unaffected files out entirely.
func TestMergeAndUpdateReadOnlyCandidateFiles(t *testing.T) {
	s, _ := testutil.Open(t,
		"CREATE NAMESPACE db",
		"CREATE TABLE db.t (id INT, region STRING, v DOUBLE) PARTITIONED BY (region)",
		"INSERT INTO db.t VALUES (1, 'eu', 1.0), (2, 'eu', 2.0), (30, 'us', 3.0), (40, 'us', 4.0)",
	)
	var us string
	for _, f := range testutil.LiveFiles(t, s, "db", "t") {
		if strings.Contains(f, "region=us") {
			us = f
		}
	}
	if us == "" {
		t.Fatal("no file of partition us")
	}
	if err := os.Remove(us); err != nil {
		t.Fatal(err)
	}
	testutil.Exec(t, s,
		"UPDATE db.t SET v = v + 1 WHERE region = 'eu'",
		"MERGE INTO db.t t USING (SELECT 1 AS id, 10.0 AS v) s ON t.id = s.id WHEN MATCHED THEN UPDATE SET v = s.v WHEN NOT MATCHED THEN INSERT (id, region, v) VALUES (s.id, 'eu', s.v)",
		"MERGE INTO db.t t USING (SELECT 35 AS id) s ON t.id = s.id AND t.region = 'eu' WHEN MATCHED THEN DELETE WHEN NOT MATCHED THEN INSERT (id, region) VALUES (s.id, 'asia')",
		// The key casts the target's INT to the source's BIGINT.
		"MERGE INTO db.t t USING (SELECT CAST(2 AS BIGINT) AS id) s ON t.id = s.id WHEN MATCHED THEN UPDATE SET v = v + 1",
	)
	testutil.WantRows(t, s, "SELECT * FROM db.t WHERE region <> 'us'", "1|eu|10.0", "2|eu|4.0", "35|asia|NULL")
	testutil.WantError(t, s, "MERGE INTO db.t t USING (SELECT 30 AS id) s ON t.id = s.id WHEN MATCHED THEN DELETE", us)
	testutil.WantError(t, s, "UPDATE db.t SET v = 0 WHERE v > 3.5", us)
}

// TestMergeOnReadPositionsAcrossRowGroups checks the positions merge-on-read
// writes where they are easiest to get wrong: a data file of several row
// groups (read in parallel), already carrying position deletes, changed
// again by DELETE, UPDATE and MERGE. lakesql and iceberg-go must read the
// same rows as the statements mean.
func TestMergeOnReadPositionsAcrossRowGroups(t *testing.T) {
	var rows []string
	for n := range 20 {
		rows = append(rows, fmt.Sprintf("(%d, 'r%d')", n, n))
	}
	s, dir := testutil.Open(t,
		"CREATE NAMESPACE db",
		`CREATE TABLE db.t (id INT, v STRING) TBLPROPERTIES ('write.parquet.row-group-size-rows' = '3',
			'write.delete.mode' = 'merge-on-read', 'write.update.mode' = 'merge-on-read', 'write.merge.mode' = 'merge-on-read')`,
		"INSERT INTO db.t VALUES "+strings.Join(rows, ", "),
		"DELETE FROM db.t WHERE id % 5 = 0",
		"UPDATE db.t SET v = 'u' || v WHERE id % 3 = 1",
		"DELETE FROM db.t WHERE id IN (7, 8, 19)",
		`MERGE INTO db.t t USING (VALUES (2, 'm'), (13, 'm'), (20, 'new')) AS s(id, v) ON t.id = s.id
			WHEN MATCHED AND t.id = 2 THEN DELETE
			WHEN MATCHED THEN UPDATE SET v = t.v || s.v
			WHEN NOT MATCHED THEN INSERT (id, v) VALUES (s.id, s.v)`,
	)
	if files := testutil.LiveFiles(t, s, "db", "t"); len(files) < 2 {
		t.Fatalf("live files %v: want the original file and the updated rows' files", files)
	}
	want := []string{"1|ur1", "3|r3", "4|ur4", "6|r6", "9|r9", "11|r11", "12|r12", "13|ur13m", "14|r14", "16|ur16", "17|r17", "18|r18", "20|new"}
	slices.Sort(want)
	testutil.WantRows(t, s, "SELECT * FROM db.t", want...)
	if got := testutil.IcebergGoRows(t, dir, "db", "t"); !slices.Equal(got, want) {
		t.Fatalf("iceberg-go reads\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// One delete file per data file per statement: DELETE 1, UPDATE 1 (the
	// new versions go to file A), DELETE 2 (8 in the first file, 7 and 19
	// in A), MERGE 2 (2 in the first file, 13 in A).
	testutil.WantRows(t, s, "SELECT count(*) FROM db.t.files WHERE content = 1", "6")
}

// TestMergeOnReadOnSparkTable runs merge-on-read DELETE (the table's own
// write.delete.mode), UPDATE and MERGE on a copy of a Spark-written table
// whose files are recorded at s3://… and read through a location remap: the
// delete files lakesql writes must land beside the data files in the copy,
// under the recorded URI's remap, and nowhere else.
func TestMergeOnReadOnSparkTable(t *testing.T) {
	s, _ := testutil.Open(t)
	dir := dmlCopyFixture(t, "spark_position_deletes")
	testutil.Exec(t, s, "CREATE NAMESPACE fx",
		"CALL system.register_table(table => 'fx.t', metadata_file => '"+filepath.Join(dir, "metadata/00002-8dbf0bf0-882a-4822-ae9c-ec1c0f34ef6d.metadata.json")+"')",
		"ALTER TABLE fx.t SET TBLPROPERTIES ('write.update.mode' = 'merge-on-read', 'write.merge.mode' = 'merge-on-read')")
	testutil.Exec(t, s,
		"DELETE FROM fx.t WHERE a < 5",
		"UPDATE fx.t SET b = -b WHERE a = 7",
		"MERGE INTO fx.t t USING (SELECT 8 AS a) s ON t.a = s.a WHEN MATCHED THEN DELETE")
	testutil.WantRows(t, s, "SELECT a FROM fx.t", "5", "7", "10", "11", "13", "14")
	testutil.WantRows(t, s, "SELECT count(*) FROM fx.t WHERE b < 0", "1")
	// Every live delete file lakesql wrote is recorded under the table's
	// s3:// location and resolves to a file in the copy; the copy holds no
	// other new delete file.
	var written int
	for _, p := range testutil.Rows(t, s, "SELECT file_path FROM fx.t.files WHERE content = 1") {
		if strings.Contains(p, "3221b69e") {
			continue // Spark's
		}
		written++
		local := s.Warehouse().FS().Resolve(p)
		if !strings.HasPrefix(p, "s3://warehouse/prod/db/refdeletes3/data/") || !strings.HasPrefix(local, dir) {
			t.Fatalf("delete file %s (at %s) is not in the table's data folder %s", p, local, dir)
		}
		if _, err := os.Stat(local); err != nil {
			t.Fatal(err)
		}
	}
	var onDisk int
	for _, f := range testutil.FilesBelow(t, dir) {
		if strings.HasSuffix(f, "-deletes.parquet") {
			onDisk++
		}
	}
	if written < 3 || onDisk != 6+written {
		t.Fatalf("%d delete files written, %d on disk: want at least one per statement, all in the table's folder beside Spark's 6", written, onDisk)
	}
	if _, err := os.Stat("s3:"); err == nil {
		t.Fatal("a delete file was written under ./s3:, outside the table")
	}
}
