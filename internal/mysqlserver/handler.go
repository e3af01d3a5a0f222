package mysqlserver

import (
	"context"
	"math"
	"strings"
	"sync"

	"github.com/dolthub/vitess/go/mysql"
	"github.com/dolthub/vitess/go/sqltypes"
	querypb "github.com/dolthub/vitess/go/vt/proto/query"
	"github.com/dolthub/vitess/go/vt/sqlparser"

	"github.com/lakesql/lakesql"
	"github.com/lakesql/lakesql/sql/mysqldialect"
)

// handler answers the commands of every connection (mysql.Handler).
type handler struct {
	opts lakesql.Options

	mu    sync.Mutex
	conns map[uint32]*connection
}

// connection is one client connection's state.
type connection struct {
	conn    *mysql.Conn
	session *lakesql.Session // opened at the first command, when the user is known
	// cancel stops the running statement (KILL QUERY); nil when idle.
	cancel context.CancelFunc
}

func newHandler(opts lakesql.Options) *handler {
	opts.Dialect = lakesql.DialectMySQL
	return &handler{opts: opts, conns: map[uint32]*connection{}}
}

var _ mysql.Handler = (*handler)(nil)

func (h *handler) NewConnection(c *mysql.Conn) {
	c.StatusFlags |= mysql.ServerStatusAutocommit
	h.mu.Lock()
	h.conns[c.ConnectionID] = &connection{conn: c}
	h.mu.Unlock()
}

func (h *handler) ConnectionClosed(c *mysql.Conn) {
	h.mu.Lock()
	conn := h.conns[c.ConnectionID]
	delete(h.conns, c.ConnectionID)
	h.mu.Unlock()
	if conn != nil {
		if conn.cancel != nil {
			conn.cancel()
		}
		if conn.session != nil {
			conn.session.Close()
		}
	}
}

func (h *handler) ConnectionAborted(*mysql.Conn, string) error { return nil }

// closeAll closes every open connection (server shutdown).
func (h *handler) closeAll() {
	h.mu.Lock()
	conns := make([]*connection, 0, len(h.conns))
	for _, c := range h.conns {
		conns = append(conns, c)
	}
	h.mu.Unlock()
	for _, c := range conns {
		c.conn.Close()
	}
}

// session is the connection's lakesql session, opened on first use.
func (h *handler) session(ctx context.Context, c *mysql.Conn) (*connection, error) {
	h.mu.Lock()
	conn := h.conns[c.ConnectionID]
	h.mu.Unlock()
	if conn.session != nil {
		return conn, nil
	}
	opts := h.opts
	opts.User, opts.ConnectionID = c.User, c.ConnectionID
	opts.SessionMemoryLimit = true // one connection's SET memory_limit is its own
	s, err := lakesql.Open(ctx, opts)
	if err != nil {
		return nil, sqlError(err)
	}
	conn.session = s
	return conn, nil
}

// ComInitDB is USE db, also sent by clients that name a database to connect to.
func (h *handler) ComInitDB(c *mysql.Conn, db string) error {
	if db == "" {
		return nil
	}
	ctx := context.Background()
	conn, err := h.session(ctx, c)
	if err != nil {
		return err
	}
	res, err := conn.session.Exec(ctx, "USE "+backquote(db))
	if err != nil {
		return sqlError(err)
	}
	return res.Close()
}

func backquote(name string) string { return "`" + strings.ReplaceAll(name, "`", "``") + "`" }

func (h *handler) ComQuery(ctx context.Context, c *mysql.Conn, query string, callback mysql.ResultSpoolFn) error {
	return h.run(ctx, c, query, nil, func(r *sqltypes.Result) error { return callback(r, false) })
}

// ComMultiQuery runs the first statement of a multi-statement text and
// returns the rest, which the protocol layer sends back for the next.
func (h *handler) ComMultiQuery(ctx context.Context, c *mysql.Conn, query string, callback mysql.ResultSpoolFn) (string, error) {
	first, rest, err := sqlparser.SplitStatement(query)
	if err != nil {
		return "", sqlError(err)
	}
	rest = strings.TrimSpace(rest)
	err = h.run(ctx, c, first, nil, func(r *sqltypes.Result) error { return callback(r, rest != "") })
	return rest, err
}

