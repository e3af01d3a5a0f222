package storage

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"strings"
	"sync"

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

// RemapIO is the file system all table files are read and written through:
// local files, or objects on object storage (by the location's scheme),
// with remapped location prefixes. Longer prefixes win.
type RemapIO struct {
	Remaps []Remap
	// Root is the real path of the warehouse folder, or its location on
	// object storage: Remove deletes only files inside it, whatever a
	// caller asks.
	Root string
	// Props configure object storage (the Iceberg s3.* properties).
	Props map[string]string
	local icebergio.LocalFS

	mu      sync.Mutex
	objects map[string]icebergio.IO // by scheme://bucket
}

var _ icebergio.WriteFileIO = (*RemapIO)(nil)

// IsObjectLocation reports whether a location is on object storage (it has
// a scheme other than file://).
func IsObjectLocation(location string) bool {
	i := strings.Index(location, "://")
	return i > 0 && location[:i] != "file"
}

// FileSystem is the file system of a resolved location: the local one, or
// its bucket's (an *ObjectIO), opened on first use.
func (r *RemapIO) FileSystem(location string) (icebergio.IO, error) {
	if !IsObjectLocation(location) {
		return r.local, nil
	}
	u, err := url.Parse(location)
	if err != nil {
		return nil, fmt.Errorf("location %s: %w", location, err)
	}
	bucket := u.Scheme + "://" + objectAuthority(u)
	r.mu.Lock()
	defer r.mu.Unlock()
	if fsys, ok := r.objects[bucket]; ok {
		return fsys, nil
	}
	ctx := context.Background()
	fsys, err := icebergio.LoadFS(ctx, r.Props, location)
	if err := unlinkedScheme(bucket, u, err); err != nil {
		return nil, err
	}
	if err != nil {
		return nil, fmt.Errorf("open %s: %s", bucket, OneLine(err))
	}
	if r.objects == nil {
		r.objects = map[string]icebergio.IO{}
	}
	r.objects[bucket] = fsys
	return fsys, nil
}

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
func (r *RemapIO) Open(name string) (icebergio.File, error) {
	path := r.Resolve(name)
	fsys, err := r.FileSystem(path)
	if err != nil {
		return nil, err
	}
	return fsys.Open(path)
}

// Remove deletes a file: only a file inside the warehouse, and locally
// only a regular file, never a symlink or what one points at
// (CheckRemovable).
func (r *RemapIO) Remove(name string) error {
	path := r.Resolve(name)
	if IsObjectLocation(path) {
		if !Within(path, r.Root) {
			return fmt.Errorf("%w %s: it is not inside %s", ErrUnsafeDelete, path, r.Root)
		}
		fsys, err := r.FileSystem(path)
		if err != nil {
			return err
		}
		return fsys.Remove(path)
	}
	path = LocalPath(path)
	if err := CheckRemovable(r.Root, path); err != nil {
		return err
	}
	return os.Remove(path)
}

// Create creates a file for writing, with its parent folders.
func (r *RemapIO) Create(name string) (icebergio.FileWriter, error) {
	path := r.Resolve(name)
	fsys, err := r.FileSystem(path)
	if err != nil {
		return nil, err
	}
	w, ok := fsys.(icebergio.WriteFileIO)
	if !ok {
		return nil, fmt.Errorf("cannot write %s: its file system is read-only", path)
	}
	return w.Create(path)
}

// WriteFile writes a whole file.
func (r *RemapIO) WriteFile(name string, p []byte) error {
	path := r.Resolve(name)
	fsys, err := r.FileSystem(path)
	if err != nil {
		return err
	}
	w, ok := fsys.(icebergio.WriteFileIO)
	if !ok {
		return fmt.Errorf("cannot write %s: its file system is read-only", path)
	}
	return w.WriteFile(path, p)
}
