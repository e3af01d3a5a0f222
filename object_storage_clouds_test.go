package lakesql_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"sync"
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

	// A filesystem-style warehouse in a missing container is refused when
	// it is opened, saying what configures the store.
	_, err := lakesql.Open(context.Background(), lakesql.Options{Warehouse: "abfs://nosuch@devstoreaccount1.dfs.core.windows.net/wh", CatalogProps: az.Props()})
	want := "container nosuch of warehouse abfs://nosuch@devstoreaccount1.dfs.core.windows.net/wh does not exist (at " + az.Props()["adls.endpoint"] + "; check the container and the adls.* properties"
	if err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "\n") {
		t.Errorf("warehouse in a missing container: %v, want one line containing %q", err, want)
	}
}

// Four sessions insert into one table of a filesystem-style warehouse on
// Azure at once: every commit is a conditional write of the next metadata
// version, so none is lost (a failed INSERT says so on one line and left
// no rows).
func TestAzureConcurrentInsertsLoseNoCommit(t *testing.T) {
	az := testutil.StartAzurite(t)
	concurrentInsertsOnCloud(t, az.Location("warehouse"), az.Props())
}

// concurrentInsertsOnCloud runs four sessions of five INSERTs each into
// one table of the warehouse wh (its own catalog, properties props) and
// checks that the table holds exactly the rows of the INSERTs that
// succeeded, and that some did.
func concurrentInsertsOnCloud(t *testing.T, wh string, props map[string]string) {
	opts := lakesql.Options{Warehouse: wh, CatalogProps: props}
	testutil.OpenWith(t, opts, "CREATE NAMESPACE db", "CREATE TABLE db.t (writer INT, n INT)")
	const writers, inserts = 4, 5
	sessions := make([]*lakesql.Session, writers)
	for w := range sessions {
		sessions[w] = testutil.OpenWith(t, opts)
	}
	committed := make([][]string, writers)
	errs := make(chan string, writers*inserts)
	var wg sync.WaitGroup
	for w, s := range sessions {
		wg.Go(func() {
			for n := range inserts {
				res, err := s.Exec(context.Background(), fmt.Sprintf("INSERT INTO db.t VALUES (%d, %d)", w, n))
				if err == nil {
					err = res.Close()
				}
				if err != nil {
					errs <- err.Error()
					continue
				}
				committed[w] = append(committed[w], fmt.Sprintf("%d|%d", w, n))
			}
		})
	}
	wg.Wait()
	close(errs)
	for msg := range errs {
		t.Logf("failed INSERT: %s", msg)
		if strings.Contains(msg, "\n") {
			t.Errorf("failed INSERT, not on one line: %q", msg)
		}
	}
	want := slices.Concat(committed...)
	slices.Sort(want)
	got := testutil.Rows(t, sessions[0], "SELECT writer, n FROM db.t")
	t.Logf("%d of %d INSERTs committed", len(want), writers*inserts)
	if !slices.Equal(got, want) {
		t.Fatalf("rows %s", testutil.DiffRows(got, want))
	}
	if len(want) == 0 {
		t.Fatal("no INSERT committed")
	}
}
