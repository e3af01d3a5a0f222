package catalog

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/apache/iceberg-go/table"

	"github.com/lakesql/lakesql/storage"
)

// SetNotices sets where the warehouse reports what it did on its own, such
// as reading a copied table from its new folder; nil reports nothing.
func (w *Warehouse) SetNotices(out io.Writer) { w.notices = out }

// relocate maps the recorded location of a table of a warehouse folder that
// was copied or moved (cp -r wh wh2) to the table's folder here, for this
// session. Without it the copy's tables read and write the files of the
// original, whose folders their metadata still names: a write through the
// copy would change the original warehouse.
//
// A table is taken as relocated when its recorded location is not its
// folder, no remap (a registered table's) covers that location, and its
// folder holds the table's own files: the manifest list of its current
// (or latest) snapshot at the same place relative to the folder, or, for a table
// without snapshots, its metadata alone. A table registered in place keeps
// its files at the recorded location and its folder holds none of them, so
// it is read from there as before.
func (w *Warehouse) relocate(tbl *table.Table) {
	if w.managed || w.object || len(tbl.Identifier()) != 2 {
		return
	}
	location := strings.TrimRight(tbl.Location(), "/")
	if location == "" || w.relocated[location] {
		return
	}
	folder := w.Path(tbl.Identifier()...)
	if sameFolder(storage.LocalPath(w.fs.Resolve(location)), folder) {
		return
	}
	snap := tbl.CurrentSnapshot()
	if snaps := tbl.Metadata().Snapshots(); snap == nil && len(snaps) > 0 {
		snap = &snaps[len(snaps)-1]
	}
	if snap != nil {
		rest, under := strings.CutPrefix(snap.ManifestList, location+"/")
		if !under {
			return
		}
		if info, err := os.Stat(filepath.Join(folder, filepath.FromSlash(rest))); err != nil || !info.Mode().IsRegular() {
			return
		}
	}
	m := storage.Remap{From: location, To: folder}
	w.fs.Remaps = append(slices.Clone(w.fs.Remaps), m)
	if w.relocated == nil {
		w.relocated = map[string]bool{}
	}
	w.relocated[location] = true
	if w.notices != nil {
		fmt.Fprintf(w.notices, "Notice: table %s records location %s, but its files are in %s (was the warehouse copied or moved?); reading and writing them there\n",
			strings.Join(tbl.Identifier(), "."), location, folder)
	}
}

// sameFolder reports whether two local paths name one existing folder
// (through symlinks, say).
func sameFolder(a, b string) bool {
	if a == b {
		return true
	}
	ia, err1 := os.Stat(a)
	ib, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(ia, ib)
}
