package catalog

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	icebergio "github.com/apache/iceberg-go/io"
	"github.com/apache/iceberg-go/table"

	"github.com/lakesql/lakesql/storage"
)

// Dropped says what DROP TABLE did with a table's files.
type Dropped struct {
	// Folder is the table's folder in the warehouse.
	Folder string
	// Deleted counts the files PURGE deleted.
	Deleted int
	// Kept counts the files PURGE left: those outside the table's own
	// folder (a registered table's files, which belong to the table it was
	// registered from) and symlinks, which are never followed or deleted.
	Kept int
	// NotOwned says PURGE deleted nothing because the table's folder is a
	// symlink or lies outside the warehouse.
	NotOwned bool
	// ByServer says a REST catalog server was asked to purge the files.
	ByServer bool
}

// DropTable drops ns.name from the catalog. Without purge the table's files
// stay where they are, as in Spark and Trino: only the metadata files that
// make the folder a table are renamed (*.dropped), so that
// register_table can bring it back. With purge, the files the table's
// metadata references and the rest of its folder are deleted — only
// regular files inside the table's own folder in this warehouse.
//
// A table whose metadata cannot be loaded (left half-registered by an older
// lakesql) is dropped too: without PURGE as any other; with PURGE only its
// own folder's files go, since which other files it references is unknown.
func (w *Warehouse) DropTable(ctx context.Context, ns, name string, purge bool) (Dropped, error) {
	folder := w.Path(ns, name)
	d := Dropped{Folder: folder}
	tbl, err := w.LoadTable(ctx, ns, name)
	var refs map[string]bool
	switch {
	case errors.Is(err, ErrNoSuchTable) || errors.Is(err, ErrNoSuchNamespace):
		return Dropped{}, err
	case err != nil:
		if exists, _ := w.TableExists(ctx, ns, name); !exists {
			return Dropped{}, err
		}
	case purge:
		if refs, err = ReferencedFiles(w.fs, tbl.Metadata()); err != nil {
			return d, fmt.Errorf("drop table %s.%s: %w", ns, name, err)
		}
		refs[tbl.MetadataLocation()] = true
		for entry := range tbl.Metadata().PreviousFiles() {
			refs[entry.MetadataFile] = true
		}
	}
	if w.managed {
		return w.dropManaged(ctx, ns, name, tbl, refs, purge)
	}
	location := recordedLocation(folder)
	own, ok := w.OwnFolder(folder)
	d.NotOwned = purge && !ok
	if !purge || !ok {
		// A table folder that is a symlink, or lies outside the warehouse,
		// is not the warehouse's to delete.
		retire := w.retireMetadata
		if w.object {
			retire = w.retireObjectMetadata
		}
		if err := retire(folder); err != nil {
			return d, err
		}
		return d, w.dropRemaps(ns, name, location)
	}
	if w.object {
		if err := w.purgeObjects(own, refs, &d); err != nil {
			return d, fmt.Errorf("drop table %s.%s: %w", ns, name, err)
		}
		return d, w.dropRemaps(ns, name, location)
	}
	for ref := range refs {
		w.removeOwnFile(own, storage.LocalPath(w.fs.Resolve(ref)), &d)
	}
	if err := w.removeFolder(own, folder, &d); err != nil {
		return d, fmt.Errorf("drop table %s.%s: %w", ns, name, err)
	}
	return d, w.dropRemaps(ns, name, location)
}

// recordedLocation is the location the metadata files in a table folder
// record, read without loading them (they may not load); "" if none says.
func recordedLocation(folder string) string {
	files, _ := filepath.Glob(filepath.Join(folder, "metadata", "*.metadata.json"))
	for _, f := range slices.Backward(files) {
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		var meta struct {
			Location string `json:"location"`
		}
		if json.Unmarshal(data, &meta) == nil && meta.Location != "" {
			return meta.Location
		}
	}
	return ""
}

// OwnFolder returns the real path of a table folder when the warehouse may
// delete in it: it is a real folder (not a symlink) inside the warehouse.
// On object storage it is the folder's location.
func (w *Warehouse) OwnFolder(folder string) (string, bool) {
	if w.object {
		// Object stores have no symlinks: a prefix is the warehouse's when
		// it lies below the warehouse's.
		return folder, storage.Within(folder, w.dir)
	}
	info, err := os.Lstat(folder)
	if err != nil || !info.IsDir() {
		return "", false
	}
	real, err := filepath.EvalSymlinks(folder)
	if err != nil || !storage.Within(real, w.fs.Root) {
		return "", false
	}
	return real, true
}

// removeOwnFile deletes path if it is a regular file inside own, counting
// what it deleted and kept; a file already gone counts as neither.
func (w *Warehouse) removeOwnFile(own, path string, d *Dropped) {
	err := storage.CheckRemovable(own, path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		d.Kept++
	case os.Remove(path) == nil:
		d.Deleted++
	}
}

// removeFolder deletes what is left in a table folder, bottom up, without
// following symlinks: regular files go, symlinks stay (and so do the
// folders holding them).
func (w *Warehouse) removeFolder(own, folder string, d *Dropped) error {
	var dirs []string
	err := filepath.WalkDir(folder, func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		switch {
		case e.IsDir():
			dirs = append(dirs, path)
		case e.Type()&fs.ModeSymlink != 0:
			d.Kept++
		default:
			w.removeOwnFile(own, path, d)
		}
		return nil
	})
	if err != nil {
		return err
	}
	slices.Reverse(dirs)
	for _, dir := range dirs {
		_ = os.Remove(dir) // only empty folders go
	}
	return nil
}

// retireMetadata renames the metadata files that make folder a table
// (vN.metadata.json and the version hint), and a registered table's remap
// file, to *.dropped: the catalog no longer sees a table there, and nothing
// is lost.
func (w *Warehouse) retireMetadata(folder string) error {
	meta := filepath.Join(folder, "metadata")
	entries, err := os.ReadDir(meta)
	if err != nil {
		return fmt.Errorf("drop table in %s: %w", folder, err)
	}
	for _, e := range entries {
		name := e.Name()
		if !e.Type().IsRegular() || (name != "version-hint.text" && !strings.HasSuffix(name, ".metadata.json")) {
			continue
		}
		if err := os.Rename(filepath.Join(meta, name), filepath.Join(meta, name+".dropped")); err != nil {
			return fmt.Errorf("drop table in %s: %w", folder, err)
		}
	}
	remaps := filepath.Join(folder, tableRemapFile)
	if err := os.Rename(remaps, remaps+".dropped"); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("drop table in %s: %w", folder, err)
	}
	return nil
}

// ReferencedFiles is the set of files the snapshots of meta need: manifest
// lists, manifests, the live data and delete files, and statistics files.
// Each manifest is read once however many snapshots share it.
func ReferencedFiles(fsys icebergio.IO, meta table.Metadata) (map[string]bool, error) {
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
