// Package engine is a lakesql session at work: its state (warehouse,
// current namespace, settings, time zone), name resolution and time travel,
// and the path of a query from parsed SQL to running operators — bind,
// optimize, build — with EXPLAIN and SET. The statements that change tables
// (internal/ddl, internal/dml, internal/procedures) use it through the
// exported methods below; the root package dispatches statements.
package engine

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/apache/iceberg-go/table"
	"github.com/lakesql/lakesql/catalog"
	"github.com/lakesql/lakesql/exec"
	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/sql"
	"github.com/lakesql/lakesql/storage"
)

// Options configure a session.
type Options struct {
	// Warehouse is the warehouse folder, or s3://bucket/prefix.
	Warehouse string
	// Catalog is the name the warehouse's catalog answers to in three-part
	// names (catalog.namespace.table); default "lakesql".
	Catalog string
	// CatalogURI and CatalogProps select an SQL or REST catalog
	// (catalog.Config).
	CatalogURI   string
	CatalogProps map[string]string
	// Remaps map table locations to local folders for this session, in
	// addition to those the warehouse records (see CALL system.register_table).
	Remaps []storage.Remap
	// Progress, when set, receives progress lines of long statements
	// (rewrite_data_files, OPTIMIZE).
	Progress io.Writer
	// Notices, when set, receives the warehouse's notices (catalog.Warehouse.SetNotices).
	Notices io.Writer
	// ReadOnly refuses every statement that writes a table or a file.
	ReadOnly bool
	// SessionMemoryLimit makes SET memory_limit this session's own limit,
	// under the process's, instead of the process's: a server sets it, so
	// that one connection's SET changes no other's.
	SessionMemoryLimit bool
}

// Session runs statements against one warehouse. A session is not safe for
// concurrent use; open one per goroutine.
type Session struct {
	opts      Options
	wh        *catalog.Warehouse // the default catalog's
	catalogs  *catalogs          // the others, opened on first use (catalogs.go)
	namespace string             // the current namespace (USE), "" until set
	settings  settings
	manifests *storage.ManifestCache
	// tempViews are the session's temporary views by lower-case name
	// (views.go).
	tempViews map[string]*tempView
	// defining and definingTemp name the stored (ns.name) or temporary view
	// being created, in the session copy its query is bound with, so that
	// the query cannot use the view itself (views.go).
	defining, definingTemp string
}

// manifestCacheEntries bounds the manifest entries a session keeps in memory
// (a few hundred bytes each).
const manifestCacheEntries = 1 << 20

// Open opens a session on the warehouse in opts.
func Open(ctx context.Context, opts Options) (*Session, error) {
	if opts.Catalog == "" {
		opts.Catalog = "lakesql"
	}
	if opts.Warehouse == "" {
		opts.Warehouse = "warehouse"
	}
	wh, err := catalog.OpenConfig(ctx, catalog.Config{Name: opts.Catalog, Warehouse: opts.Warehouse,
		URI: opts.CatalogURI, Props: opts.CatalogProps, Remaps: opts.Remaps})
	if err != nil {
		return nil, err
	}
	wh.SetNotices(opts.Notices)
	return &Session{opts: opts, wh: wh, catalogs: &catalogs{}, manifests: storage.NewManifestCache(manifestCacheEntries),
		settings: settings{ownMemoryLimit: opts.SessionMemoryLimit}}, nil
}

// Context returns ctx with what planning needs from the session: its time
// zone and its file access policy (file_access.go), and its memory limit.
func (s *Session) Context(ctx context.Context) context.Context {
	if s.settings.loc != nil {
		ctx = planner.WithTimeZone(ctx, s.settings.loc)
	}
	if s.settings.noExternalAccess || s.opts.ReadOnly {
		ctx = planner.WithFileAccess(ctx, s.checkFileAccess)
	}
	if s.settings.commitRetryTimeout != nil {
		ctx = storage.WithCommitRetryTimeout(ctx, *s.settings.commitRetryTimeout)
	}
	if s.settings.memoryLimit > 0 {
		ctx = exec.WithMemoryLimit(ctx, s.settings.memoryLimit)
	}
	return ctx
}

// ReadOnly reports whether the session refuses writes (Options.ReadOnly).
func (s *Session) ReadOnly() bool { return s.opts.ReadOnly }

// StatementName names a statement kind for messages ("CREATE TABLE").
func StatementName(stmt sql.Statement) string {
	name := fmt.Sprintf("%T", stmt)
	name = strings.TrimPrefix(name, "*sql.")
	var b strings.Builder
	for i, r := range name {
		if i > 0 && r >= 'A' && r <= 'Z' {
			b.WriteByte(' ')
		}
		b.WriteRune(r)
	}
	return strings.ToUpper(b.String())
}

// ResolveTable implements planner.Resolver: name is [catalog.]namespace.table
// or a table of the current namespace, at its current snapshot unless travel
// asks for another (time_travel.go).
func (s *Session) ResolveTable(ctx context.Context, name sql.ObjectName, travel *sql.TimeTravel) (*planner.TableRef, error) {
	wh, ns, tableName, err := s.TableName(ctx, name)
	if err != nil {
		return nil, err
	}
	tbl, err := s.loadTable(ctx, wh, name, ns, tableName)
	if err != nil {
		return nil, err
	}
	ref := &planner.TableRef{Catalog: s.catalogName(wh, name), Namespace: ns, Name: tableName, Table: tbl, Snapshot: tbl.CurrentSnapshot(), Schema: tbl.Schema(), FS: wh.FS()}
	if travel != nil {
		if err := s.timeTravel(ctx, ref, travel); err != nil {
			return nil, err
		}
	}
	return ref, nil
}

