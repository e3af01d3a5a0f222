// Package catalog holds lakesql's namespaces and tables: a warehouse folder
// managed through iceberg-go's catalog (the Hadoop-style filesystem catalog by
// default), with location remaps for tables registered from elsewhere.
package catalog

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/apache/iceberg-go"
	icecatalog "github.com/apache/iceberg-go/catalog"
	"github.com/apache/iceberg-go/catalog/hadoop"
	icebergio "github.com/apache/iceberg-go/io"
	"github.com/apache/iceberg-go/table"

	"github.com/lakesql/lakesql/sql"
	"github.com/lakesql/lakesql/storage"
)

// remapFile, in the warehouse folder, holds the location remaps that
// register_table recorded before remaps were kept per table
// (tableRemapFile), one "FROM=TO" per line. It is still read, and a line goes
// when the table of its location is dropped.
const remapFile = "location-remap.txt"

// Warehouse is a folder of Iceberg tables grouped in namespaces.
type Warehouse struct {
	dir         string
	cat         icecatalog.Catalog
	fs          *storage.RemapIO
	remaps      []storage.Remap // from remapFile
	tableRemaps []tableRemap    // of the registered tables; extra session remaps are in fs only
	object      bool            // dir is on object storage (s3://bucket/prefix)
	// managed: the catalog is an SQL or REST one (OpenConfig), which
	// keeps the tables' metadata pointers itself; otherwise it is the
	// filesystem catalog of the folder dir.
	managed bool
	// relocated holds the recorded locations of tables of a copied or moved
	// warehouse, read from their folders here (relocated_table.go).
	relocated map[string]bool
	notices   io.Writer
}

// Open opens the warehouse in dir, creating the folder if needed. extra adds
// location remaps for this session only.
func Open(dir string, extra []storage.Remap) (*Warehouse, error) {
	if storage.IsObjectLocation(dir) {
		return openObjectWarehouse(dir, extra, nil)
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("open warehouse %s: %w", dir, err)
	}
	// iceberg-go reads the warehouse path as a URL: a '#' or '?' in it would
	// cut the path short, and every table would be written in the shorter
	// folder, outside the warehouse asked for.
	if strings.ContainsAny(abs, "#?") {
		return nil, fmt.Errorf("open warehouse %s: a warehouse path cannot contain '#' or '?' (Iceberg locations are URLs); choose another folder", abs)
	}
	if err := os.MkdirAll(abs, 0o755); err != nil {
		return nil, fmt.Errorf("open warehouse %s: %w", abs, err)
	}
	cat, err := hadoop.NewCatalog("lakesql", abs, nil)
	if err != nil {
		return nil, fmt.Errorf("open warehouse %s: %w", abs, err)
	}
	w := &Warehouse{dir: abs, cat: cat}
	if w.remaps, err = readRemaps(filepath.Join(abs, remapFile)); err != nil {
		return nil, err
	}
	isTable := func(ns, name string) bool {
		ok, err := cat.CheckTableExists(context.Background(), table.Identifier{ns, name})
		return err == nil && ok
	}
	if w.tableRemaps, err = readTableRemaps(abs, isTable); err != nil {
		return nil, fmt.Errorf("open warehouse %s: %w", abs, err)
	}
	root, err := storage.RealDir(abs)
	if err != nil {
		return nil, fmt.Errorf("open warehouse %s: %w", abs, err)
	}
	remaps := slices.Clone(w.remaps)
	for _, t := range w.tableRemaps {
		remaps = append(remaps, t.remap)
	}
	w.fs = &storage.RemapIO{Remaps: append(remaps, extra...), Root: root}
	return w, nil
}

// Dir is the warehouse folder, or its location on object storage.
func (w *Warehouse) Dir() string { return w.dir }

// FS is the file system table files are read and written through.
func (w *Warehouse) FS() *storage.RemapIO { return w.fs }

func readRemaps(path string) ([]storage.Remap, error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read location remaps: %w", err)
	}
	defer f.Close()
	var remaps []storage.Remap
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		m, err := storage.ParseRemap(text)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, line, err)
		}
		remaps = append(remaps, m)
	}
	return remaps, sc.Err()
}

// ---- namespaces ----

// CreateNamespace creates a namespace.
func (w *Warehouse) CreateNamespace(ctx context.Context, ns string, ifNotExists bool) error {
	exists, err := w.NamespaceExists(ctx, ns)
	if err != nil {
		return err
	}
	if exists {
		if ifNotExists {
			return nil
		}
		return Errorf(ErrNamespaceExists, "namespace %s already exists", ns)
	}
	if err := w.cat.CreateNamespace(ctx, table.Identifier{ns}, nil); err != nil {
		return fmt.Errorf("create namespace %s: %w", ns, err)
	}
	return nil
}

