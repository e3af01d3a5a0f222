package lakesql

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/lakesql/lakesql/catalog"
	"github.com/lakesql/lakesql/exec"
	"github.com/lakesql/lakesql/optimizer"
	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/sql"
	"github.com/lakesql/lakesql/storage"
)

// Session runs statements against one warehouse. A session is not safe for
// concurrent use; open one per goroutine.
type Session struct {
	opts      Options
	wh        *catalog.Warehouse
	namespace string // the current namespace (USE), "" until set
	noPruning bool   // SET pruning = off
	// loc is the session time zone (SET TIME ZONE), nil for UTC.
	loc       *time.Location
	manifests *storage.ManifestCache
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
	wh, err := catalog.Open(opts.Warehouse, opts.Remaps)
	if err != nil {
		return nil, err
	}
	return &Session{opts: opts, wh: wh, manifests: storage.NewManifestCache(manifestCacheEntries)}, nil
}

// Close releases the session.
func (s *Session) Close() error { return nil }

// Exec runs one statement (a trailing ';' is allowed) and returns its result.
func (s *Session) Exec(ctx context.Context, statement string) (*Result, error) {
	stmt, err := sql.ParseOne(statement)
	if err != nil {
		return nil, err
	}
	return s.execStatement(ctx, stmt)
}

func (s *Session) execStatement(ctx context.Context, stmt sql.Statement) (*Result, error) {
	if s.loc != nil {
		ctx = planner.WithTimeZone(ctx, s.loc)
	}
	switch st := stmt.(type) {
	case *sql.QueryStmt:
		return s.query(ctx, st.Query)
	case *sql.Explain:
		return s.explain(ctx, st)
	case *sql.Insert:
		return s.insert(ctx, st)
	case *sql.Delete:
		return s.deleteFrom(ctx, st)
	case *sql.CreateNamespace:
		return s.createNamespace(ctx, st)
	case *sql.DropNamespace:
		return s.dropNamespace(ctx, st)
	case *sql.ShowNamespaces:
		return s.showNamespaces(ctx)
	case *sql.Use:
		return s.use(ctx, st)
	case *sql.CreateTable:
		return s.createTable(ctx, st)
	case *sql.DropTable:
		return s.dropTable(ctx, st)
	case *sql.ShowTables:
		return s.showTables(ctx, st)
	case *sql.Describe:
		return s.describe(ctx, st)
	case *sql.ShowPartitions:
		return s.showPartitions(ctx, st)
	case *sql.ShowCreateTable:
		return s.showCreateTable(ctx, st)
	case *sql.Call:
		return s.call(ctx, st)
	case *sql.Set:
		return s.set(st)
	case *sql.AlterTable:
		return s.alterTable(ctx, st)
	case *sql.Vacuum:
		return s.vacuum(ctx, st)
	case *sql.Optimize:
		return s.optimize(ctx, st)
	}
	return nil, fmt.Errorf("%s is not supported yet", statementName(stmt))
}

// statementName names a statement kind for messages.
func statementName(stmt sql.Statement) string {
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

// plan binds and optimizes a query.
func (s *Session) plan(ctx context.Context, q *sql.Query) (planner.Plan, error) {
	p, err := planner.BindQuery(ctx, s, q)
	if err != nil {
		return nil, err
	}
	return optimizer.Optimize(p), nil
}

func (s *Session) query(ctx context.Context, q *sql.Query) (*Result, error) {
	p, err := s.plan(ctx, q)
	if err != nil {
		return nil, err
	}
	return s.run(ctx, p, nil)
}

// env is the execution environment of the session's statements.
func (s *Session) env() *exec.Env {
	return &exec.Env{FS: s.wh.FS(), NoPruning: s.noPruning, ManifestCache: s.manifests}
}

// run builds and opens the operators of a plan.
func (s *Session) run(ctx context.Context, p planner.Plan, env *exec.Env) (*Result, error) {
	if env == nil {
		env = s.env()
	}
	op, err := exec.Build(ctx, p, env)
	if err != nil {
		return nil, err
	}
	if err := op.Open(ctx); err != nil {
		op.Close()
		return nil, err
	}
	res := &Result{Schema: op.Schema(), rows: op}
	if s.loc != nil {
		res.showIn(s.loc)
	}
	return res, nil
}

// ResolveTable implements planner.Resolver: name is [catalog.]namespace.table
// or a table of the current namespace, at its current snapshot unless travel
// asks for another (time_travel.go).
func (s *Session) ResolveTable(ctx context.Context, name sql.ObjectName, travel *sql.TimeTravel) (*planner.TableRef, error) {
	ns, tableName, err := s.tableName(name)
	if err != nil {
		return nil, err
	}
	tbl, err := s.wh.LoadTable(ctx, ns, tableName)
	if err != nil {
		return nil, err
	}
	ref := &planner.TableRef{Namespace: ns, Name: tableName, Table: tbl, Snapshot: tbl.CurrentSnapshot(), Schema: tbl.Schema()}
	if travel != nil {
		if err := s.timeTravel(ctx, ref, travel); err != nil {
			return nil, err
		}
	}
	return ref, nil
}

// tableName splits a written table name into namespace and table.
func (s *Session) tableName(name sql.ObjectName) (string, string, error) {
	parts := name.Parts
	switch len(parts) {
	case 1:
		if s.namespace == "" {
			return "", "", fmt.Errorf("table %s has no namespace: write namespace.%s or USE a namespace first", parts[0], parts[0])
		}
		return s.namespace, parts[0], nil
	case 2:
		return parts[0], parts[1], nil
	case 3:
		if err := s.checkCatalog(parts[0]); err != nil {
			return "", "", err
		}
		return parts[1], parts[2], nil
	}
	return "", "", fmt.Errorf("table name %s has too many parts: write [catalog.]namespace.table", strings.Join(parts, "."))
}

// namespaceName resolves a written namespace name, [catalog.]namespace.
func (s *Session) namespaceName(name sql.ObjectName) (string, error) {
	switch len(name.Parts) {
	case 1:
		return name.Parts[0], nil
	case 2:
		if err := s.checkCatalog(name.Parts[0]); err != nil {
			return "", err
		}
		return name.Parts[1], nil
	}
	return "", fmt.Errorf("namespace name %s has too many parts", strings.Join(name.Parts, "."))
}

func (s *Session) checkCatalog(name string) error {
	if !strings.EqualFold(name, s.opts.Catalog) {
		return fmt.Errorf("unknown catalog %s (this warehouse's catalog is %s; start lakesql with --catalog %s to use that name)", name, s.opts.Catalog, name)
	}
	return nil
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
