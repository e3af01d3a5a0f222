package procedures

// The snapshot procedures, with the arguments and result columns of Spark's
// Iceberg procedures: expire_snapshots, rollback_to_snapshot,
// rollback_to_timestamp and set_current_snapshot. Each one changes the table
// in a single catalog commit, so it lands whole or not at all.

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/iceberg-go"
	icebergio "github.com/apache/iceberg-go/io"
	"github.com/apache/iceberg-go/table"
	"golang.org/x/sync/errgroup"

	"github.com/lakesql/lakesql/internal/engine"
	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/sql"
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
	if err := checkOwnsLocation(s, tbl, name); err != nil {
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
	return &expiry{name: name, tbl: tbl, commit: commit, after: after}, nil
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
func (e *expiry) apply(ctx context.Context, s *engine.Session, workers int) ([]expiredFile, error) {
	if len(e.commit.Updates) == 0 {
		return nil, nil
	}
	after, _, err := s.Warehouse().Catalog().CommitTable(ctx, e.tbl.Identifier(), e.commit.Requirements, e.commit.Updates)
	if err != nil {
		return nil, fmt.Errorf("expire snapshots of %s: %w", e.name, err)
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
	if err := deleteFiles(ctx, s.Warehouse().FS(), paths, workers); err != nil {
		return nil, fmt.Errorf("expire snapshots of %s: snapshots expired, but %w", e.name, err)
	}
	return files, nil
}

// fileKind classifies the files an expiry deletes, for its counts.
type fileKind int

const (
	dataFileKind fileKind = iota
	positionDeleteFileKind
	equalityDeleteFileKind
	manifestFileKind
	manifestListKind
	statisticsFileKind
	fileKinds // the number of kinds
)

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
	seen, err := referencedFiles(fsys, after)
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

// referencedFiles is the set of files the snapshots of meta need: manifest
// lists, manifests, the live data and delete files, and statistics files.
// Each manifest is read once however many snapshots share it.
func referencedFiles(fsys icebergio.IO, meta table.Metadata) (map[string]bool, error) {
	refs := map[string]bool{}
	for _, snap := range meta.Snapshots() {
		refs[snap.ManifestList] = true
		manifests, err := snap.Manifests(fsys)
		if err != nil {
			return nil, fmt.Errorf("read manifest list of snapshot %d: %w", snap.SnapshotID, err)
		}
		for _, m := range manifests {
			if refs[m.FilePath()] {
				continue
			}
			refs[m.FilePath()] = true
			for entry, err := range m.Entries(fsys, true) {
				if err != nil {
					return nil, fmt.Errorf("read manifest %s: %w", m.FilePath(), err)
				}
				refs[entry.DataFile().FilePath()] = true
			}
		}
	}
	for sf := range meta.Statistics() {
		refs[sf.StatisticsPath] = true
	}
	for sf := range meta.PartitionStatistics() {
		refs[sf.StatisticsPath] = true
	}
	return refs, nil
}

// deleteFiles removes files with up to workers deletions at a time. A file
// already gone counts as deleted: a concurrent cleanup got there first.
func deleteFiles(ctx context.Context, fsys icebergio.IO, paths []string, workers int) error {
	g, ctx := errgroup.WithContext(ctx)
	g.SetLimit(workers)
	for _, p := range paths {
		g.Go(func() error {
			if err := ctx.Err(); err != nil {
				return err
			}
			if err := fsys.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
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

// rollbackToSnapshot is CALL system.rollback_to_snapshot(table, snapshot_id).
func rollbackToSnapshot(ctx context.Context, s *engine.Session, args map[string]*planner.Literal) (*engine.Result, error) {
	tbl, name, err := procedureTable(ctx, s, args)
	if err != nil {
		return nil, err
	}
	id, err := requiredInt64Arg(ctx, args, "snapshot_id")
	if err != nil {
		return nil, err
	}
	return rollback(ctx, s, tbl, name, id)
}

// rollbackToTimestamp is CALL system.rollback_to_timestamp(table, timestamp):
// back to the latest ancestor of the current snapshot committed before then.
func rollbackToTimestamp(ctx context.Context, s *engine.Session, args map[string]*planner.Literal) (*engine.Result, error) {
	tbl, name, err := procedureTable(ctx, s, args)
	if err != nil {
		return nil, err
	}
	at, ok, err := timeArg(ctx, args, "timestamp")
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, errors.New("argument timestamp is required")
	}
	cur := tbl.CurrentSnapshot()
	if cur == nil {
		return nil, fmt.Errorf("table %s has no snapshots to roll back to", name)
	}
	for _, snap := range table.AncestorsOf(cur.SnapshotID, tbl.Metadata().SnapshotByID) {
		if time.UnixMilli(snap.TimestampMs).Before(at) {
			return rollback(ctx, s, tbl, name, snap.SnapshotID)
		}
	}
	return nil, fmt.Errorf("no ancestor of the current snapshot of %s was committed before %s", name, at.UTC().Format("2006-01-02 15:04:05.999999"))
}

// rollback makes snapshot id, an ancestor of the current one, current again.
func rollback(ctx context.Context, s *engine.Session, tbl *table.Table, name string, id int64) (*engine.Result, error) {
	cur := tbl.CurrentSnapshot()
	if cur == nil {
		return nil, fmt.Errorf("table %s has no snapshots to roll back to", name)
	}
	if tbl.SnapshotByID(id) == nil {
		return nil, unknownSnapshot(tbl.Metadata(), name, id)
	}
	if !table.IsAncestorOf(cur.SnapshotID, id, tbl.Metadata().SnapshotByID) {
		return nil, fmt.Errorf("snapshot %d is not an ancestor of the current snapshot %d of %s (set_current_snapshot moves to any snapshot)", id, cur.SnapshotID, name)
	}
	tx := tbl.NewTransaction()
	if err := tx.RollbackToSnapshot(id); err != nil {
		return nil, fmt.Errorf("roll back %s: %w", name, err)
	}
	if _, err := tx.Commit(ctx); err != nil {
		return nil, fmt.Errorf("roll back %s: %w", name, err)
	}
	return bigintRow(snapshotChangeColumns, &cur.SnapshotID, &id), nil
}

var snapshotChangeColumns = []string{"previous_snapshot_id", "current_snapshot_id"}

// setCurrentSnapshot is CALL system.set_current_snapshot(table, snapshot_id,
// ref): any snapshot of the table, or the one a branch or tag points at,
// becomes current, whether or not it is an ancestor of the current one.
func setCurrentSnapshot(ctx context.Context, s *engine.Session, args map[string]*planner.Literal) (*engine.Result, error) {
	tbl, name, err := procedureTable(ctx, s, args)
	if err != nil {
		return nil, err
	}
	id, err := targetSnapshot(ctx, tbl, name, args)
	if err != nil {
		return nil, err
	}
	meta := tbl.Metadata()
	var prev *int64
	if cur := meta.CurrentSnapshot(); cur != nil {
		prev = &cur.SnapshotID
	}
	b, err := table.MetadataBuilderFromBase(meta, tbl.MetadataLocation())
	if err != nil {
		return nil, fmt.Errorf("set current snapshot of %s: %w", name, err)
	}
	// The main branch must still be where it was read: a concurrent commit
	// fails this one instead of being undone by it.
	reqs := []table.Requirement{table.AssertTableUUID(meta.TableUUID()), table.AssertRefSnapshotID(table.MainBranch, prev)}
	updates := []table.Update{b.NewRetainingSnapshotRefUpdate(table.MainBranch, id, table.BranchRef)}
	if _, _, err := s.Warehouse().Catalog().CommitTable(ctx, tbl.Identifier(), reqs, updates); err != nil {
		return nil, fmt.Errorf("set current snapshot of %s: %w", name, err)
	}
	return bigintRow(snapshotChangeColumns, prev, &id), nil
}

// targetSnapshot reads set_current_snapshot's snapshot_id or ref, exactly one
// of which is given.
func targetSnapshot(ctx context.Context, tbl *table.Table, name string, args map[string]*planner.Literal) (int64, error) {
	id, byID, err := int64Arg(ctx, args, "snapshot_id")
	if err != nil {
		return 0, err
	}
	_, byRef := args["ref"]
	switch {
	case byID == byRef:
		return 0, errors.New("set_current_snapshot needs exactly one of snapshot_id and ref")
	case byRef:
		ref, err := stringArg(args, "ref")
		if err != nil {
			return 0, err
		}
		snap := tbl.SnapshotByName(ref)
		if snap == nil {
			return 0, fmt.Errorf("table %s has no branch or tag %q (list them with SELECT name FROM %s.refs)", name, ref, name)
		}
		return snap.SnapshotID, nil
	}
	if tbl.SnapshotByID(id) == nil {
		return 0, unknownSnapshot(tbl.Metadata(), name, id)
	}
	return id, nil
}

func unknownSnapshot(meta table.Metadata, name string, id int64) error {
	return fmt.Errorf("table %s has no snapshot %d (it has %d; list them with SELECT snapshot_id, committed_at FROM %s.snapshots)", name, id, len(meta.Snapshots()), name)
}

// ---- procedure arguments and results ----

// procedureTable loads the table named by a procedure's table argument.
func procedureTable(ctx context.Context, s *engine.Session, args map[string]*planner.Literal) (*table.Table, string, error) {
	name, err := stringArg(args, "table")
	if err != nil {
		return nil, "", err
	}
	ns, t, err := s.TableName(sql.ObjectName{Parts: strings.Split(name, ".")})
	if err != nil {
		return nil, "", err
	}
	tbl, err := s.Warehouse().LoadTable(ctx, ns, t)
	if err != nil {
		return nil, "", err
	}
	return tbl, ns + "." + t, nil
}

// argValue converts an optional argument to type t, as a one-element array;
// ok is false when the argument was not given.
func argValue(ctx context.Context, args map[string]*planner.Literal, name string, t arrow.DataType) (v arrow.Array, ok bool, err error) {
	lit, given := args[name]
	if !given {
		return nil, false, nil
	}
	if _, isList := lit.Value.([]*planner.Literal); isList {
		return nil, false, fmt.Errorf("argument %s must be a %s, not an array", name, planner.TypeString(t))
	}
	v, err = engine.ConstantValue(ctx, "argument "+name, lit, t)
	return v, err == nil, err
}

func int64Arg(ctx context.Context, args map[string]*planner.Literal, name string) (int64, bool, error) {
	v, ok, err := argValue(ctx, args, name, planner.TypeBigint)
	if !ok {
		return 0, false, err
	}
	return v.(*array.Int64).Value(0), true, nil
}

func requiredInt64Arg(ctx context.Context, args map[string]*planner.Literal, name string) (int64, error) {
	v, ok, err := int64Arg(ctx, args, name)
	if err == nil && !ok {
		err = fmt.Errorf("argument %s is required", name)
	}
	return v, err
}

// positiveIntArg returns an optional count of at least 1, def when not given.
func positiveIntArg(ctx context.Context, args map[string]*planner.Literal, name string, def int) (int, error) {
	v, ok, err := int64Arg(ctx, args, name)
	if err != nil || !ok {
		return def, err
	}
	if v < 1 {
		return 0, fmt.Errorf("argument %s must be at least 1, got %d", name, v)
	}
	return int(v), nil
}

// boolArg returns an optional BOOLEAN argument, false when not given.
func boolArg(ctx context.Context, args map[string]*planner.Literal, name string) (bool, error) {
	v, ok, err := argValue(ctx, args, name, planner.TypeBoolean)
	if !ok {
		return false, err
	}
	return v.(*array.Boolean).Value(0), nil
}

// timeArg returns an optional point-in-time argument: a TIMESTAMP, or a
// string or DATE that casts to one.
func timeArg(ctx context.Context, args map[string]*planner.Literal, name string) (time.Time, bool, error) {
	v, ok, err := argValue(ctx, args, name, planner.TypeTimestampTZ)
	if !ok {
		return time.Time{}, false, err
	}
	return time.UnixMicro(int64(v.(*array.Timestamp).Value(0))), true, nil
}

// int64ListArg returns an optional array(…) of BIGINT values.
func int64ListArg(ctx context.Context, args map[string]*planner.Literal, name string) ([]int64, error) {
	lit, given := args[name]
	if !given {
		return nil, nil
	}
	elems, ok := lit.Value.([]*planner.Literal)
	if !ok {
		return nil, fmt.Errorf("argument %s must be an array, e.g. %s => array(1, 2)", name, name)
	}
	out := make([]int64, len(elems))
	for i, e := range elems {
		v, err := engine.ConstantValue(ctx, "argument "+name, e, planner.TypeBigint)
		if err != nil {
			return nil, err
		}
		out[i] = v.(*array.Int64).Value(0)
	}
	return out, nil
}

// bigintRow is a one-row result of BIGINT columns; a nil cell is NULL.
func bigintRow(names []string, cells ...*int64) *engine.Result {
	fields := make([]arrow.Field, len(names))
	for i, n := range names {
		fields[i] = arrow.Field{Name: n, Type: arrow.PrimitiveTypes.Int64, Nullable: true}
	}
	schema := arrow.NewSchema(fields, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	for i, c := range cells {
		col := b.Field(i).(*array.Int64Builder)
		if c == nil {
			col.AppendNull()
		} else {
			col.Append(*c)
		}
	}
	batch := b.NewRecordBatch()
	defer batch.Release()
	return engine.BatchResult(schema, batch)
}
