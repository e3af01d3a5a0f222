package lakesql_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/apache/iceberg-go/table"

	"github.com/lakesql/lakesql"
	"github.com/lakesql/lakesql/internal/testutil"
)

// commitEach runs statements that each commit one snapshot, a few
// milliseconds apart so that every snapshot has its own commit time, and
// returns db.t's snapshots in commit order.
func commitEach(t *testing.T, s *lakesql.Session, statements ...string) []table.Snapshot {
	t.Helper()
	for _, st := range statements {
		time.Sleep(3 * time.Millisecond)
		testutil.Exec(t, s, st)
	}
	tbl := testutil.Table(t, s, "db", "t")
	snaps := tbl.Metadata().Snapshots()
	slices.SortFunc(snaps, func(a, b table.Snapshot) int { return int(a.SequenceNumber - b.SequenceNumber) })
	return snaps
}

// threeAppends creates db.t with one, then two, then three rows.
func threeAppends(t *testing.T, s *lakesql.Session) []table.Snapshot {
	t.Helper()
	testutil.Exec(t, s, "CREATE TABLE db.t (id BIGINT, ts TIMESTAMP) PARTITIONED BY (day(ts))")
	snaps := commitEach(t, s,
		"INSERT INTO db.t VALUES (1, TIMESTAMP '2026-01-15 10:00:00')",
		"INSERT INTO db.t VALUES (2, TIMESTAMP '2026-01-16 10:00:00')",
		"INSERT INTO db.t VALUES (3, TIMESTAMP '2026-01-16 11:00:00')")
	if len(snaps) != 3 {
		t.Fatalf("got %d snapshots, want 3", len(snaps))
	}
	return snaps
}

func TestTimeTravelByVersion(t *testing.T) {
	s, _ := testutil.Open(t, "CREATE NAMESPACE db")
	snaps := threeAppends(t, s)
	for i, snap := range snaps {
		want := []string{"1", "2", "3"}[:i+1]
		for _, clause := range []string{"VERSION AS OF %d", "FOR SYSTEM_VERSION AS OF %d"} {
			q := "SELECT id FROM db.t " + fmt.Sprintf(clause, snap.SnapshotID)
			if got := testutil.Rows(t, s, q); !slices.Equal(got, want) {
				t.Errorf("%s = %v, want %v", q, got, want)
			}
			// count(*) may be answered from the snapshot summary: it must
			// be the traveled snapshot's.
			q = "SELECT count(*) FROM db.t " + fmt.Sprintf(clause, snap.SnapshotID)
			if got := testutil.Rows(t, s, q); !slices.Equal(got, []string{fmt.Sprint(i + 1)}) {
				t.Errorf("%s = %v, want %d", q, got, i+1)
			}
		}
	}
	plan := testutil.Explain(t, s, fmt.Sprintf("SELECT id FROM db.t VERSION AS OF %d", snaps[0].SnapshotID))
	testutil.WantContains(t, plan, fmt.Sprintf("snapshot=%d", snaps[0].SnapshotID))
}

func TestTimeTravelByBranchAndTag(t *testing.T) {
	s, _ := testutil.Open(t, "CREATE NAMESPACE db")
	snaps := threeAppends(t, s)
	ctx := context.Background()
	tag := table.NewSetSnapshotRefUpdate("first", snaps[0].SnapshotID, table.TagRef, 0, 0, 0)
	if _, _, err := s.Warehouse().Catalog().CommitTable(ctx, table.Identifier{"db", "t"}, nil, []table.Update{tag}); err != nil {
		t.Fatal(err)
	}
	for q, want := range map[string]string{
		"SELECT count(*) FROM db.t VERSION AS OF 'first'": "1",
		"SELECT count(*) FROM db.t VERSION AS OF 'main'":  "3",
	} {
		if got := testutil.Rows(t, s, q); !slices.Equal(got, []string{want}) {
			t.Errorf("%s = %v, want %s", q, got, want)
		}
	}
}

func TestTimeTravelByTimestamp(t *testing.T) {
	s, _ := testutil.Open(t, "CREATE NAMESPACE db")
	snaps := threeAppends(t, s)
	at := func(ms int64) string { return time.UnixMilli(ms).UTC().Format("2006-01-02 15:04:05.000") }
	for i, snap := range snaps {
		want := []string{fmt.Sprint(i + 1)}
		for _, clause := range []string{
			"TIMESTAMP AS OF '%s'",
			"FOR SYSTEM_TIME AS OF TIMESTAMP '%s'",
			"FOR SYSTEM_TIME AS OF CAST('%s' AS TIMESTAMPTZ)",
		} {
			// Exactly at the commit, and just before the next one.
			for _, ms := range []int64{snap.TimestampMs, nextCommitMs(snaps, i) - 1} {
				q := "SELECT count(*) FROM db.t " + fmt.Sprintf(clause, at(ms))
				if got := testutil.Rows(t, s, q); !slices.Equal(got, want) {
					t.Errorf("%s = %v, want %v", q, got, want)
				}
			}
		}
	}
	if got := testutil.Rows(t, s, "SELECT count(*) FROM db.t TIMESTAMP AS OF current_timestamp"); !slices.Equal(got, []string{"3"}) {
		t.Errorf("AS OF current_timestamp = %v, want 3", got)
	}
	got := testutil.Error(t, s, "SELECT * FROM db.t TIMESTAMP AS OF '2000-01-01'")
	if want := "no snapshot of db.t at or before 2000-01-01 00:00:00"; got != want {
		t.Errorf("before the first snapshot: got error %q, want %q", got, want)
	}
}

// nextCommitMs is when the snapshot after snaps[i] was committed, or far in
// the future for the last one.
func nextCommitMs(snaps []table.Snapshot, i int) int64 {
	if i+1 < len(snaps) {
		return snaps[i+1].TimestampMs
	}
	return snaps[i].TimestampMs + time.Hour.Milliseconds()
}

func TestTimeTravelReadsWithTheSnapshotSchema(t *testing.T) {
	s, _ := testutil.Open(t, "CREATE NAMESPACE db")
	testutil.Exec(t, s, "CREATE TABLE db.t (id BIGINT, s STRING)")
	snaps := commitEach(t, s,
		"INSERT INTO db.t VALUES (1, 'a')",
		"ALTER TABLE db.t DROP COLUMN s",
		"ALTER TABLE db.t ADD COLUMN n INT",
		"INSERT INTO db.t VALUES (2, 20)")
	first := snaps[0].SnapshotID
	if got, want := testutil.Rows(t, s, "SELECT * FROM db.t"), []string{"1|NULL", "2|20"}; !slices.Equal(got, want) {
		t.Errorf("current rows = %v, want %v", got, want)
	}
	// The dropped column is still there in the old snapshot, the added one not yet.
	q := fmt.Sprintf("SELECT * FROM db.t VERSION AS OF %d", first)
	res, err := s.Exec(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	res.Close()
	var names []string
	for _, f := range res.Schema.Fields() {
		names = append(names, f.Name)
	}
	if want := []string{"id", "s"}; !slices.Equal(names, want) {
		t.Errorf("%s has columns %v, want %v", q, names, want)
	}
	if got, want := testutil.Rows(t, s, q), []string{"1|a"}; !slices.Equal(got, want) {
		t.Errorf("%s = %v, want %v", q, got, want)
	}
	// Column n was added after the first snapshot.
	testutil.Error(t, s, fmt.Sprintf("SELECT n FROM db.t VERSION AS OF %d", first))
}
