// Package lakesql is the public Go API of lakesql: open a session on an
// Iceberg warehouse and run SQL statements in it.
//
//	s, err := lakesql.Open(ctx, lakesql.Options{Warehouse: "warehouse"})
//	res, err := s.Exec(ctx, "SELECT count(*) FROM db.events")
//	for b, err := res.Next(ctx); b != nil; b, err = res.Next(ctx) { … b.Release() }
//	res.Close()
//
// cmd/lakesql is a thin front end over it. The work is done in internal/:
// engine (session, planning, EXPLAIN, SET), ddl, dml and procedures; this
// package only dispatches each statement to the package whose job it is.
package lakesql

import (
	"context"
	"fmt"
	"io"
	"time"

	_ "time/tzdata" // SET TIME ZONE works without the system zone database

	"github.com/lakesql/lakesql/catalog"
	"github.com/lakesql/lakesql/internal/ddl"
	"github.com/lakesql/lakesql/internal/dml"
	"github.com/lakesql/lakesql/internal/engine"
	"github.com/lakesql/lakesql/internal/procedures"
	"github.com/lakesql/lakesql/sql"
	"github.com/lakesql/lakesql/sql/mysqldialect"
	"github.com/lakesql/lakesql/storage"
)

// Options configure a session.
type Options struct {
	// Warehouse is the warehouse folder, or s3://bucket/prefix on object
	// storage (configured as AWS tools are: AWS_ACCESS_KEY_ID,
	// AWS_SECRET_ACCESS_KEY, AWS_REGION, AWS_ENDPOINT_URL[_S3]).
	Warehouse string
	// Catalog is the name the warehouse's catalog answers to in three-part
	// names (catalog.namespace.table); default "lakesql".
	Catalog string
	// CatalogURI selects the catalog: "" is the filesystem catalog in
	// Warehouse (or the catalog named Catalog in ~/.iceberg-go.yaml);
	// sqlite:PATH, postgres://… (Iceberg's JDBC catalog schema) or
	// http(s)://… (an Iceberg REST catalog).
	CatalogURI string
	// CatalogProps are more catalog properties, as iceberg-go names them
	// (credential, token, s3.*).
	CatalogProps map[string]string
	// Remaps map table locations to local folders for this session, in
	// addition to those the warehouse records (see CALL system.register_table).
	Remaps []storage.Remap
	// Progress, when set, receives progress lines of long statements
	// (rewrite_data_files, OPTIMIZE); cmd/lakesql passes a terminal's stderr.
	Progress io.Writer
	// Notices, when set, receives what the warehouse did on its own, such
	// as reading the tables of a copied warehouse from their new folders;
	// cmd/lakesql passes stderr.
	Notices io.Writer
	// StatementTimeout stops a statement that runs longer (SET
	// statement_timeout changes it); 0 for no limit.
	StatementTimeout time.Duration
	// ReadOnly refuses every statement that writes a table or a file
	// (INSERT, CREATE, CALL, COPY … TO, …): for servers and shared
	// warehouses.
	ReadOnly bool
	// SessionMemoryLimit makes SET memory_limit the session's own limit,
	// under the process's (which SET then leaves alone): a server's
	// connections each have theirs.
	SessionMemoryLimit bool
	// Dialect is the SQL dialect of Exec: DialectLakesql (the default) or
	// DialectMySQL (SET sql_dialect changes it).
	Dialect string
	// User and ConnectionID are what the MySQL dialect's USER() and
	// CONNECTION_ID() answer (lakesql serve --mysql sets them).
	User         string
	ConnectionID uint32
}

// Result is what one statement returns: a stream of record batches with a
// schema (Next, Close). Statements that return no rows have a nil Schema and
// a Message.
type Result = engine.Result

// ErrStatementTimeout is the kind of error of a statement stopped by SET
// statement_timeout.
var ErrStatementTimeout = engine.ErrStatementTimeout

// Session runs statements against one warehouse. A session is not safe for
// concurrent use; open one per goroutine.
type Session struct {
	engine  *engine.Session
	dialect dialect
}

