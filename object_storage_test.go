package lakesql_test

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go"

	"github.com/lakesql/lakesql"
	"github.com/lakesql/lakesql/internal/demo"
	"github.com/lakesql/lakesql/internal/testutil"
	"github.com/lakesql/lakesql/storage"
)

// A warehouse on S3 (versitygw): tables are created, written, read,
// maintained and dropped as in a local folder.
func TestObjectStorageWarehouse(t *testing.T) {
	s3 := testutil.StartS3(t)
	wh := s3.Location("warehouse")
	s := testutil.OpenWith(t, lakesql.Options{Warehouse: wh},
		"SET vacuum_retention_check = false",
		"CREATE NAMESPACE shop",
		`CREATE TABLE shop.orders (id BIGINT, day DATE, region STRING, amount DECIMAL(10,2)) PARTITIONED BY (day)`,
		`INSERT INTO shop.orders VALUES (1, DATE '2026-01-01', 'EU', 10.50), (2, DATE '2026-01-02', NULL, NULL), (3, DATE '2026-01-02', 'US', 7.25)`,
		`INSERT INTO shop.orders VALUES (4, DATE '2026-01-03', 'EU', 1.00)`,
		`DELETE FROM shop.orders WHERE id = 3`,
		`CREATE VIEW shop.eu AS SELECT id FROM shop.orders WHERE region = 'EU'`,
	)
	want := []string{"1|2026-01-01|EU|10.50", "2|2026-01-02|NULL|NULL", "4|2026-01-03|EU|1.00"}
	if got := testutil.RowsInOrder(t, s, "SELECT id, day, region, amount FROM shop.orders ORDER BY id"); !slices.Equal(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	if got := testutil.RowsInOrder(t, s, "SELECT id FROM shop.eu ORDER BY id"); !slices.Equal(got, []string{"1", "4"}) {
		t.Fatalf("view rows %v, want 1, 4", got)
	}
	if got := testutil.IcebergGo(t, wh, "shop", "orders", 0).Rows; len(got) != 3 {
		t.Fatalf("iceberg-go reads %d rows, want 3", len(got))
	}

	// Expiring all but the last snapshot deletes the files only the
	// older ones referenced (the file the DELETE rewrote, manifests,
	// manifest lists); the rows stay.
	folder := wh + "/shop/orders"
	before := objectsBelow(t, s, folder)
	got := testutil.Rows(t, s, "CALL system.expire_snapshots(table => 'shop.orders', older_than => "+anHourFromNow()+", retain_last => 1)")
	after := objectsBelow(t, s, folder)
	if len(got) != 1 || len(after) >= len(before) {
		t.Fatalf("expire_snapshots = %v: %d objects before, %d after", got, len(before), len(after))
	}
	if got := testutil.RowsInOrder(t, s, "SELECT id, day, region, amount FROM shop.orders ORDER BY id"); !slices.Equal(got, want) {
		t.Fatalf("after expire: %v, want %v", got, want)
	}

	// Objects no snapshot references are orphans; with older_than now
	// they go, in one DeleteObjects request, and nothing else does.
	var strays []string
	for i := range 5 {
		stray := fmt.Sprintf("%s/data/stray-%d.parquet", folder, i)
		if err := s.Warehouse().FS().WriteFile(stray, []byte("not a table file")); err != nil {
			t.Fatal(err)
		}
		strays = append(strays, stray)
	}
	now := "TIMESTAMP '" + time.Now().Add(2*time.Second).UTC().Format("2006-01-02 15:04:05") + "'"
	time.Sleep(2 * time.Second)
	beforeOrphans := storage.ObjectRequestCounts()
	if got := testutil.Rows(t, s, "CALL system.remove_orphan_files('shop.orders', "+now+")"); !slices.Equal(got, strays) {
		t.Fatalf("remove_orphan_files = %v, want %v", got, strays)
	}
	if deletes := storage.ObjectRequestCounts().Sub(beforeOrphans).Deletes; deletes != 1 {
		t.Errorf("remove_orphan_files of %d objects sent %d delete requests, want 1", len(strays), deletes)
	}
	if left := objectsBelow(t, s, folder); !slices.Equal(left, after) {
		t.Fatalf("remove_orphan_files left %v, want %v", left, after)
	}
	if got := testutil.RowsInOrder(t, s, "SELECT count(*) FROM shop.orders"); !slices.Equal(got, []string{"3"}) {
		t.Fatalf("after remove_orphan_files: %v rows", got)
	}

	// DROP … PURGE deletes every object of the table, the objects in one
	// DeleteObjects request, not one DELETE each (the folder markers
	// versitygw keeps go one by one after them); then the namespace can go.
	testutil.Exec(t, s, "DROP VIEW shop.eu")
	objects := len(objectsBelow(t, s, folder))
	beforeDrop := storage.ObjectRequestCounts()
	testutil.Exec(t, s, "DROP TABLE shop.orders PURGE")
	deletes := storage.ObjectRequestCounts().Sub(beforeDrop).Deletes
	t.Logf("DROP TABLE PURGE of %d objects: %d delete requests", objects, deletes)
	if objects < 8 || deletes*4 > int64(objects) {
		t.Errorf("DROP TABLE PURGE of %d objects sent %d delete requests, want them batched", objects, deletes)
	}
	if left := objectsBelow(t, s, folder); len(left) != 0 {
		t.Fatalf("DROP TABLE PURGE left %v", left)
	}
	testutil.Exec(t, s, "DROP NAMESPACE shop")
	if got := testutil.RowsInOrder(t, s, "SHOW NAMESPACES"); len(got) != 0 {
		t.Fatalf("namespaces after DROP NAMESPACE: %v", got)
	}
}

// expire_snapshots on S3 deletes what the expired snapshots alone
// referenced (replaced data files, manifests, manifest lists) with
// DeleteObjects requests of up to 1,000 keys, not one DELETE per object.
func TestObjectStorageExpireDeletesInBatches(t *testing.T) {
	s3 := testutil.StartS3(t)
	wh := s3.Location("warehouse")
	s := testutil.OpenWith(t, lakesql.Options{Warehouse: wh},
		"CREATE NAMESPACE db",
		"CREATE TABLE db.t (id BIGINT, p STRING) PARTITIONED BY (p)",
	)
	for i := range 12 {
		testutil.Exec(t, s, fmt.Sprintf("INSERT INTO db.t VALUES (%d, 'p%d'), (NULL, NULL)", i, i%3))
	}
	// The overwrite replaces partitions p0, p1 and p2 (the NULL one stays):
	// the 12 files written there are referenced by expired snapshots only.
	testutil.Exec(t, s, "INSERT OVERWRITE db.t SELECT id * 10, p FROM db.t WHERE id IS NOT NULL")
	want := testutil.RowsInOrder(t, s, "SELECT id, p FROM db.t ORDER BY id")
	folder := wh + "/db/t"
	before := objectsBelow(t, s, folder)
	start := storage.ObjectRequestCounts()
	got := testutil.Rows(t, s, "CALL system.expire_snapshots(table => 'db.t', older_than => "+anHourFromNow()+", retain_last => 1)")
	deletes := storage.ObjectRequestCounts().Sub(start).Deletes
	after := objectsBelow(t, s, folder)
	var counts [6]int
	if len(got) != 1 {
		t.Fatalf("expire_snapshots = %v", got)
	}
	if _, err := fmt.Sscanf(got[0], "%d|%d|%d|%d|%d|%d", &counts[0], &counts[1], &counts[2], &counts[3], &counts[4], &counts[5]); err != nil {
		t.Fatalf("expire_snapshots = %v: %v", got, err)
	}
	deleted := counts[0] + counts[3] + counts[4]
	t.Logf("expire_snapshots deleted %d data files, %d manifests, %d manifest lists (%d objects before, %d after): %d delete requests",
		counts[0], counts[3], counts[4], len(before), len(after), deletes)
	if counts[0] < 12 || counts[4] < 12 {
		t.Fatalf("expire_snapshots = %v, want the 12 replaced data files and 12 manifest lists", got)
	}
	// The commit itself deletes a few objects of its own (its temporary
	// metadata object and claim); the expired files add one request.
	if deletes*4 > int64(deleted) {
		t.Errorf("expire_snapshots of %d objects sent %d delete requests, want them batched", deleted, deletes)
	}
	for _, o := range after {
		if !slices.Contains(before, o) && !strings.HasSuffix(o, ".metadata.json") && !strings.HasSuffix(o, "version-hint.text") {
			t.Errorf("expire_snapshots wrote %s", o)
		}
	}
	if gone := len(before) - len(after); gone < deleted-1 {
		t.Errorf("%d objects gone, want the %d deleted less the new metadata file", gone, deleted)
	}
	if got := testutil.RowsInOrder(t, s, "SELECT id, p FROM db.t ORDER BY id"); !slices.Equal(got, want) || len(got) != 24 {
		t.Fatalf("after expire: %v, want %v", got, want)
	}
	if got := testutil.IcebergGo(t, wh, "db", "t", 0).Rows; len(got) != 24 {
		t.Fatalf("iceberg-go reads %d rows after expire, want 24", len(got))
	}
}

// objectsBelow lists the objects below a location.
func objectsBelow(t *testing.T, s *lakesql.Session, location string) []string {
	t.Helper()
	fsys, err := s.Warehouse().FS().FileSystem(location)
	if err != nil {
		t.Fatal(err)
	}
	entries, err := fsys.(*storage.ObjectIO).List(location)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		out = append(out, strings.TrimPrefix(e.Location, location+"/"))
	}
	slices.Sort(out)
	return out
}

