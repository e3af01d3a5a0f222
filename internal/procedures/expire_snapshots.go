package procedures

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"time"

	"github.com/apache/iceberg-go"
	icebergio "github.com/apache/iceberg-go/io"
	"github.com/apache/iceberg-go/table"
	"golang.org/x/sync/errgroup"

	"github.com/lakesql/lakesql/catalog"
	"github.com/lakesql/lakesql/internal/engine"
	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/storage"
)

// expireSnapshots is CALL system.expire_snapshots(table, older_than,
// retain_last, snapshot_ids, max_concurrent_deletes, stream_results). Without
// older_than and retain_last the table's history.expire.* properties apply
// (five days and one snapshot by default), as in Spark.
func expireSnapshots(ctx context.Context, s *engine.Session, args map[string]*planner.Literal) (*engine.Result, error) {
	tbl, name, err := procedureTable(ctx, s, args)
	if err != nil {
		return nil, err
	}
	opts, err := expireOptions(ctx, args)
	if err != nil {
		return nil, err
	}
	ids, err := int64ListArg(ctx, args, "snapshot_ids")
	if err != nil {
		return nil, err
	}
	workers, err := positiveIntArg(ctx, args, "max_concurrent_deletes", 1)
	if err != nil {
		return nil, err
	}
	// stream_results only tells Spark how to collect the file list on its
	// driver; it is checked for its type and has nothing to change here.
	if _, err := boolArg(ctx, args, "stream_results"); err != nil {
		return nil, err
	}
	if _, err := ownFiles(s, tbl, name); err != nil {
		return nil, err
	}
	exp, err := planExpiry(tbl, name, opts, ids)
	if err != nil {
		return nil, err
	}
	files, err := exp.apply(ctx, s, workers)
	if err != nil {
		return nil, err
	}
	return expiryCounts(files), nil
}

// expireOptions reads older_than and retain_last.
func expireOptions(ctx context.Context, args map[string]*planner.Literal) ([]table.ExpireSnapshotsOpt, error) {
	var opts []table.ExpireSnapshotsOpt
	olderThan, ok, err := timeArg(ctx, args, "older_than")
	if err != nil {
		return nil, err
	}
	if ok {
		opts = append(opts, table.WithOlderThan(ageOf(olderThan)))
	}
	retain, ok, err := int64Arg(ctx, args, "retain_last")
	if err != nil {
		return nil, err
	}
	if ok {
		if retain < 1 {
			return nil, fmt.Errorf("argument retain_last must be at least 1 (the current snapshot is always kept), got %d", retain)
		}
		opts = append(opts, table.WithRetainLast(int(retain)))
	}
	return opts, nil
}

// ageOf turns a point in time into the age iceberg-go's options take; a time
// in the future means "everything up to now".
func ageOf(t time.Time) time.Duration { return max(0, time.Since(t)) }

// expiry is a planned expire_snapshots: the catalog commit that removes the
// snapshots, and the metadata that commit produces.
type expiry struct {
	name   string
	tbl    *table.Table
	commit table.TableCommit
	after  table.Metadata
	// opts and ids are what it was planned with, to plan it again on the
	// table another writer's commit left.
	opts []table.ExpireSnapshotsOpt
	ids  []int64
}

// planExpiry stages the expiry. iceberg-go chooses the snapshots that the
// retention rules let go (never a branch or tag head); snapshot_ids adds
// snapshots to expire explicitly, as Spark's snapshot_ids does. Files are
// deleted by apply, not by iceberg-go's post-commit hook, because the
// procedure must report what it deleted, by kind.
func planExpiry(tbl *table.Table, name string, opts []table.ExpireSnapshotsOpt, ids []int64) (*expiry, error) {
	tx := tbl.NewTransaction()
	if err := tx.ExpireSnapshots(append(opts, table.WithPostCommit(false))...); err != nil {
		return nil, fmt.Errorf("expire snapshots of %s: %w", name, err)
	}
	commit, err := tx.TableCommit()
	if err != nil {
		return nil, fmt.Errorf("expire snapshots of %s: %w", name, err)
	}
	if len(ids) > 0 {
		if err := checkExpirable(tbl.Metadata(), name, ids); err != nil {
			return nil, err
		}
		commit.Updates = append(commit.Updates, table.NewRemoveSnapshotsUpdate(ids, false))
		commit.Requirements = append(commit.Requirements, unchanged(tbl.Metadata())...)
	}
	after, err := applyUpdates(tbl, commit.Updates)
	if err != nil {
		return nil, fmt.Errorf("expire snapshots of %s: %w", name, err)
	}
	return &expiry{name: name, tbl: tbl, commit: commit, after: after, opts: opts, ids: ids}, nil
}