// Open opens a session on the warehouse in opts.
func Open(ctx context.Context, opts Options) (*Session, error) {
	e, err := engine.Open(ctx, engine.Options{
		Warehouse:    opts.Warehouse,
		Catalog:      opts.Catalog,
		CatalogURI:   opts.CatalogURI,
		CatalogProps: opts.CatalogProps,
		Remaps:       opts.Remaps,
		Progress:     opts.Progress,
		Notices:      opts.Notices,
		ReadOnly:     opts.ReadOnly,

		SessionMemoryLimit: opts.SessionMemoryLimit,
	})
	if err != nil {
		return nil, err
	}
	e.SetStatementTimeout(opts.StatementTimeout)
	s := &Session{engine: e, dialect: dialect{user: opts.User, connectionID: opts.ConnectionID, vars: mysqldialect.NewVariables()}}
	if opts.Dialect != "" {
		if err := s.dialect.set(opts.Dialect); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// Close releases the session and the connections of the catalogs it opened.
func (s *Session) Close() error { return s.engine.Close() }

// Exec runs one statement (a trailing ';' is allowed) in the session's
// dialect and returns its result.
func (s *Session) Exec(ctx context.Context, statement string) (*Result, error) {
	return s.ExecArgs(ctx, statement, nil)
}

// ExecArgs runs one statement whose ? markers take args, in order (a
// prepared statement of the MySQL dialect): nil, bool, int64, uint64,
// float64, string, []byte or mysqldialect.Typed.
func (s *Session) ExecArgs(ctx context.Context, statement string, args []any) (*Result, error) {
	stmt, err := s.parse(statement, args)
	if err != nil {
		return nil, err
	}
	if stmt == nil {
		return engine.Message("OK"), nil
	}
	ctx, release := s.engine.StatementContext(s.engine.Context(ctx))
	res, err := s.execStatement(ctx, stmt)
	if err != nil {
		err = s.engine.TimeoutError(ctx, err)
		release()
		return nil, err
	}
	res.Bound(ctx, release, s.engine)
	return res, nil
}

// readsOnly reports whether a statement changes neither tables nor files,
// so that a read-only session runs it.
func readsOnly(stmt sql.Statement) bool {
	switch st := stmt.(type) {
	case *sql.Explain:
		return !st.Analyze || readsOnly(st.Stmt)
	case *sql.QueryStmt, *sql.Set, *sql.Reset, *sql.Use, *sql.ShowViews, *sql.ShowNamespaces, *sql.ShowCatalogs,
		*sql.ShowTables, *sql.Describe, *sql.DescribeQuery, *sql.Summarize, *sql.ShowPartitions, *sql.ShowCreateTable:
		return true
	}
	return false
}

// execStatement sends a parsed statement to the package that runs it.
func (s *Session) execStatement(ctx context.Context, stmt sql.Statement) (*Result, error) {
	e := s.engine
	if e.ReadOnly() && !readsOnly(stmt) {
		return nil, fmt.Errorf("%s: %w (--read-only)", engine.StatementName(stmt), engine.ErrReadOnly)
	}
	switch st := stmt.(type) {
	case *sql.QueryStmt:
		return e.Query(ctx, st.Query)
	case *sql.Explain:
		return e.Explain(ctx, st)
	case *sql.Set:
		if st.Name == dialectSetting {
			return s.dialect.setStatement(st)
		}
		return e.Set(st)
	case *sql.Reset:
		return e.Reset(st)
	case *sql.CreateView:
		return ddl.CreateView(ctx, e, st)
	case *sql.DropView:
		return ddl.DropView(ctx, e, st)
	case *sql.ShowViews:
		return ddl.ShowViews(ctx, e, st)
	case *sql.HiveStatement:
		return ddl.HiveStatement(ctx, e, st)
	case *sql.Use:
		return e.Use(ctx, st)
	case *sql.Insert:
		return dml.Insert(ctx, e, st)
	case *sql.Delete:
		return dml.Delete(ctx, e, st)
	case *sql.Update:
		return dml.Update(ctx, e, st)
	case *sql.Merge:
		return dml.Merge(ctx, e, st)
	case *sql.TruncateTable:
		return ddl.TruncateTable(ctx, e, st)
	case *sql.ReplaceTable:
		return ddl.ReplaceTable(ctx, e, st)
	case *sql.CreateNamespace:
		return ddl.CreateNamespace(ctx, e, st)
	case *sql.DropNamespace:
		return ddl.DropNamespace(ctx, e, st)
	case *sql.ShowNamespaces:
		return ddl.ShowNamespaces(ctx, e, st)
	case *sql.ShowCatalogs:
		return ddl.ShowCatalogs(e)
	case *sql.CreateTable:
		return ddl.CreateTable(ctx, e, st)
	case *sql.DropTable:
		return ddl.DropTable(ctx, e, st)
	case *sql.ShowTables:
		return ddl.ShowTables(ctx, e, st)
	case *sql.Describe:
		return ddl.Describe(ctx, e, st)
	case *sql.DescribeQuery:
		return ddl.DescribeQuery(ctx, e, st)
	case *sql.Summarize:
		return ddl.Summarize(ctx, e, st)
	case *sql.Copy:
		return dml.Copy(ctx, e, st)
	case *sql.ExportDatabase:
		return ddl.ExportDatabase(ctx, e, st)
	case *sql.ImportDatabase:
		return ddl.ImportDatabase(ctx, e, st, s.execStatement)
	case *sql.ShowPartitions:
		return ddl.ShowPartitions(ctx, e, st)
	case *sql.ShowCreateTable:
		return ddl.ShowCreateTable(ctx, e, st)
	case *sql.AlterTable:
		return ddl.AlterTable(ctx, e, st)
	case *sql.Call:
		return procedures.Call(ctx, e, st)
	case *sql.Vacuum:
		return procedures.Vacuum(ctx, e, st)
	case *sql.Optimize:
		return procedures.Optimize(ctx, e, st)
	}
	return nil, engine.Unsupported(stmt)
}

// TableNames lists "namespace.table" for every table, for completion.
func (s *Session) TableNames(ctx context.Context) []string { return s.engine.TableNames(ctx) }

// ColumnNames lists the columns of every table, for completion.
func (s *Session) ColumnNames(ctx context.Context) []string { return s.engine.ColumnNames(ctx) }

// Warehouse exposes the session's warehouse (for tools and tests).
func (s *Session) Warehouse() *catalog.Warehouse { return s.engine.Warehouse() }
