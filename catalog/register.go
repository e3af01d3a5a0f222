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

// RegisterTable adds an existing Iceberg table to the warehouse from one of its
// metadata files, as Iceberg's register_table procedure does. The metadata is
// copied as the table's first version; the table's data stays where it is.
//
// When the metadata records a location other than the folder the metadata file
// sits in (a table copied from s3a://… to a laptop), the table records a
// location remap from the recorded location to that folder, so its manifests
// and data files are read from where they now are. The remap covers that
// location only, and goes when the table is dropped.
//
// Nothing is written until the metadata has been parsed, its location shown
// to be the table's own folder (its referenced files exist there), and the
// location found registered by no other table; then the table appears at
// once, or not at all.
func (w *Warehouse) RegisterTable(ctx context.Context, ns, name, metadataFile string) (*table.Table, error) {
	if err := w.checkNewTable(ctx, ns, name); err != nil {
		return nil, err
	}
	if w.managed {
		// The catalog records the metadata file where it is (a REST
		// catalog does; iceberg-go's SQL catalog cannot).
		reg, ok := w.cat.(interface {
			RegisterTable(context.Context, table.Identifier, string) (*table.Table, error)
		})
		if !ok {
			return nil, fmt.Errorf("register table %s.%s: the %s catalog cannot register tables", ns, name, w.cat.CatalogType())
		}
		tbl, err := reg.RegisterTable(ctx, table.Identifier{ns, name}, metadataFile)
		if err != nil {
			return nil, fmt.Errorf("register table %s.%s: %w", ns, name, err)
		}
		return w.withFS(tbl), nil
	}
	if w.object {
		return nil, fmt.Errorf("register table %s.%s: a warehouse on object storage registers tables only through an SQL or REST catalog (--catalog-uri)", ns, name)
	}
	reg, err := w.checkRegistration(metadataFile)
	if err != nil {
		return nil, fmt.Errorf("register table %s.%s: %w", ns, name, err)
	}
	folder := filepath.Join(w.dir, ns, name)
	undo, err := publishRegistration(folder, reg)
	if err != nil {
		return nil, fmt.Errorf("register table %s.%s: %w", ns, name, err)
	}
	tbl, err := w.LoadTable(ctx, ns, name)
	if err != nil {
		undo()
		return nil, err
	}
	if reg.remapped() {
		w.addTableRemap(folder, reg.remap)
	}
	return tbl, nil
}

// registration is a checked metadata file, ready to be published.
type registration struct {
	metadata []byte
	remap    storage.Remap // From: the recorded location; To: the table's folder
}

// remapped reports whether the table's files are read from elsewhere than
// its recorded location says. Only then is a remap recorded: a table
// registered in place needs none.
func (r registration) remapped() bool { return storage.LocalPath(r.remap.From) != r.remap.To }

// checkRegistration validates a metadata file for registration, reading
// but writing nothing.
func (w *Warehouse) checkRegistration(metadataFile string) (registration, error) {
	local := storage.LocalPath(metadataFile)
	if filepath.Base(filepath.Dir(local)) != "metadata" {
		return registration{}, fmt.Errorf("%s is not in the metadata folder of a table (want <table folder>/metadata/<file>.metadata.json)", metadataFile)
	}
	// A device or pipe (/dev/zero) would be read without end.
	if info, err := os.Stat(local); err == nil && !info.Mode().IsRegular() {
		return registration{}, fmt.Errorf("%s is not a regular file (a %s), so not a metadata file", metadataFile, storage.FileKind(info.Mode()))
	}
	data, err := os.ReadFile(local)
	if err != nil {
		return registration{}, fmt.Errorf("read metadata file: %w", err)
	}
	meta, err := table.ParseMetadataBytes(data)
	if err != nil {
		return registration{}, fmt.Errorf("%s is not valid Iceberg table metadata: %v", metadataFile, err)
	}
	root, err := filepath.Abs(filepath.Dir(filepath.Dir(local)))
	if err != nil {
		return registration{}, err
	}
	location := strings.TrimRight(meta.Location(), "/")
	if location == "" {
		return registration{}, fmt.Errorf("%s records no table location", metadataFile)
	}
	reg := registration{metadata: data, remap: storage.Remap{From: location, To: root}}
	if conflict, ok := w.locationConflict(location); ok {
		return registration{}, fmt.Errorf("%s: the two tables would share files (drop the other table first)", conflict)
	}
	fsys := &storage.RemapIO{Remaps: append(slices.Clone(w.fs.Remaps), reg.remap), Root: w.fs.Root}
	if err := checkReferencedFiles(fsys, meta); err != nil {
		if reg.remapped() {
			return registration{}, fmt.Errorf("%w (the metadata's location %s, read as %s, must be the table's own folder)", err, location, root)
		}
		return registration{}, err
	}
	return reg, nil
}

// checkReferencedFiles checks that the files meta references exist: the
// manifest lists and manifests (which are read) and the data, delete and
// statistics files.
func checkReferencedFiles(fsys *storage.RemapIO, meta table.Metadata) error {
	refs, err := ReferencedFiles(fsys, meta)
	if err != nil {
		return err
	}
	paths := make([]string, 0, len(refs))
	for ref := range refs {
		paths = append(paths, ref)
	}
	slices.Sort(paths)
	for _, ref := range paths {
		f, err := fsys.Open(ref)
		if err != nil {
			return fmt.Errorf("file %s of the table cannot be read at %s", ref, fsys.Resolve(ref))
		}
		f.Close()
	}
	return nil
}

// publishRegistration writes a registration into the table's folder (which
// may be left by a table dropped without PURGE): the remap file first, then
// the metadata, each written under a temporary name and renamed into place.
// Renaming the metadata file is what makes the folder a table. It returns
// how to take everything it wrote back; on error it has done so itself.
func publishRegistration(folder string, reg registration) (_ func(), err error) {
	var created []string // files and folders this registration made, in order
	undo := func() {
		for _, p := range slices.Backward(created) {
			os.Remove(p)
		}
	}
	defer func() {
		if err != nil {
			undo()
		}
	}()
	for _, dir := range []string{folder, filepath.Join(folder, "metadata")} {
		if err := os.Mkdir(dir, 0o755); err == nil {
			created = append(created, dir)
		} else if !errors.Is(err, os.ErrExist) {
			return nil, err
		}
	}
	type file struct {
		path string
		data []byte
	}
	var files []file
	if reg.remapped() {
		files = append(files, file{filepath.Join(folder, tableRemapFile), []byte(remapFileText([]storage.Remap{reg.remap}))})
	}
	files = append(files, file{filepath.Join(folder, "metadata", "v1.metadata.json"), reg.metadata})
	for _, f := range files {
		if _, err := os.Lstat(f.path); err == nil {
			return nil, fmt.Errorf("%s already exists", f.path)
		}
		tmp := f.path + ".registering"
		created = append(created, tmp)
		if err := os.WriteFile(tmp, f.data, 0o644); err != nil {
			return nil, err
		}
		if err := os.Rename(tmp, f.path); err != nil {
			return nil, err
		}
		created[len(created)-1] = f.path
	}
	return undo, nil
}
