package procedures

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/apache/iceberg-go/table"

	"github.com/lakesql/lakesql/internal/engine"
	"github.com/lakesql/lakesql/sql"
)

// vacuumDefaultRetain is VACUUM's retention without RETAIN, as in Delta Lake.
const vacuumDefaultRetain = 168 * time.Hour

// vacuumMaxRetainHours keeps RETAIN within what a time.Duration holds.
const vacuumMaxRetainHours = 1_000_000

// vacuumColumns are VACUUM's result columns.
var vacuumColumns = []string{
	"expired_snapshots_count",
	"deleted_data_files_count",
	"deleted_delete_files_count",
	"deleted_manifest_files_count",
	"deleted_manifest_lists_count",
	"deleted_statistics_files_count",
	"deleted_orphan_files_count",
}

// Vacuum is VACUUM t [RETAIN n HOURS] [DRY RUN], Delta Lake's statement for
// an Iceberg table: expire the snapshots older than the retention (the
// current one, and any the table's history.expire.* properties keep, stay),
// then remove the orphan files older than it. DRY RUN lists the files it
// would delete instead, as Delta's does.
func Vacuum(ctx context.Context, s *engine.Session, st *sql.Vacuum) (*engine.Result, error) {
	ns, t, err := defaultCatalogTable(ctx, s, st.Table)
	if err != nil {
		return nil, err
	}
	name := ns + "." + t
	retain, err := vacuumRetention(st)
	if err != nil {
		return nil, err
	}
	if s.RetentionCheck() && retain < orphanMinRetention {
		return nil, fmt.Errorf("VACUUM %s RETAIN %s: files younger than %s may belong to a write in flight; SET vacuum_retention_check = false to allow it",
			name, retain, orphanMinRetention)
	}
	tbl, err := s.Warehouse().LoadTable(ctx, ns, t)
	if err != nil {
		return nil, err
	}
	// Refused before expiring anything, so that VACUUM is not half done.
	if _, err := ownFiles(s, tbl, name); err != nil {
		return nil, err
	}
	cutoff := time.Now().Add(-retain)
	exp, err := planExpiry(tbl, name, []table.ExpireSnapshotsOpt{table.WithOlderThan(retain)}, nil)
	if err != nil {
		return nil, err
	}
	if st.DryRun {
		return vacuumPreview(ctx, s, tbl, name, exp, cutoff)
	}
	expired, err := exp.apply(ctx, s, 1)
	if err != nil {
		return nil, err
	}
	// The expiry committed a new version: orphans are looked for in it.
	if tbl, err = s.Warehouse().LoadTable(ctx, ns, t); err != nil {
		return nil, err
	}
	orphans, err := orphanFiles(ctx, s, tbl, name, cutoff, "", false)
	if err != nil {
		return nil, err
	}
	return vacuumCounts(int64(exp.expiredCount()), expired, int64(len(orphans))), nil
}

func vacuumRetention(st *sql.Vacuum) (time.Duration, error) {
	if st.RetainHours == nil {
		return vacuumDefaultRetain, nil
	}
	h := *st.RetainHours
	if h < 0 || h > vacuumMaxRetainHours {
		return 0, fmt.Errorf("VACUUM RETAIN takes 0 to %d hours, got %s", vacuumMaxRetainHours, strconv.FormatFloat(h, 'f', -1, 64))
	}
	return time.Duration(h * float64(time.Hour)), nil
}

// vacuumPreview lists the files VACUUM would delete and why: the kind of an
// expired snapshot's file, or "orphan".
func vacuumPreview(ctx context.Context, s *engine.Session, tbl *table.Table, name string, exp *expiry, cutoff time.Time) (*engine.Result, error) {
	expired, err := exp.preview(s)
	if err != nil {
		return nil, err
	}
	orphans, err := orphanFiles(ctx, s, tbl, name, cutoff, "", true)
	if err != nil {
		return nil, err
	}
	rows := make([][]string, 0, len(expired)+len(orphans))
	for _, f := range expired {
		rows = append(rows, []string{f.path, f.kind.String()})
	}
	for _, p := range orphans {
		rows = append(rows, []string{p, "orphan"})
	}
	return engine.TextRows([]string{"file_location", "kind"}, rows), nil
}

func vacuumCounts(snapshots int64, expired []expiredFile, orphans int64) *engine.Result {
	c := countByKind(expired)
	deletes := c[positionDeleteFileKind] + c[equalityDeleteFileKind]
	return bigintRow(vacuumColumns, &snapshots, &c[dataFileKind], &deletes,
		&c[manifestFileKind], &c[manifestListKind], &c[statisticsFileKind], &orphans)
}