// A one-day query on a day-partitioned table in S3 reads that day's file
// only, with ranged GETs: the footer, then the column chunks the query
// needs; not the whole file, not page by page.
func TestObjectStorageOneDayQueryIsFewRangedGets(t *testing.T) {
	s3 := testutil.StartS3(t)
	wh := s3.Location("warehouse")
	ctx := context.Background()
	if err := demo.Build(ctx, demo.Options{Warehouse: wh, Days: 40, EventsPerDay: 20000}); err != nil {
		t.Fatal(err)
	}
	const events = demo.Namespace + "." + demo.EventsTable
	const byDay = demo.Namespace + ".by_day"
	setup := testutil.OpenWith(t, lakesql.Options{Warehouse: wh},
		"CREATE TABLE "+byDay+" PARTITIONED BY (day(event_time)) AS SELECT * FROM "+events)
	const where = " WHERE event_time >= TIMESTAMP '2026-01-21 00:00:00' AND event_time < TIMESTAMP '2026-01-22 00:00:00'"
	const query = "SELECT count(*), sum(price), count(DISTINCT user_id) FROM "
	want := testutil.Rows(t, setup, query+events+where)
	files := testutil.RowsInOrder(t, setup, "SELECT file_path FROM "+byDay+".files WHERE file_path LIKE '%event_time_day=2026-01-21%'")
	if len(files) != 1 {
		t.Fatalf("files of the day: %v, want one", files)
	}
	// The bytes of the day's column chunks the query reads, from the file
	// as the server stores it.
	chunkBytes := columnChunkBytes(t, filepath.Join(s3.Dir, s3.Bucket, strings.TrimPrefix(files[0], "s3://"+s3.Bucket+"/")), "event_time", "price", "user_id")

	// A fresh session: nothing cached.
	s := testutil.OpenWith(t, lakesql.Options{Warehouse: wh})
	before := storage.ObjectRequestCounts()
	got := testutil.Rows(t, s, query+byDay+where)
	cost := storage.ObjectRequestCounts().Sub(before)
	if !slices.Equal(got, want) {
		t.Fatalf("partitioned table in S3: %v, want %v", got, want)
	}
	t.Logf("one-day query: %d GETs (%d B), %d of them of data files (%d B; the day's chunks: %d B), %d LIST, %d HEAD",
		cost.Gets, cost.GetBytes, cost.DataGets, cost.DataGetBytes, chunkBytes, cost.Lists, cost.Heads)
	if cost.Gets >= 10 {
		t.Errorf("%d GETs, want fewer than 10", cost.Gets)
	}
	if cost.DataGetBytes >= 2*chunkBytes {
		t.Errorf("%d bytes of data files transferred, want less than twice the day's column chunks (%d B)", cost.DataGetBytes, chunkBytes)
	}
}

