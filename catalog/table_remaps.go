package catalog

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/lakesql/lakesql/storage"
)

// tableRemapFile, in the folder of a table register_table added from
// another location, records the location its metadata names and the folder
// it is read from ("FROM=TO").
// Kept with the table, the remap covers that table's location only, lives
// as long as the table, and tells a second registration of the same
// location that it is taken.
const tableRemapFile = "location-remap.txt"

// tableRemap is the remap of one registered table.
type tableRemap struct {
	table string // ns.name
	remap storage.Remap
}

// readTableRemaps reads the remaps of the registered tables of the
// warehouse in dir. A remap file in a folder that is no table (left by a
// registration that died half-way) is ignored.
func readTableRemaps(dir string, isTable func(ns, name string) bool) ([]tableRemap, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*", "*", tableRemapFile))
	if err != nil {
		return nil, err
	}
	var out []tableRemap
	for _, f := range files {
		folder := filepath.Dir(f)
		ns, name := filepath.Base(filepath.Dir(folder)), filepath.Base(folder)
		if !isTable(ns, name) {
			continue
		}
		remaps, err := readRemaps(f)
		if err != nil {
			return nil, err
		}
		for _, m := range remaps {
			out = append(out, tableRemap{table: ns + "." + name, remap: m})
		}
	}
	return out, nil
}

// remapFileText is the text of a remap file.
func remapFileText(remaps []storage.Remap) string {
	var b strings.Builder
	b.WriteString("# Location remaps recorded by register_table: FROM=TO, longest FROM wins.\n")
	for _, r := range remaps {
		fmt.Fprintf(&b, "%s=%s\n", r.From, r.To)
	}
	return b.String()
}

// locationConflict describes the registration a new table's location
// collides with: the same location, one holding it or one inside it,
// registered by a table or in the warehouse's shared remap file of older
// lakesql versions. Either way one table's remap would capture the other's
// files.
func (w *Warehouse) locationConflict(location string) (string, bool) {
	overlap := func(from string) bool {
		from = strings.TrimRight(from, "/")
		a, b := storage.Remap{From: from}, storage.Remap{From: location}
		return a.Covers(location) || b.Covers(from)
	}
	describe := func(from, owner string) string {
		if strings.TrimRight(from, "/") == location {
			return fmt.Sprintf("location %s is already registered, as %s", location, owner)
		}
		return fmt.Sprintf("location %s overlaps location %s, registered as %s", location, from, owner)
	}
	for _, t := range w.tableRemaps {
		if overlap(t.remap.From) {
			return describe(t.remap.From, t.table), true
		}
	}
	for _, r := range w.remaps {
		if overlap(r.From) {
			return describe(r.From, "the remap "+r.From+"="+r.To+" in "+filepath.Join(w.dir, remapFile)), true
		}
	}
	return "", false
}

// addTableRemap makes a newly registered table's remap effective.
func (w *Warehouse) addTableRemap(folder string, m storage.Remap) {
	ns, name := filepath.Base(filepath.Dir(folder)), filepath.Base(folder)
	w.tableRemaps = append(w.tableRemaps, tableRemap{table: ns + "." + name, remap: m})
	w.fs.Remaps = append(w.fs.Remaps, m)
}

// dropRemaps forgets the remaps of a dropped table: its own, and a line of
// the shared remap file of older lakesql versions for its location.
func (w *Warehouse) dropRemaps(ns, name, location string) error {
	id := ns + "." + name
	var gone []storage.Remap
	w.tableRemaps = slices.DeleteFunc(w.tableRemaps, func(t tableRemap) bool {
		if t.table == id {
			gone = append(gone, t.remap)
			return true
		}
		return false
	})
	if location = strings.TrimRight(location, "/"); location != "" {
		kept := slices.DeleteFunc(slices.Clone(w.remaps), func(r storage.Remap) bool {
			if strings.TrimRight(r.From, "/") == location {
				gone = append(gone, r)
				return true
			}
			return false
		})
		if len(kept) < len(w.remaps) {
			if err := writeFileAtomic(filepath.Join(w.dir, remapFile), []byte(remapFileText(kept))); err != nil {
				return fmt.Errorf("remove the location remap of %s: %w", id, err)
			}
			w.remaps = kept
		}
	}
	w.fs.Remaps = slices.DeleteFunc(w.fs.Remaps, func(r storage.Remap) bool { return slices.Contains(gone, r) })
	return nil
}

// writeFileAtomic replaces a file by writing a temporary one and renaming it.
func writeFileAtomic(path string, data []byte) error {
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}
