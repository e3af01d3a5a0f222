package catalog

import (
	"fmt"
	"net/url"
	"path/filepath"
	"slices"
	"strings"

	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/catalog/hadoop"

	"github.com/lakesql/lakesql/storage"
)

// openObjectWarehouse opens a warehouse on object storage
// (s3://bucket/prefix): the same layout as a local one, through
// iceberg-go's filesystem catalog on lakesql's object I/O. iceberg-go
// refuses blob warehouses unless told allow-unsafe-commits, because its
// blob file system renames by copy-then-delete; lakesql's
// (storage.ObjectIO) publishes a metadata version with a conditional
// write instead, and refuses to commit on a store without them, so the
// commit is as safe as on a local disk.
func openObjectWarehouse(location string, extra []storage.Remap) (*Warehouse, error) {
	u, err := url.Parse(location)
	if err != nil || u.Host == "" {
		return nil, fmt.Errorf("open warehouse %s: want scheme://bucket/prefix", location)
	}
	if !slices.Contains([]string{"s3", "s3a", "s3n"}, u.Scheme) {
		return nil, fmt.Errorf("open warehouse %s: %s:// is not supported (object storage is s3://, also for S3-compatible stores)", location, u.Scheme)
	}
	location = strings.TrimRight(location, "/")
	cat, err := hadoop.NewCatalog("lakesql", location, iceberg.Properties{"allow-unsafe-commits": "true"})
	if err != nil {
		return nil, fmt.Errorf("open warehouse %s: %w", location, err)
	}
	w := &Warehouse{dir: location, cat: cat, object: true}
	w.fs = &storage.RemapIO{Remaps: extra, Root: location}
	return w, nil
}

// Path is the location of a file or folder of the warehouse, parts joined
// below its root.
func (w *Warehouse) Path(parts ...string) string {
	if w.object {
		return strings.Join(append([]string{w.dir}, parts...), "/")
	}
	return filepath.Join(append([]string{w.dir}, parts...)...)
}

// objects is the warehouse's bucket (only when it is on object storage).
func (w *Warehouse) objects() (*storage.ObjectIO, error) {
	fsys, err := w.fs.FileSystem(w.dir)
	if err != nil {
		return nil, err
	}
	o, ok := fsys.(*storage.ObjectIO)
	if !ok {
		return nil, fmt.Errorf("warehouse %s: %T is not object storage", w.dir, fsys)
	}
	return o, nil
}