// checkExpirable refuses explicit snapshot ids that do not exist or that a
// branch or tag points at: removing those would silently drop the ref.
func checkExpirable(meta table.Metadata, name string, ids []int64) error {
	for _, id := range ids {
		if meta.SnapshotByID(id) == nil {
			return unknownSnapshot(meta, name, id)
		}
		for ref, r := range meta.Refs() {
			if r.SnapshotID == id {
				return fmt.Errorf("cannot expire snapshot %d of %s: %s %s points at it", id, name, r.SnapshotRefType, ref)
			}
		}
	}
	return nil
}

// unchanged asserts that the table and each of its branches and tags are
// still as meta has them, so the commit fails rather than undoes another.
func unchanged(meta table.Metadata) []table.Requirement {
	reqs := []table.Requirement{table.AssertTableUUID(meta.TableUUID())}
	for ref, r := range meta.Refs() {
		reqs = append(reqs, table.AssertRefSnapshotID(ref, &r.SnapshotID))
	}
	return reqs
}

// applyUpdates is the metadata the updates make of the table's, without committing.
func applyUpdates(tbl *table.Table, updates []table.Update) (table.Metadata, error) {
	b, err := table.MetadataBuilderFromBase(tbl.Metadata(), tbl.MetadataLocation())
	if err != nil {
		return nil, err
	}
	for _, u := range updates {
		if err := u.Apply(b); err != nil {
			return nil, err
		}
	}
	return b.Build()
}

// expiredCount is the number of snapshots the expiry removes.
func (e *expiry) expiredCount() int {
	return len(e.tbl.Metadata().Snapshots()) - len(e.after.Snapshots())
}

// preview lists the files the expiry would delete, without committing.
func (e *expiry) preview(s *engine.Session) ([]expiredFile, error) {
	files, err := expiredFiles(s.Warehouse().FS(), e.tbl.Metadata(), e.after)
	if err != nil {
		return nil, fmt.Errorf("expire snapshots of %s: %w", e.name, err)
	}
	return files, nil
}

// apply commits the expiry, then deletes the files no remaining snapshot
// references, and returns them. Deleting after the commit means a failure
// only leaves unreferenced files behind, which remove_orphan_files finds.
// An expiry that loses a race with another writer is planned again on the
// table as that writer left it (the other commit may have added snapshots)
// and retried through storage.RetryCommit; e then holds the expiry that
// committed.
func (e *expiry) apply(ctx context.Context, s *engine.Session, workers int) ([]expiredFile, error) {
	var after table.Metadata
	err := storage.RetryCommit(ctx, e.tbl, func(*table.Table) error {
		if len(e.commit.Updates) == 0 {
			return nil
		}
		var err error
		if after, _, err = s.Warehouse().CommitTable(ctx, e.tbl.Identifier(), e.commit.Requirements, e.commit.Updates); err != nil {
			return fmt.Errorf("expire snapshots of %s: %w", e.name, err)
		}
		return nil
	}, func(fresh *table.Table) error {
		next, err := planExpiry(fresh, e.name, e.opts, e.ids)
		if err == nil {
			*e = *next
		}
		return err
	})
	if err != nil || after == nil {
		return nil, err
	}
	// The committed metadata, not the planned one, decides what is still
	// referenced: it is what readers now see.
	files, err := expiredFiles(s.Warehouse().FS(), e.tbl.Metadata(), after)
	if err != nil {
		return nil, fmt.Errorf("expire snapshots of %s: snapshots expired, but their files were left for remove_orphan_files: %w", e.name, err)
	}
	paths := make([]string, len(files))
	for i, f := range files {
		paths[i] = f.path
	}
	fsys, err := ownFiles(s, e.tbl, e.name)
	if err != nil {
		return nil, err
	}
	if err := deleteFiles(ctx, fsys, paths, workers); err != nil {
		return nil, fmt.Errorf("expire snapshots of %s: snapshots expired, but %w", e.name, err)
	}
	return files, nil
}

// fileKind classifies the files an expiry deletes, for its counts.
type fileKind int

var fileKindNames = [fileKinds]string{"data", "position deletes", "equality deletes", "manifest", "manifest list", "statistics"}

func (k fileKind) String() string { return fileKindNames[k] }

