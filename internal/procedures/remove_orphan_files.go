package procedures

// remove_orphan_files: files under a table's location that no metadata of the
// table references — left by failed writes, or by an expiry whose deletions
// failed. iceberg-go finds them; lakesql decides what may be scanned.

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"time"

	icebergio "github.com/apache/iceberg-go/io"
	"github.com/apache/iceberg-go/table"

	"github.com/lakesql/lakesql/internal/engine"
	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/storage"
)

// orphanMinAge is remove_orphan_files' default older_than, before now: a file
// younger than that may belong to a write that has not committed yet.
const orphanMinAge = 3 * 24 * time.Hour

// removeOrphanFiles is CALL system.remove_orphan_files(table, older_than,
// location, dry_run): one row per orphan file, deleted unless dry_run.
func removeOrphanFiles(ctx context.Context, s *engine.Session, args map[string]*planner.Literal) (*engine.Result, error) {
	tbl, name, err := procedureTable(ctx, s, args)
	if err != nil {
		return nil, err
	}
	olderThan, ok, err := timeArg(ctx, args, "older_than")
	if err != nil {
		return nil, err
	}
	if !ok {
		olderThan = time.Now().Add(-orphanMinAge)
	}
	location := ""
	if _, given := args["location"]; given {
		if location, err = stringArg(args, "location"); err != nil {
			return nil, err
		}
	}
	dryRun, err := boolArg(ctx, args, "dry_run")
	if err != nil {
		return nil, err
	}
	orphans, err := orphanFiles(ctx, s, tbl, name, olderThan, location, dryRun)
	if err != nil {
		return nil, err
	}
	rows := make([][]string, len(orphans))
	for i, p := range orphans {
		rows[i] = []string{p}
	}
	return engine.TextRows([]string{"orphan_file_location"}, rows), nil
}

// orphanFiles lists, and unless dryRun deletes, the files under location (the
// table's location when empty) last modified before olderThan that the table
// does not reference: iceberg-go counts as referenced every snapshot's
// manifest list, manifests and live files, the current metadata file and
// those in its metadata log, the version hint, and statistics files. Only
// regular files inside the table's own folder are listed and deleted:
// symlinks are neither followed nor deleted.
func orphanFiles(ctx context.Context, s *engine.Session, tbl *table.Table, name string, olderThan time.Time, location string, dryRun bool) ([]string, error) {
	if err := checkRetention(s, "remove_orphan_files", olderThan); err != nil {
		return nil, err
	}
	fsys, err := ownFiles(s, tbl, name)
	if err != nil {
		return nil, err
	}
	if location != "" && !storage.Within(location, tbl.Location()) {
		return nil, fmt.Errorf("remove orphan files of %s: location %s is not inside the table's location %s", name, location, tbl.Location())
	}
	listable := table.New(tbl.Identifier(), tbl.Metadata(), tbl.MetadataLocation(),
		func(context.Context) (icebergio.IO, error) { return fsys, nil }, s.Warehouse().Catalog())
	res, err := listable.DeleteOrphanFiles(ctx,
		table.WithFilesOlderThan(ageOf(olderThan)), table.WithLocation(location), table.WithDryRun(dryRun))
	if err != nil {
		return nil, fmt.Errorf("remove orphan files of %s: %w", name, err)
	}
	orphans := res.OrphanFileLocations
	slices.Sort(orphans)
	return orphans, nil
}

// orphanMinRetention is the youngest older_than orphan removal accepts (as
// Spark's and Delta's safety check): a younger file may belong to a write
// that has not committed yet, and deleting it would leave that commit
// pointing at a missing file.
const orphanMinRetention = time.Hour

// checkRetention refuses a cutoff later than now − orphanMinRetention
// unless the session turned the check off.
func checkRetention(s *engine.Session, what string, olderThan time.Time) error {
	if !s.RetentionCheck() || time.Since(olderThan) >= orphanMinRetention {
		return nil
	}
	return fmt.Errorf("%s: older_than %s is less than %s ago, and files that young may belong to a write in flight; "+
		"SET vacuum_retention_check = false to allow it", what, olderThan.UTC().Format(time.RFC3339), orphanMinRetention)
}

// ownFiles is the file system of the table's own folder in the warehouse,
// the only place orphan files are looked for and deleted. A table whose
// metadata lies outside its location was registered from elsewhere and
// shares its files with the table there, whose metadata still needs them —
// and which its copy does not reference, so they would look orphaned. A
// table folder that resolves outside the warehouse is not its to clean.
func ownFiles(s *engine.Session, tbl *table.Table, name string) (listableIO, error) {
	fsys := s.Warehouse().FS()
	location := fsys.Resolve(tbl.Location())
	if !storage.Within(fsys.Resolve(tbl.MetadataLocation()), location) {
		return listableIO{}, fmt.Errorf("table %s was registered from %s and shares its files with the table there: lakesql does not delete them", name, tbl.Location())
	}
	folder := storage.LocalPath(location)
	if storage.IsObjectLocation(location) {
		folder = strings.TrimRight(location, "/")
	}
	own, ok := s.Warehouse().OwnFolder(folder)
	if !ok {
		return listableIO{}, fmt.Errorf("table %s: its folder %s is a symlink or lies outside the warehouse: lakesql does not delete files there", name, folder)
	}
	return listableIO{RemapIO: fsys, folder: folder, own: own}, nil
}