// columnChunkBytes sums the compressed sizes of the named columns' chunks
// in a local Parquet file.
func columnChunkBytes(t *testing.T, path string, columns ...string) int64 {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	return columnChunkBytesAt(t, f, info.Size(), columns...)
}

// columnChunkBytesAt is columnChunkBytes of the Parquet file in r.
func columnChunkBytesAt(t *testing.T, r io.ReaderAt, size int64, columns ...string) int64 {
	t.Helper()
	pf, err := parquet.OpenFile(r, size)
	if err != nil {
		t.Fatal(err)
	}
	var n int64
	for _, rg := range pf.Metadata().RowGroups {
		for _, c := range rg.Columns {
			if slices.Contains(columns, strings.Join(c.MetaData.PathInSchema, ".")) {
				n += c.MetaData.TotalCompressedSize
			}
		}
	}
	return n
}

// On a store that ignores If-None-Match (simulated by a proxy in front of
// versitygw that turns its 412 Precondition Failed into 200 OK), a commit
// could silently overwrite another: lakesql refuses to commit there, with
// a one-line message naming the way out, and reads still work.
func TestObjectStorageWithoutConditionalWritesRefusesCommits(t *testing.T) {
	s3 := testutil.StartS3(t)
	wh := s3.Location("warehouse")
	testutil.OpenWith(t, lakesql.Options{Warehouse: wh},
		"CREATE NAMESPACE db", "CREATE TABLE db.t (id BIGINT)", "INSERT INTO db.t VALUES (1), (NULL)")

	target, err := url.Parse(s3.Endpoint)
	if err != nil {
		t.Fatal(err)
	}
	proxy := httputil.NewSingleHostReverseProxy(target)
	proxy.ModifyResponse = func(resp *http.Response) error {
		if resp.Request.Method == http.MethodPut && resp.StatusCode == http.StatusPreconditionFailed {
			resp.StatusCode, resp.Status = http.StatusOK, "200 OK"
			resp.Body = io.NopCloser(strings.NewReader(""))
			resp.ContentLength = 0
			resp.Header.Del("Content-Length")
		}
		return nil
	}
	srv := httptest.NewServer(proxy)
	t.Cleanup(srv.Close)
	t.Setenv("AWS_ENDPOINT_URL", srv.URL)

	s := testutil.OpenWith(t, lakesql.Options{Warehouse: wh})
	if got := testutil.Rows(t, s, "SELECT id FROM db.t"); !slices.Equal(got, []string{"1", "NULL"}) {
		t.Fatalf("rows %v, want 1, NULL", got)
	}
	for _, st := range []string{"INSERT INTO db.t VALUES (2)", "CREATE TABLE db.u (id BIGINT)"} {
		msg := testutil.Error(t, s, st)
		if strings.Contains(msg, "\n") || !strings.Contains(msg, "has no conditional writes: commits to s3://lakesql/warehouse/db/") || !strings.Contains(msg, "use a SQL or REST catalog") {
			t.Errorf("%s: %q, want one line saying the store has no conditional writes, pointing at the SQL or REST catalog", st, msg)
		}
	}
	if got := testutil.Rows(t, s, "SELECT id FROM db.t"); !slices.Equal(got, []string{"1", "NULL"}) {
		t.Fatalf("rows after the refused commits %v, want 1, NULL", got)
	}
	if got := testutil.RowsInOrder(t, s, "SHOW TABLES IN db"); !slices.Equal(got, []string{"db|t"}) {
		t.Fatalf("tables %v, want only t", got)
	}
}

