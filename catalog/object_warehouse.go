package catalog

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/catalog/hadoop"
	icebergio "github.com/apache/iceberg-go/io"

	"github.com/lakesql/lakesql/storage"
)

// openObjectWarehouse opens a warehouse on object storage
// (s3://bucket/prefix, gs://bucket/prefix,
// abfs://container@account.dfs.core.windows.net/prefix): the same layout
// as a local one, through iceberg-go's filesystem catalog on lakesql's
// object I/O. iceberg-go refuses blob warehouses unless told
// allow-unsafe-commits, because its blob file system renames by
// copy-then-delete; lakesql's (storage.ObjectIO, which serves every object
// scheme) publishes a metadata version with a conditional write instead
// (S3's If-None-Match, GCS's ifGenerationMatch=0, Azure's If-None-Match),
// and refuses to commit on a store that ignores it, so the commit is as
// safe as on a local disk.
// props are the catalog's s3.*, gcs.* or adls.* properties; without them
// S3 is configured by the AWS environment, GCS and Azure by their default
// credentials.
func openObjectWarehouse(location string, extra []storage.Remap, props iceberg.Properties) (*Warehouse, error) {
	u, err := url.Parse(location)
	if err != nil || u.Host == "" {
		return nil, fmt.Errorf("open warehouse %s: want scheme://bucket/prefix", location)
	}
	location = strings.TrimRight(location, "/")
	// The bucket first: lakesql's I/O says, on one line, what a location
	// it cannot open lacks (a gs:// one, the gcs build tag), where
	// iceberg-go's catalog would print its import hint.
	w := &Warehouse{dir: location, object: true}
	w.fs = &storage.RemapIO{Remaps: extra, Root: location, Props: props}
	if err := w.checkBucket(); err != nil {
		return nil, err
	}
	catProps := iceberg.Properties{"allow-unsafe-commits": "true"}
	maps.Copy(catProps, props)
	if w.cat, err = hadoop.NewCatalog("lakesql", location, catProps); err != nil {
		return nil, fmt.Errorf("open warehouse %s: %w", location, err)
	}
	return w, nil
}

// checkBucket tells a missing or forbidden bucket apart from an empty
// warehouse, which would otherwise only say that no namespace exists.
func (w *Warehouse) checkBucket() error {
	o, err := w.objects()
	if err != nil {
		return err
	}
	ok, err := o.IsAccessible(context.Background())
	if err != nil || !ok {
		reason := "does not exist"
		if err != nil {
			reason = "cannot be reached: " + storage.OneLine(err)
		}
		u, _ := url.Parse(w.dir)
		bucket := "bucket " + u.Host
		if u.User != nil { // abfs://container@account.dfs.core.windows.net
			bucket = "container " + u.User.Username()
		}
		return fmt.Errorf("%s of warehouse %s %s (%s)", bucket, w.dir, reason, w.storeHint(u.Scheme))
	}
	return nil
}