// listableIO adds the directory listing orphan cleanup needs to the warehouse
// file system, confined to the table's own folder: listing starts only
// inside folder (as the table's location writes it), does not follow
// symlinks (a root written with a trailing slash is cleaned first, since
// the walk would follow a symlink named so) and skips them, and only
// regular files inside own (folder's real path) are deleted.
type listableIO struct {
	*storage.RemapIO
	folder, own string
}

func (l listableIO) WalkDir(root string, fn fs.WalkDirFunc) error {
	if storage.IsObjectLocation(root) {
		// Object stores have no symlinks; the listing is of a key prefix.
		if !storage.Within(root, l.folder) {
			return fmt.Errorf("%w: %s is not inside the table folder %s", storage.ErrUnsafeDelete, root, l.folder)
		}
		fsys, err := l.FileSystem(root)
		if err != nil {
			return err
		}
		objects, ok := fsys.(*storage.ObjectIO)
		if !ok {
			return fmt.Errorf("remove orphan files: %s cannot be listed", root)
		}
		// The objects, without the folder markers a walk of the bucket
		// would report as files.
		entries, err := objects.List(root)
		if err != nil {
			return fn(root, nil, err)
		}
		for _, e := range entries {
			if err := fn(e.Location, e, nil); errors.Is(err, fs.SkipAll) || errors.Is(err, fs.SkipDir) {
				return nil
			} else if err != nil {
				return err
			}
		}
		return nil
	}
	root = storage.LocalPath(root)
	if !storage.Within(root, l.folder) {
		return fmt.Errorf("%w: %s is not inside the table folder %s", storage.ErrUnsafeDelete, root, l.folder)
	}
	return filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err == nil && d.Type()&fs.ModeSymlink != 0 {
			return nil
		}
		return fn(path, d, err)
	})
}

func (l listableIO) Remove(name string) error {
	if path := l.Resolve(name); storage.IsObjectLocation(path) {
		if !storage.Within(path, l.own) {
			return fmt.Errorf("%w %s: it is not inside %s", storage.ErrUnsafeDelete, path, l.own)
		}
		return l.RemapIO.Remove(name)
	}
	if err := storage.CheckRemovable(l.own, storage.LocalPath(l.Resolve(name))); err != nil {
		return err
	}
	return l.RemapIO.Remove(name)
}

// DeleteFiles removes files as Remove does, those of a bucket with one
// request per 1,000 (storage.ObjectIO.DeleteFiles): iceberg-go's orphan
// cleanup uses it when it is there (io.BulkRemovableIO). It returns the
// names deleted and the failures joined.
func (l listableIO) DeleteFiles(ctx context.Context, names []string) ([]string, error) {
	batched, rest := l.splitObjects(names)
	deleted, err := batched.delete(ctx)
	errs := []error{err}
	for _, name := range rest {
		// Remove says why, or deletes a local file; one already gone
		// counts as deleted, as BulkRemovableIO asks.
		if err := l.Remove(name); err != nil && !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, err)
		} else {
			deleted = append(deleted, name)
		}
	}
	return deleted, errors.Join(errs...)
}

// objectBatches are files of the table's own folder in buckets, to delete
// with batch requests: their resolved paths by bucket, and the name each
// path was given as.
type objectBatches struct {
	paths map[*storage.ObjectIO][]string
	named map[string]string // resolved path → name
}

// splitObjects sorts names into the objects of the table's own folder,
// which can go in batches, and the rest: local files and anything outside
// the folder, which Remove deletes or refuses one at a time.
func (l listableIO) splitObjects(names []string) (objectBatches, []string) {
	b := objectBatches{paths: map[*storage.ObjectIO][]string{}, named: map[string]string{}}
	var rest []string
	for _, name := range names {
		path := l.Resolve(name)
		fsys, err := l.FileSystem(path)
		objects, ok := fsys.(*storage.ObjectIO)
		if err != nil || !ok || !storage.Within(path, l.own) {
			rest = append(rest, name)
			continue
		}
		b.paths[objects] = append(b.paths[objects], path)
		b.named[path] = name
	}
	return b, rest
}

// delete deletes the objects, bucket by bucket, and returns the names
// deleted, with the failures joined.
func (b objectBatches) delete(ctx context.Context) ([]string, error) {
	var deleted []string
	var errs []error
	for objects, paths := range b.paths {
		done, err := objects.DeleteFiles(ctx, paths)
		for _, path := range done {
			deleted = append(deleted, b.named[path])
		}
		errs = append(errs, err)
	}
	return deleted, errors.Join(errs...)
}

var _ icebergio.BulkRemovableIO = listableIO{}
