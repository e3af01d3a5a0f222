package lakesql_test

import (
	"bytes"
	"context"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lakesql/lakesql"
	"github.com/lakesql/lakesql/internal/demo"
	"github.com/lakesql/lakesql/internal/testutil"
)

// On Azure storage (Azurite), a one-day query on a day-partitioned table
// reads that day's file only, with ranged GETs.
func TestAzureOneDayQueryIsFewRangedGets(t *testing.T) {
	az := testutil.StartAzurite(t)
	oneDayQueryOnCloud(t, az.Location("warehouse"), az.Props(), az.Requests)
}

// oneDayQueryOnCloud builds ten days of demo events in the warehouse wh
// (with an SQL catalog on SQLite and the store's catalog properties
// props), copies them into a table partitioned by day, and checks, in the
// requests the store's proxy logged, that a one-day query reads the day's
// data file only with ranged GETs, fewer than ten GETs in all, less than
// twice the bytes of the column chunks it needs.
func oneDayQueryOnCloud(t *testing.T, wh string, props map[string]string, log *testutil.RequestLog) {
	opts := lakesql.Options{Warehouse: wh, CatalogURI: "sqlite:" + filepath.Join(t.TempDir(), "catalog.db"), CatalogProps: props}
	if err := demo.Build(context.Background(), demo.Options{Warehouse: wh, CatalogURI: opts.CatalogURI, CatalogProps: props, Days: 10, EventsPerDay: 5000}); err != nil {
		t.Fatal(err)
	}
	const events = demo.Namespace + "." + demo.EventsTable
	const byDay = demo.Namespace + ".by_day"
	setup := testutil.OpenWith(t, opts,
		"CREATE TABLE "+byDay+" PARTITIONED BY (day(event_time)) AS SELECT * FROM "+events)
	const where = " WHERE event_time >= TIMESTAMP '2026-01-06 00:00:00' AND event_time < TIMESTAMP '2026-01-07 00:00:00'"
	const query = "SELECT count(*), sum(price), count(DISTINCT user_id) FROM "
	want := testutil.Rows(t, setup, query+events+where)
	files := testutil.RowsInOrder(t, setup, "SELECT file_path FROM "+byDay+".files WHERE file_path LIKE '%event_time_day=2026-01-06%'")
	if len(files) != 1 {
		t.Fatalf("files of the day: %v, want one", files)
	}
	f, err := setup.Warehouse().FS().Open(files[0])
	if err != nil {
		t.Fatal(err)
	}
	data, err := io.ReadAll(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	chunkBytes := columnChunkBytesAt(t, bytes.NewReader(data), int64(len(data)), "event_time", "price", "user_id")

	// A fresh session: nothing cached.
	s := testutil.OpenWith(t, opts)
	n := log.Len()
	got := testutil.Rows(t, s, query+byDay+where)
	if !slices.Equal(got, want) {
		t.Fatalf("partitioned table on %s: %v, want %v", wh, got, want)
	}
	var gets, dataGets, dataBytes int64
	for _, r := range log.Since(n) {
		t.Logf("%s %s %s: %d, %d B", r.Method, r.Path, r.Range, r.Status, r.Bytes)
		if r.Method != "GET" {
			continue
		}
		gets++
		if strings.HasSuffix(r.Path, ".parquet") {
			dataGets++
			dataBytes += r.Bytes
			if r.Range == "" {
				t.Errorf("GET %s without a range: a whole data file", r.Path)
			}
			if !strings.Contains(r.Path, "event_time_day=2026-01-06") {
				t.Errorf("GET %s: a file of another day", r.Path)
			}
		}
	}
	t.Logf("one-day query: %d GETs, %d of the day's data file (%d B of its %d B; the chunks read: %d B)", gets, dataGets, dataBytes, len(data), chunkBytes)
	if gets >= 10 {
		t.Errorf("%d GETs, want fewer than 10", gets)
	}
	if dataGets == 0 || dataBytes >= 2*chunkBytes {
		t.Errorf("%d GETs of %d bytes of the data file, want some, and less than twice the day's column chunks (%d B)", dataGets, dataBytes, chunkBytes)
	}
}

// Azure's errors (a missing container, a wrong key) reach the user on one
// line naming the object, the request and the service's error code, not
// the SDK's several lines of response dump and XML.
func TestAzureErrorsAreOneLine(t *testing.T) {
	az := testutil.StartAzurite(t)
	open := func(wh string, props map[string]string) *lakesql.Session {
		return testutil.OpenWith(t, lakesql.Options{Warehouse: wh, CatalogURI: "sqlite:" + filepath.Join(t.TempDir(), "catalog.db"), CatalogProps: props},
			"CREATE NAMESPACE ns")
	}
	missing := open("abfs://nosuch@devstoreaccount1.dfs.core.windows.net/wh", az.Props())
	testutil.WantError(t, missing, "CREATE TABLE ns.t (id INT)", "abfs://nosuch@devstoreaccount1.dfs.core.windows.net/wh/ns.db/t/metadata/")
	testutil.WantError(t, missing, "CREATE TABLE ns.t (id INT)", ": 404 Not Found (ContainerNotFound)")
	props := az.Props()
	props["adls.auth.shared-key.account.key"] = "d3Jvbmcta2V5"
	testutil.WantError(t, open(az.Location("wh"), props), "CREATE TABLE ns.t (id INT)", ": 403 Forbidden (AuthorizationFailure)")
}