// TableName splits a written table name into the warehouse of its catalog,
// namespace and table. One- and two-part names are the default catalog's;
// a three-part name starts with the name of a catalog, the default or one
// declared in iceberg-go's configuration file (catalogs.go).
func (s *Session) TableName(ctx context.Context, name sql.ObjectName) (*catalog.Warehouse, string, string, error) {
	parts := name.Parts
	switch len(parts) {
	case 1:
		if s.namespace == "" {
			return nil, "", "", catalog.Errorf(catalog.ErrNoSuchNamespace, "table %s has no namespace: write namespace.%s or USE a namespace first", parts[0], parts[0])
		}
		return s.wh, s.namespace, parts[0], nil
	case 2:
		return s.wh, parts[0], parts[1], nil
	case 3:
		wh, err := s.Catalog(ctx, parts[0])
		if err != nil {
			return nil, "", "", err
		}
		return wh, parts[1], parts[2], nil
	}
	return nil, "", "", fmt.Errorf("table name %s has too many parts: write [catalog.]namespace.table", strings.Join(parts, "."))
}

// NamespaceName resolves a written namespace name, [catalog.]namespace,
// to the warehouse of its catalog and the namespace.
func (s *Session) NamespaceName(ctx context.Context, name sql.ObjectName) (*catalog.Warehouse, string, error) {
	switch len(name.Parts) {
	case 1:
		return s.wh, name.Parts[0], nil
	case 2:
		wh, err := s.Catalog(ctx, name.Parts[0])
		if err != nil {
			return nil, "", err
		}
		return wh, name.Parts[1], nil
	}
	return nil, "", fmt.Errorf("namespace name %s has too many parts", strings.Join(name.Parts, "."))
}

// TableNames lists "namespace.table" for every table, for completion.
func (s *Session) TableNames(ctx context.Context) []string {
	var names []string
	nss, _ := s.wh.Namespaces(ctx)
	for _, ns := range nss {
		tables, _ := s.wh.Tables(ctx, ns)
		for _, t := range tables {
			names = append(names, ns+"."+t)
		}
	}
	return names
}

// ColumnNames lists the columns of every table, for completion.
func (s *Session) ColumnNames(ctx context.Context) []string {
	seen := map[string]bool{}
	var names []string
	for _, qualified := range s.TableNames(ctx) {
		ns, t, _ := strings.Cut(qualified, ".")
		tbl, err := s.wh.LoadTable(ctx, ns, t)
		if err != nil {
			continue
		}
		for _, f := range tbl.Schema().Fields() {
			if !seen[f.Name] {
				seen[f.Name] = true
				names = append(names, f.Name)
			}
		}
	}
	return names
}

// Warehouse exposes the session's warehouse (for tools and tests).
func (s *Session) Warehouse() *catalog.Warehouse { return s.wh }

var _ planner.Resolver = (*Session)(nil)

// Namespace is the current namespace (USE), "" until one is set.
func (s *Session) Namespace() string { return s.namespace }

// SetNamespace makes ns the current namespace ("" for none).
func (s *Session) SetNamespace(ns string) { s.namespace = ns }

// CatalogName is the name the warehouse's catalog answers to.
func (s *Session) CatalogName() string { return s.opts.Catalog }

// Progress receives progress lines of long statements, or is nil.
func (s *Session) Progress() io.Writer { return s.opts.Progress }

// TimeZone is the session time zone, nil for UTC.
func (s *Session) TimeZone() *time.Location { return s.settings.loc }

// LoadTable loads a table by its written name and returns it with its
// qualified name, namespace.table.
func (s *Session) LoadTable(ctx context.Context, name sql.ObjectName) (*table.Table, string, error) {
	wh, ns, t, err := s.TableName(ctx, name)
	if err != nil {
		return nil, "", err
	}
	tbl, err := s.loadTable(ctx, wh, name, ns, t)
	return tbl, ns + "." + t, err
}

// catalogName is the catalog of wh, the warehouse of the written name, as
// planner.TableRef.Catalog has it: "" for the default.
func (s *Session) catalogName(wh *catalog.Warehouse, name sql.ObjectName) string {
	if wh == s.wh {
		return ""
	}
	return name.Parts[0]
}

// loadTable loads ns.t of wh, the warehouse of the written name. The
// errors of a catalog other than the default one name that catalog.
func (s *Session) loadTable(ctx context.Context, wh *catalog.Warehouse, name sql.ObjectName, ns, t string) (*table.Table, error) {
	tbl, err := wh.LoadTable(ctx, ns, t)
	if c := s.catalogName(wh, name); err != nil && c != "" {
		return nil, fmt.Errorf("catalog %s: %w", c, err)
	}
	return tbl, err
}

// Unsupported is the error for a statement kind lakesql does not run.
func Unsupported(stmt sql.Statement) error {
	return fmt.Errorf("%s is not supported yet", StatementName(stmt))
}

// Manifests is the session's cache of manifest entries.
func (s *Session) Manifests() *storage.ManifestCache { return s.manifests }