// NamespaceExists reports whether ns exists.
func (w *Warehouse) NamespaceExists(ctx context.Context, ns string) (bool, error) {
	ok, err := w.cat.CheckNamespaceExists(ctx, table.Identifier{ns})
	if err != nil {
		return false, fmt.Errorf("check namespace %s: %w", ns, err)
	}
	return ok, nil
}

// DropNamespace drops a namespace; with cascade its tables first.
func (w *Warehouse) DropNamespace(ctx context.Context, ns string, ifExists, cascade bool) error {
	exists, err := w.NamespaceExists(ctx, ns)
	if err != nil {
		return err
	}
	if !exists {
		if ifExists {
			return nil
		}
		return w.NoSuchNamespace(ctx, ns)
	}
	tables, err := w.Tables(ctx, ns)
	if err != nil {
		return err
	}
	views, err := w.Views(ctx, ns)
	if err != nil {
		return err
	}
	if len(tables)+len(views) > 0 && !cascade {
		return Errorf(ErrNamespaceNotEmpty, "namespace %s is not empty (tables and views: %s); use DROP NAMESPACE %s CASCADE", ns, strings.Join(slices.Concat(tables, views), ", "), ns)
	}
	for _, t := range tables {
		if _, err := w.DropTable(ctx, ns, t, true); err != nil {
			return err
		}
	}
	for _, v := range views {
		if err := w.DropView(ctx, ns, v, false); err != nil {
			return err
		}
	}
	// Folders left by DROP TABLE without PURGE (or files a PURGE kept) are
	// not the catalog's to delete.
	if left := w.leftovers(ns); !w.managed && len(left) > 0 {
		return Errorf(ErrNamespaceNotEmpty, "namespace %s still holds files that belong to no table (%s in %s: dropped without PURGE?); move or delete them first",
			ns, strings.Join(left, ", "), w.Path(ns))
	}
	if err := w.cat.DropNamespace(ctx, table.Identifier{ns}); err != nil {
		return fmt.Errorf("drop namespace %s: %w", ns, err)
	}
	return nil
}

// Namespaces lists the namespaces, sorted.
func (w *Warehouse) Namespaces(ctx context.Context) ([]string, error) {
	ids, err := w.cat.ListNamespaces(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("list namespaces: %w", err)
	}
	names := make([]string, 0, len(ids))
	for _, id := range ids {
		names = append(names, strings.Join(id, "."))
	}
	slices.Sort(names)
	return names, nil
}

// NoSuchNamespace is the error for a missing namespace, naming those that exist.
func (w *Warehouse) NoSuchNamespace(ctx context.Context, ns string) error {
	known, _ := w.Namespaces(ctx)
	if len(known) == 0 {
		return Errorf(ErrNoSuchNamespace, "namespace %s does not exist (the warehouse has none; CREATE NAMESPACE %s)", ns, ns)
	}
	return Errorf(ErrNoSuchNamespace, "namespace %s does not exist (known: %s)", ns, strings.Join(known, ", "))
}

// ---- tables ----

// Tables lists the tables of ns, sorted.
func (w *Warehouse) Tables(ctx context.Context, ns string) ([]string, error) {
	exists, err := w.NamespaceExists(ctx, ns)
	if err != nil {
		return nil, err
	}
	if !exists {
		return nil, w.NoSuchNamespace(ctx, ns)
	}
	var names []string
	for id, err := range w.cat.ListTables(ctx, table.Identifier{ns}) {
		if err != nil {
			return nil, fmt.Errorf("list tables of %s: %w", ns, err)
		}
		names = append(names, id[len(id)-1])
	}
	slices.Sort(names)
	return names, nil
}

// TableExists reports whether ns.name exists.
func (w *Warehouse) TableExists(ctx context.Context, ns, name string) (bool, error) {
	ok, err := w.cat.CheckTableExists(ctx, table.Identifier{ns, name})
	if err != nil {
		return false, fmt.Errorf("check table %s.%s: %w", ns, name, err)
	}
	return ok, nil
}

// LoadTable loads the current metadata of ns.name. Its file system is the
// warehouse's, so remapped locations resolve.
func (w *Warehouse) LoadTable(ctx context.Context, ns, name string) (*table.Table, error) {
	if exists, err := w.NamespaceExists(ctx, ns); err != nil {
		return nil, err
	} else if !exists {
		return nil, w.NoSuchNamespace(ctx, ns)
	}
	tbl, err := w.cat.LoadTable(ctx, table.Identifier{ns, name})
	if errors.Is(err, icecatalog.ErrNoSuchTable) {
		return nil, w.noSuchTable(ctx, ns, name)
	}
	if err != nil {
		return nil, fmt.Errorf("load table %s.%s: %w", ns, name, err)
	}
	return w.withFS(tbl), nil
}