// A catalog declared in iceberg-go's configuration file carries its own
// s3.* properties (endpoint, keys, region): with no AWS environment at
// all, a folder catalog and an SQL catalog on S3 are written and read
// through them, beside a local default warehouse.
func TestDeclaredCatalogPropertiesConfigureItsStorage(t *testing.T) {
	s3 := testutil.StartS3(t)
	props := "    properties:\n" +
		"      s3.endpoint: " + s3.Endpoint + "\n" +
		"      s3.access-key-id: " + os.Getenv("AWS_ACCESS_KEY_ID") + "\n" +
		"      s3.secret-access-key: " + os.Getenv("AWS_SECRET_ACCESS_KEY") + "\n" +
		"      s3.region: us-east-1\n"
	dir := t.TempDir()
	declareCatalogs(t, "catalog:\n"+
		"  lake:\n    warehouse: "+s3.Location("lake")+"\n"+props+
		"  shared:\n    type: sql\n    uri: sqlite:"+filepath.Join(dir, "shared.db")+"\n    warehouse: "+s3.Location("shared")+"\n"+props)
	for _, env := range []string{"AWS_ENDPOINT_URL", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_REGION"} {
		t.Setenv(env, "")
	}
	s := testutil.OpenWith(t, lakesql.Options{Warehouse: filepath.Join(dir, "wh")})
	for _, cat := range []string{"lake", "shared"} {
		testutil.Exec(t, s, "CREATE NAMESPACE "+cat+".ns",
			"CREATE TABLE "+cat+".ns.t (id INT, name STRING)",
			"INSERT INTO "+cat+".ns.t VALUES (1, 'a'), (2, NULL)")
		testutil.WantRows(t, s, "SELECT id, name FROM "+cat+".ns.t", "1|a", "2|NULL")
		// The server's posix backend holds the bucket's objects as files.
		files := 0
		filepath.WalkDir(filepath.Join(s3.Dir, s3.Bucket, cat), func(_ string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				files++
			}
			return nil
		})
		if files == 0 {
			t.Fatalf("catalog %s wrote nothing below %s", cat, s3.Location(cat))
		}
	}
	// Without the properties the same catalog cannot reach its bucket.
	declareCatalogs(t, "catalog:\n  lake:\n    warehouse: "+s3.Location("lake")+"\n")
	other := testutil.OpenWith(t, lakesql.Options{Warehouse: filepath.Join(dir, "wh")})
	testutil.WantError(t, other, "SELECT count(*) FROM lake.ns.t", "lake")
}