func contentKind(c iceberg.ManifestEntryContent) fileKind {
	switch c {
	case iceberg.EntryContentPosDeletes:
		return positionDeleteFileKind
	case iceberg.EntryContentEqDeletes:
		return equalityDeleteFileKind
	}
	return dataFileKind
}

type expiredFile struct {
	path string
	kind fileKind
}

// expiredFiles lists the files that the snapshots of before which after no
// longer holds reference, and that no snapshot of after references: their
// manifest lists, manifests, data and delete files, and statistics files.
// The result is sorted by path.
func expiredFiles(fsys icebergio.IO, before, after table.Metadata) ([]expiredFile, error) {
	seen, err := catalog.ReferencedFiles(fsys, after)
	if err != nil {
		return nil, err
	}
	var files []expiredFile
	add := func(path string, kind fileKind) {
		if path != "" && !seen[path] {
			seen[path] = true
			files = append(files, expiredFile{path, kind})
		}
	}
	expired := map[int64]bool{}
	for _, snap := range before.Snapshots() {
		if after.SnapshotByID(snap.SnapshotID) != nil {
			continue
		}
		expired[snap.SnapshotID] = true
		add(snap.ManifestList, manifestListKind)
		manifests, err := snap.Manifests(fsys)
		if err != nil {
			return nil, fmt.Errorf("read manifest list of snapshot %d: %w", snap.SnapshotID, err)
		}
		for _, m := range manifests {
			// A manifest still referenced keeps its live files; the ones it
			// marks deleted are found through the manifest that added them.
			if seen[m.FilePath()] {
				continue
			}
			add(m.FilePath(), manifestFileKind)
			for entry, err := range m.Entries(fsys, false) {
				if err != nil {
					return nil, fmt.Errorf("read manifest %s: %w", m.FilePath(), err)
				}
				add(entry.DataFile().FilePath(), contentKind(entry.DataFile().ContentType()))
			}
		}
	}
	for sf := range before.Statistics() {
		if expired[sf.SnapshotID] {
			add(sf.StatisticsPath, statisticsFileKind)
		}
	}
	for sf := range before.PartitionStatistics() {
		if expired[sf.SnapshotID] {
			add(sf.StatisticsPath, statisticsFileKind)
		}
	}
	slices.SortFunc(files, func(a, b expiredFile) int { return strings.Compare(a.path, b.path) })
	return files, nil
}

// deleteFiles removes files: the objects of the table's folder in batch
// requests (1,000 keys per S3 DeleteObjects, as remove_orphan_files and
// DROP … PURGE), the others with up to workers deletions at a time. A file
// already gone counts as deleted: a concurrent cleanup got there first. One
// that is not the table's own (a symlink, or outside its folder) is left.
func deleteFiles(ctx context.Context, fsys listableIO, paths []string, workers int) error {
	batched, rest := fsys.splitObjects(paths)
	if _, err := batched.delete(ctx); err != nil {
		return fmt.Errorf("deleting objects failed: %w", err)
	}
	g, ctx := errgroup.WithContext(ctx)
	g.SetLimit(workers)
	for _, p := range rest {
		g.Go(func() error {
			if err := ctx.Err(); err != nil {
				return err
			}
			if err := fsys.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, storage.ErrUnsafeDelete) {
				return fmt.Errorf("deleting %s failed: %w", p, err)
			}
			return nil
		})
	}
	return g.Wait()
}

// expiryColumns are expire_snapshots' result columns, one per file kind.
var expiryColumns = [fileKinds]string{
	"deleted_data_files_count",
	"deleted_position_delete_files_count",
	"deleted_equality_delete_files_count",
	"deleted_manifest_files_count",
	"deleted_manifest_lists_count",
	"deleted_statistics_files_count",
}

// countByKind counts files per kind, in expiryColumns order.
func countByKind(files []expiredFile) [fileKinds]int64 {
	var counts [fileKinds]int64
	for _, f := range files {
		counts[f.kind]++
	}
	return counts
}

func expiryCounts(files []expiredFile) *engine.Result {
	counts := countByKind(files)
	cells := make([]*int64, fileKinds)
	for i := range counts {
		cells[i] = &counts[i]
	}
	return bigintRow(expiryColumns[:], cells...)
}

const (
	dataFileKind fileKind = iota
	positionDeleteFileKind
	equalityDeleteFileKind
	manifestFileKind
	manifestListKind
	statisticsFileKind
	fileKinds // the number of kinds
)
