package storage

import (
	"fmt"
	"os"
	"strings"

	icebergio "github.com/apache/iceberg-go/io"
)

// Remap maps a location prefix recorded in table metadata (for example
// s3a://warehouse/sales) to where the files are now (a local folder). Tables
// copied from object storage to a laptop, and the fixtures written by Trino and
// Spark, record locations that no longer exist as written.
type Remap struct {
	From, To string
}

// Covers reports whether m remaps name: name is m.From or lies below it, a
// whole path segment at a time (s3a://wh/sales covers s3a://wh/sales/x, not
// s3a://wh/sales_eu/x), so one table's remap never captures another's files.
func (m Remap) Covers(name string) bool {
	rest, ok := strings.CutPrefix(name, m.From)
	return ok && (rest == "" || strings.HasSuffix(m.From, "/") || strings.HasPrefix(rest, "/"))
}

// ParseRemap parses "FROM=TO".
func ParseRemap(s string) (Remap, error) {
	from, to, ok := strings.Cut(s, "=")
	if !ok || from == "" || to == "" {
		return Remap{}, fmt.Errorf("location remap %q: want FROM=TO, e.g. s3a://warehouse/=/data/warehouse/", s)
	}
	return Remap{From: from, To: to}, nil
}

// RemapIO is the file system all table files are read and written through: the
// local file system, with remapped location prefixes. Longer prefixes win.
type RemapIO struct {
	Remaps []Remap
	// Root is the real path of the warehouse folder: Remove deletes only
	// regular files inside it, whatever a caller asks.
	Root  string
	local icebergio.LocalFS
}

var _ icebergio.WriteFileIO = (*RemapIO)(nil)

// Resolve returns the path name is read from after remapping.
func (r *RemapIO) Resolve(name string) string {
	best := -1
	for i, m := range r.Remaps {
		if m.Covers(name) && (best < 0 || len(m.From) > len(r.Remaps[best].From)) {
			best = i
		}
	}
	if best < 0 {
		return name
	}
	m := r.Remaps[best]
	return joinRemapped(m.To, name[len(m.From):])
}

// joinRemapped joins a remap target and the rest of a path without doubling or
// dropping the separator between them.
func joinRemapped(to, rest string) string {
	if rest == "" {
		return to
	}
	return strings.TrimRight(to, "/") + "/" + strings.TrimLeft(rest, "/")
}

// Open opens a file for reading.
func (r *RemapIO) Open(name string) (icebergio.File, error) { return r.local.Open(r.Resolve(name)) }

// Remove deletes a file: only a regular file inside the warehouse folder,
// never a symlink or what one points at (CheckRemovable).
func (r *RemapIO) Remove(name string) error {
	path := LocalPath(r.Resolve(name))
	if err := CheckRemovable(r.Root, path); err != nil {
		return err
	}
	return os.Remove(path)
}

// Create creates a file for writing, with its parent folders.
func (r *RemapIO) Create(name string) (icebergio.FileWriter, error) {
	return r.local.Create(r.Resolve(name))
}

// WriteFile writes a whole file.
func (r *RemapIO) WriteFile(name string, p []byte) error {
	return r.local.WriteFile(r.Resolve(name), p)
}
