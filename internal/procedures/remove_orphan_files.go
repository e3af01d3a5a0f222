package procedures

// remove_orphan_files: files under a table's location that no metadata of the
// table references — left by failed writes, or by an expiry whose deletions
// failed. iceberg-go finds them; lakesql decides what may be scanned.

import (
	"context"
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
// those in its metadata log, the version hint, and statistics files.
func orphanFiles(ctx context.Context, s *engine.Session, tbl *table.Table, name string, olderThan time.Time, location string, dryRun bool) ([]string, error) {
	if err := checkOwnsLocation(s, tbl, name); err != nil {
		return nil, err
	}
	if location != "" && !within(location, tbl.Location()) {
		return nil, fmt.Errorf("remove orphan files of %s: location %s is not inside the table's location %s", name, location, tbl.Location())
	}
	listable := table.New(tbl.Identifier(), tbl.Metadata(), tbl.MetadataLocation(),
		func(context.Context) (icebergio.IO, error) { return listableIO{s.Warehouse().FS()}, nil }, s.Warehouse().Catalog())
	res, err := listable.DeleteOrphanFiles(ctx,
		table.WithFilesOlderThan(ageOf(olderThan)), table.WithLocation(location), table.WithDryRun(dryRun))
	if err != nil {
		return nil, fmt.Errorf("remove orphan files of %s: %w", name, err)
	}
	orphans := res.OrphanFileLocations
	slices.Sort(orphans)
	return orphans, nil
}

// checkOwnsLocation refuses to delete files of a table whose current metadata
// file lies outside its location: register_table copies a table's metadata
// into the warehouse and leaves its files where they were, shared with the
// original table, whose metadata still needs them — and which its copy does
// not reference, so they would look orphaned.
func checkOwnsLocation(s *engine.Session, tbl *table.Table, name string) error {
	if !within(s.Warehouse().FS().Resolve(tbl.MetadataLocation()), s.Warehouse().FS().Resolve(tbl.Location())) {
		return fmt.Errorf("table %s was registered from %s and shares its files with the table there: lakesql does not delete them", name, tbl.Location())
	}
	return nil
}

// within reports whether path is dir or lies below it.
func within(path, dir string) bool {
	path, dir = localName(path), strings.TrimRight(localName(dir), "/")
	return path == dir || strings.HasPrefix(path, dir+"/")
}

// localName spells a local file:// location as a path.
func localName(p string) string {
	if rest, ok := strings.CutPrefix(p, "file://"); ok {
		return filepath.Clean(rest)
	}
	return filepath.Clean(p)
}

// listableIO adds the directory listing orphan cleanup needs to the warehouse
// file system. It lists local paths as written: a remapped location is not
// listed (its files would come back under other names and all look orphaned),
// and checkOwnsLocation keeps such tables away from it.
type listableIO struct{ *storage.RemapIO }

func (listableIO) WalkDir(root string, fn fs.WalkDirFunc) error {
	return icebergio.LocalFS{}.WalkDir(root, fn)
}

var _ icebergio.ListableIO = listableIO{}