// storeHint says where a warehouse's store was looked for and what
// configures it, by scheme.
func (w *Warehouse) storeHint(scheme string) string {
	switch scheme {
	case "gs":
		return "at " + cmp.Or(w.fs.Props[icebergio.GCSServiceHost], w.fs.Props[icebergio.GCSEndpoint], "Google Cloud Storage") +
			"; check the gcs.* properties: gcs.service.host, gcs.keypath or gcs.no-auth"
	case "abfs", "abfss", "wasb", "wasbs":
		return "at " + cmp.Or(w.fs.Props[icebergio.ADLSEndpoint], "Azure") +
			"; check the container and the adls.* properties: adls.endpoint, adls.auth.shared-key.account.name and .key, adls.sas-token.*, adls.connection-string.*"
	}
	return "at " + cmp.Or(w.fs.Props[icebergio.S3EndpointURL], storage.S3Endpoint(), "AWS") + "; check AWS_ENDPOINT_URL, the keys and the region"
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

// retireObjectMetadata is retireMetadata on object storage: the metadata
// files are renamed (copied, then deleted) to *.dropped.
func (w *Warehouse) retireObjectMetadata(folder string) error {
	o, err := w.objects()
	if err != nil {
		return err
	}
	entries, err := o.List(folder + "/metadata")
	if err != nil {
		return fmt.Errorf("drop table in %s: %w", folder, err)
	}
	for _, e := range entries {
		name := e.Location[strings.LastIndex(e.Location, "/")+1:]
		if name != "version-hint.text" && !strings.HasSuffix(name, ".metadata.json") {
			continue
		}
		if err := o.Rename(e.Location, e.Location+".dropped"); err != nil {
			return fmt.Errorf("drop table in %s: %w", folder, err)
		}
	}
	return nil
}

// purgeObjects is DROP TABLE … PURGE on object storage: the referenced
// files inside the table's folder, then whatever else lies below it, go in
// batches; references outside it (a registered table's) are kept.
func (w *Warehouse) purgeObjects(folder string, refs map[string]bool, d *Dropped) error {
	o, err := w.objects()
	if err != nil {
		return err
	}
	var del []string
	for ref := range refs {
		if path := w.fs.Resolve(ref); storage.Within(path, folder) {
			del = append(del, path)
		} else {
			d.Kept++
		}
	}
	entries, err := o.List(folder)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if !refs[e.Location] {
			del = append(del, e.Location)
		}
	}
	deleted, err := o.RemoveFiles(del)
	d.Deleted += len(deleted)
	if err != nil {
		return err
	}
	// What is left are folder markers, which would keep the namespace
	// from being dropped.
	return o.RemoveAll(folder)
}

// readFile reads a whole file of the warehouse (fs.ErrNotExist when there
// is none).
func (w *Warehouse) readFile(path string) ([]byte, error) {
	if !w.object {
		return os.ReadFile(path)
	}
	f, err := w.fs.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(f)
	if err != nil {
		return nil, err
	}
	return data, nil
}

// children lists the names of the files directly in folder.
func (w *Warehouse) children(folder string) ([]string, error) {
	if !w.object {
		entries, err := os.ReadDir(folder)
		var names []string
		for _, e := range entries {
			if !e.IsDir() {
				names = append(names, e.Name())
			}
		}
		return names, err
	}
	o, err := w.objects()
	if err != nil {
		return nil, err
	}
	entries, err := o.List(folder)
	var names []string
	for _, e := range entries {
		if rest := strings.TrimPrefix(e.Location, folder+"/"); !strings.Contains(rest, "/") {
			names = append(names, rest)
		}
	}
	return names, err
}

// leftovers lists what lies in a namespace's folder: entries of a local
// folder; on object storage the objects below it (folder markers are not).
func (w *Warehouse) leftovers(ns string) []string {
	folder := w.Path(ns)
	if !w.object {
		left, _ := os.ReadDir(folder)
		names := make([]string, len(left))
		for i, e := range left {
			names[i] = e.Name()
		}
		return names
	}
	o, err := w.objects()
	if err != nil {
		return nil
	}
	entries, _ := o.List(folder)
	names := make([]string, len(entries))
	for i, e := range entries {
		names[i] = strings.TrimPrefix(e.Location, folder+"/")
	}
	return names
}

// writeObjectView is writeViewFile on object storage, where a PUT is
// atomic: a new view is written only if absent (of two sessions creating
// it one fails), a replaced one overwritten.
func (w *Warehouse) writeObjectView(path string, data []byte, isNew bool) error {
	o, err := w.objects()
	if err != nil {
		return err
	}
	if !isNew {
		err = o.WriteFile(path, data)
	} else if err = o.WriteNew(path, data); errors.Is(err, fs.ErrExist) {
		return Errorf(ErrViewExists, "view %s was created by another session meanwhile", strings.TrimSuffix(path[strings.LastIndex(path, "/")+1:], viewSuffix))
	}
	if err != nil {
		return fmt.Errorf("write view metadata %s: %w", path, err)
	}
	return nil
}

// removeObjectView deletes a view's metadata object (fs.ErrNotExist when
// there is none: S3 deletes of missing keys succeed).
func (w *Warehouse) removeObjectView(path string) error {
	o, err := w.objects()
	if err != nil {
		return err
	}
	if _, err := o.Stat(path); err != nil {
		return err
	}
	return o.Remove(path)
}