// run runs one statement and sends its result: rows batch by batch as they
// come, or the OK packet of a statement without rows.
func (h *handler) run(ctx context.Context, c *mysql.Conn, query string, args []any, send func(*sqltypes.Result) error) error {
	conn, err := h.session(ctx, c)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	h.mu.Lock()
	conn.cancel = cancel
	h.mu.Unlock()
	defer func() {
		h.mu.Lock()
		conn.cancel = nil
		h.mu.Unlock()
	}()

	if st, isKill := h.killStatement(query); isKill {
		if err := h.kill(c, st); err != nil {
			return err
		}
		return send(okResult("OK"))
	}
	res, err := conn.session.ExecArgs(ctx, query, args)
	if err != nil {
		return sqlError(err)
	}
	defer res.Close()
	if res.Schema == nil {
		return send(okResult(res.Message))
	}
	fields := fieldsOf(res.Schema)
	sent := false
	for {
		batch, err := res.Next(ctx)
		if err != nil {
			return sqlError(err)
		}
		if batch == nil {
			break
		}
		rows := rowsOf(batch)
		batch.Release()
		if err := send(&sqltypes.Result{Fields: fields, Rows: rows}); err != nil {
			return err
		}
		sent = true
	}
	if !sent {
		return send(&sqltypes.Result{Fields: fields})
	}
	return nil
}

// killStatement parses query when it is KILL, which the server carries out:
// it reaches other connections than the session's.
func (h *handler) killStatement(query string) (*mysqldialect.Statement, bool) {
	if !strings.HasPrefix(strings.ToUpper(strings.TrimSpace(query)), "KILL") {
		return nil, false
	}
	st, err := mysqldialect.Parse(query)
	if err != nil {
		return nil, false // the session reports the syntax error
	}
	_, _, ok := st.Kill()
	return st, ok
}

// kill is KILL QUERY id, which cancels the connection's running statement
// (it fails with error 1317), and KILL [CONNECTION] id, which closes the
// connection. Users may kill only their own connections.
func (h *handler) kill(c *mysql.Conn, st *mysqldialect.Statement) error {
	id, queryOnly, _ := st.Kill()
	h.mu.Lock()
	target := h.conns[uint32(id)]
	h.mu.Unlock()
	if target == nil || id > math.MaxUint32 {
		return mysql.NewSQLError(mysql.ERNoSuchThread, mysql.SSUnknownSQLState, "Unknown thread id: %d", id)
	}
	if target.conn.User != c.User {
		return mysql.NewSQLError(mysql.ERKillDenied, mysql.SSUnknownSQLState, "You are not owner of thread %d", id)
	}
	h.mu.Lock()
	cancel := target.cancel
	h.mu.Unlock()
	if cancel != nil {
		cancel()
	}
	if !queryOnly {
		target.conn.Close()
	}
	return nil
}

func (h *handler) WarningCount(*mysql.Conn) uint16 { return 0 }

// ComResetConnection starts the connection over with a new session.
func (h *handler) ComResetConnection(c *mysql.Conn) error {
	h.mu.Lock()
	conn := h.conns[c.ConnectionID]
	h.mu.Unlock()
	if conn != nil && conn.session != nil {
		conn.session.Close()
		conn.session = nil
	}
	return nil
}

func (h *handler) ParserOptionsForConnection(*mysql.Conn) (sqlparser.ParserOptions, error) {
	return sqlparser.ParserOptions{}, nil
}

// ComPrepare describes a query's result columns to the client (JDBC's
// getMetaData before execution) when they can be known before its
// arguments; each execution sends them again with its rows.
func (h *handler) ComPrepare(ctx context.Context, c *mysql.Conn, query string, prepare *mysql.PrepareData) ([]*querypb.Field, error) {
	conn, err := h.session(ctx, c)
	if err != nil {
		return nil, err
	}
	if schema := conn.session.ResultColumns(ctx, query, int(prepare.ParamsCount)); schema != nil {
		return fieldsOf(schema), nil
	}
	return nil, nil
}

func (h *handler) ComStmtExecute(ctx context.Context, c *mysql.Conn, prepare *mysql.PrepareData, callback func(*sqltypes.Result) error) error {
	args, err := bindArgs(prepare)
	if err != nil {
		return sqlError(err)
	}
	return h.run(ctx, c, prepare.PrepareStmt, args, callback)
}
