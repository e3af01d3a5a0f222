package lakesql_test

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lakesql/lakesql"
	"github.com/lakesql/lakesql/internal/demo"
	"github.com/lakesql/lakesql/internal/testutil"
	"github.com/lakesql/lakesql/storage"
)

// The three-year demo table in S3 (versitygw), partitioned by day as the
// tutorial does it (ADD PARTITION FIELD, then rewrite_data_files): a
// one-day query makes fewer than 10 GET requests, and all the bytes it
// fetches — metadata, manifest list, manifests and data files — are less
// than twice the day's column chunks it reads. That needs the rewrite's
// 1095 files in manifests clustered by day (storage.ManifestGroups): one
// manifest of them all is 142 KB, 2.5 times the chunks by itself. Building
// 1095 days takes minutes: make stress runs it.
func TestObjectStorageThreeYearDemoOneDayQuery(t *testing.T) {
	if !stressMode() {
		t.Skip("builds the 1095-day demo in S3; make stress (LAKESQL_STRESS=1) runs it")
	}
	s3 := testutil.StartS3(t)
	wh := s3.Location("warehouse")
	ctx := context.Background()
	if err := demo.Build(ctx, demo.Options{Warehouse: wh, Days: 1095, EventsPerDay: 10000}); err != nil {
		t.Fatal(err)
	}
	const events = demo.Namespace + "." + demo.EventsTable
	setup := testutil.OpenWith(t, lakesql.Options{Warehouse: wh},
		"ALTER TABLE "+events+" ADD PARTITION FIELD day(event_time)",
		"CALL system.rewrite_data_files(table => '"+events+"', options => map('rewrite-all', 'true'))")
	const where = " WHERE event_time >= TIMESTAMP '2027-07-01 00:00:00' AND event_time < TIMESTAMP '2027-07-02 00:00:00'"
	const query = "SELECT count(*), sum(price), count(DISTINCT user_id) FROM "
	want := testutil.Rows(t, setup, query+events+where)
	if want[0] == "0|NULL|0" {
		t.Fatalf("the day has no events: %v", want)
	}
	files := testutil.RowsInOrder(t, setup, "SELECT file_path FROM "+events+".files WHERE file_path LIKE '%event_time_day=2027-07-01%'")
	if len(files) != 1 {
		t.Fatalf("files of the day: %v, want one", files)
	}
	chunkBytes := columnChunkBytes(t, filepath.Join(s3.Dir, s3.Bucket, strings.TrimPrefix(files[0], "s3://"+s3.Bucket+"/")), "event_time", "price", "user_id")
	manifests := testutil.RowsInOrder(t, setup, "SELECT count(*), sum(added_data_files_count + existing_data_files_count) FROM "+events+".manifests")

	s := testutil.OpenWith(t, lakesql.Options{Warehouse: wh}) // nothing cached
	before := storage.ObjectRequestCounts()
	got := testutil.Rows(t, s, query+events+where)
	cost := storage.ObjectRequestCounts().Sub(before)
	if !slices.Equal(got, want) {
		t.Fatalf("one day of the three-year table: %v, want %v", got, want)
	}
	t.Logf("1095 days, manifests|files %v; one-day query: %d GETs (%d B), %d of data files (%d B; the day's chunks: %d B), %d LIST, %d HEAD",
		manifests, cost.Gets, cost.GetBytes, cost.DataGets, cost.DataGetBytes, chunkBytes, cost.Lists, cost.Heads)
	if cost.Gets >= 10 {
		t.Errorf("%d GETs, want fewer than 10", cost.Gets)
	}
	if cost.GetBytes >= 2*chunkBytes {
		t.Errorf("%d bytes transferred (%d of data files), want less than twice the day's column chunks (%d B)", cost.GetBytes, cost.DataGetBytes, chunkBytes)
	}
}
