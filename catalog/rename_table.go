package catalog

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/apache/iceberg-go/table"

	"github.com/lakesql/lakesql/storage"
)

// ErrRenameUnsupported is the kind of error of a rename in a warehouse whose
// catalog finds tables by their folders on object storage, which cannot
// move a folder at once.
var ErrRenameUnsupported = fmt.Errorf("the warehouse's catalog cannot rename tables")

// RenameTable renames table ns.name to toNS.toName. SQL and REST catalogs
// keep a table's name apart from its files, so a rename changes only the
// catalog's entry. The filesystem catalog names a table by its folder; see
// renameFolder.
func (w *Warehouse) RenameTable(ctx context.Context, ns, name, toNS, toName string) error {
	if err := w.checkNewName(ctx, toNS, toName); err != nil {
		return err
	}
	if !w.managed {
		// Renaming back to the name a table had is moving home.
		if err := w.checkFolderFree(toNS, toName, ns+"."+name); err != nil {
			return err
		}
		if w.object {
			return ErrRenameUnsupported
		}
		return w.renameFolder(ctx, ns, name, toNS, toName)
	}
	if _, err := w.cat.RenameTable(ctx, table.Identifier{ns, name}, table.Identifier{toNS, toName}); err != nil {
		return fmt.Errorf("rename table %s.%s to %s.%s: %w", ns, name, toNS, toName, err)
	}
	return nil
}

// renameFolder renames a table of the filesystem catalog by moving its
// folder, which is atomic on one file system. Its metadata and manifests
// record absolute paths under the location it had, and rewriting them
// all (every manifest of every snapshot, and the position delete files,
// which name data files) is what Iceberg's Hadoop catalog refuses to do.
// Instead the moved table keeps a location remap, as a registered table
// does: from the location its metadata records to its new folder, so its
// files, old and new, are read and written where they now are.
func (w *Warehouse) renameFolder(ctx context.Context, ns, name, toNS, toName string) error {
	tbl, err := w.LoadTable(ctx, ns, name)
	if err != nil {
		return err
	}
	from, to := w.Path(ns, name), w.Path(toNS, toName)
	fail := func(err error) error {
		return fmt.Errorf("rename table %s.%s to %s.%s: %w", ns, name, toNS, toName, err)
	}
	if _, err := os.Lstat(to); err == nil {
		return fail(fmt.Errorf("folder %s already exists (left by a table dropped without PURGE?); move it away first", to))
	}
	// The remaps the table has (a registered one's) move with it; a
	// table at its own recorded location gets one.
	id := ns + "." + name
	var remaps []storage.Remap
	for _, t := range w.tableRemaps {
		if t.table == id {
			remaps = append(remaps, storage.Remap{From: t.remap.From, To: to})
		}
	}
	if len(remaps) == 0 {
		remaps = []storage.Remap{{From: strings.TrimRight(tbl.Metadata().Location(), "/"), To: to}}
	}
	// A table renamed back to its recorded location needs no remap.
	remaps = slices.DeleteFunc(remaps, func(m storage.Remap) bool { return !(registration{remap: m}).remapped() })
	if err := os.Rename(from, to); err != nil {
		return fail(err)
	}
	remapPath := filepath.Join(to, tableRemapFile)
	if len(remaps) == 0 {
		err = os.Remove(remapPath)
		if errors.Is(err, os.ErrNotExist) {
			err = nil
		}
	} else {
		err = writeFileAtomic(remapPath, []byte(remapFileText(remaps)))
	}
	if err != nil {
		return fail(errors.Join(err, os.Rename(to, from)))
	}
	if err := w.dropRemaps(ns, name, ""); err != nil {
		return err
	}
	for _, m := range remaps {
		w.addTableRemap(to, m)
	}
	return nil
}

// checkFolderFree checks that the folder a table ns.name would have in
// the filesystem catalog is not where a table other than except, renamed
// away from that name, still records its files: they are read and written
// through paths under it, so a new table there would have its files taken
// for the renamed one's.
func (w *Warehouse) checkFolderFree(ns, name, except string) error {
	if w.managed || w.object {
		return nil
	}
	folder := w.Path(ns, name)
	for _, t := range w.tableRemaps {
		recorded := storage.Remap{From: strings.TrimRight(storage.LocalPath(t.remap.From), "/")}
		if t.table != except && recorded.Covers(folder) {
			return Errorf(ErrTableExists, "table %s.%s cannot be created: table %s, renamed from it, still records its files under %s; choose another name", ns, name, t.table, folder)
		}
	}
	return nil
}