func (w *Warehouse) withFS(tbl *table.Table) *table.Table {
	w.relocate(tbl)
	fsys := w.fs
	return table.New(tbl.Identifier(), tbl.Metadata(), tbl.MetadataLocation(),
		func(context.Context) (icebergio.IO, error) { return fsys, nil }, tableIO{w})
}

// tableIO is the catalog a loaded table commits and refreshes through: the
// filesystem catalog, except that a refreshed table keeps reading through
// the warehouse's file system, so location remaps survive a commit retry.
type tableIO struct{ w *Warehouse }

func (t tableIO) LoadTable(ctx context.Context, id table.Identifier) (*table.Table, error) {
	tbl, err := t.w.cat.LoadTable(ctx, id)
	if err != nil {
		return nil, err
	}
	return t.w.withFS(tbl), nil
}

func (t tableIO) CommitTable(ctx context.Context, id table.Identifier, reqs []table.Requirement, updates []table.Update) (table.Metadata, string, error) {
	return t.w.CommitTable(ctx, id, reqs, updates)
}

func (w *Warehouse) noSuchTable(ctx context.Context, ns, name string) error {
	if v, _ := w.LoadView(ctx, ns, name); v != nil {
		return Errorf(ErrNoSuchTable, "%s.%s is a view, not a table (views are read with SELECT and dropped with DROP VIEW)", ns, name)
	}
	known, _ := w.Tables(ctx, ns)
	if len(known) == 0 {
		return Errorf(ErrNoSuchTable, "table %s.%s does not exist (namespace %s has no tables)", ns, name, ns)
	}
	if near := sql.Closest(name, known); near != "" {
		return Errorf(ErrNoSuchTable, "table %s.%s does not exist (did you mean %s.%s?)", ns, name, ns, near)
	}
	return Errorf(ErrNoSuchTable, "table %s.%s does not exist (tables in %s: %s)", ns, name, ns, strings.Join(known, ", "))
}

// checkNewTable checks that a table ns.name may be created: ns exists,
// has no table or view name, and no table renamed away from that name
// still records its files in the folder the new table would have.
func (w *Warehouse) checkNewTable(ctx context.Context, ns, name string) error {
	if err := w.checkNewName(ctx, ns, name); err != nil {
		return err
	}
	return w.checkFolderFree(ns, name, "")
}

// checkNewName checks that ns exists and has no table or view name.
func (w *Warehouse) checkNewName(ctx context.Context, ns, name string) error {
	if exists, err := w.NamespaceExists(ctx, ns); err != nil {
		return err
	} else if !exists {
		return w.NoSuchNamespace(ctx, ns)
	}
	if exists, err := w.TableExists(ctx, ns, name); err != nil {
		return err
	} else if exists {
		return Errorf(ErrTableExists, "table %s.%s already exists", ns, name)
	}
	if v, err := w.LoadView(ctx, ns, name); err != nil {
		return err
	} else if v != nil {
		return Errorf(ErrTableExists, "%s.%s is a view (DROP VIEW %s.%s first)", ns, name, ns, name)
	}
	return nil
}

// CreateTable creates an empty table.
func (w *Warehouse) CreateTable(ctx context.Context, ns, name string, schema *iceberg.Schema, spec iceberg.PartitionSpec, props iceberg.Properties, opts ...icecatalog.CreateTableOpt) (*table.Table, error) {
	if err := w.checkNewTable(ctx, ns, name); err != nil {
		return nil, err
	}
	opts = append([]icecatalog.CreateTableOpt{icecatalog.WithPartitionSpec(&spec), icecatalog.WithProperties(props)}, opts...)
	tbl, err := w.cat.CreateTable(ctx, table.Identifier{ns, name}, schema, opts...)
	if err != nil {
		return nil, fmt.Errorf("create table %s.%s: %w", ns, name, err)
	}
	return w.withFS(tbl), nil
}

// CommitTable commits updates to a table (used through table.Transaction).
func (w *Warehouse) Catalog() icecatalog.Catalog { return w.cat }

// SnapshotID is the id of a table's current snapshot, 0 when it has none.
func SnapshotID(tbl *table.Table) int64 {
	if snap := tbl.CurrentSnapshot(); snap != nil {
		return snap.SnapshotID
	}
	return 0
}
