package lakesql

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakesql/lakesql/exec"
	"github.com/lakesql/lakesql/internal/engine"
	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/sql"
	"github.com/lakesql/lakesql/sql/mysqldialect"
)

// The SQL dialects of Exec.
const (
	// DialectLakesql is lakesql's own Spark/Iceberg dialect (package sql).
	DialectLakesql = "lakesql"
	// DialectMySQL is MySQL's dialect, parsed by the TiDB parser and
	// translated (package sql/mysqldialect); what it rejects is tried in
	// lakesql's dialect, so Iceberg statements (ALTER TABLE … ADD PARTITION
	// FIELD, CALL system.…) work in it too.
	DialectMySQL = "mysql"
)

// dialectSetting is the SET name that switches dialects.
const dialectSetting = "sql_dialect"

// dialect is the session's dialect and, for MySQL's, the connection's
// system variables.
type dialect struct {
	name         string // "" for DialectLakesql
	vars         *mysqldialect.Variables
	user         string
	connectionID uint32
}

func (d *dialect) set(name string) error {
	switch strings.ToLower(strings.TrimSpace(name)) {
	case DialectLakesql:
		d.name = ""
	case DialectMySQL:
		d.name = DialectMySQL
	default:
		return fmt.Errorf("unknown SQL dialect %q (dialects: lakesql, mysql)", name)
	}
	return nil
}

// setStatement runs SET sql_dialect = 'lakesql' | 'mysql', or shows it.
func (d *dialect) setStatement(st *sql.Set) (*Result, error) {
	if st.Show {
		return engine.TextRows([]string{"name", "value", "description"},
			[][]string{{dialectSetting, d.current(), "the SQL dialect of statements: lakesql or mysql"}}), nil
	}
	if err := d.set(st.Value); err != nil {
		return nil, err
	}
	return engine.Message("OK"), nil
}

func (d *dialect) current() string {
	if d.name == "" {
		return DialectLakesql
	}
	return d.name
}

// parse parses one statement in the session's dialect. A nil statement
// with a nil error means the statement was done while translating it (SET
// of MySQL system variables, BEGIN, COMMIT).
func (s *Session) parse(text string, args []any) (sql.Statement, error) {
	if s.dialect.name != DialectMySQL {
		if len(args) > 0 {
			return nil, errors.New("statement parameters (?) need the MySQL dialect")
		}
		return sql.ParseOne(text)
	}
	mysql := s.parseMySQL(text, args)
	if mysql.err == nil {
		return mysql.stmt, nil
	}
	if !mysql.fallback || len(args) > 0 {
		return nil, mysql.err
	}
	stmt, err := sql.ParseOne(text)
	if err != nil {
		// The statement is in neither dialect; the MySQL error is the
		// one a MySQL client's user can act on.
		return nil, mysql.err
	}
	return stmt, nil
}

// mysqlParse is the outcome of the MySQL front end: a statement, or an
// error and whether lakesql's own parser should try.
type mysqlParse struct {
	stmt     sql.Statement
	err      error
	fallback bool
}

func (s *Session) parseMySQL(text string, args []any) mysqlParse {
	st, err := mysqldialect.Parse(text)
	if err != nil {
		return mysqlParse{err: err, fallback: true}
	}
	env := &mysqldialect.Env{Vars: s.dialect.vars, Namespace: s.engine.Namespace(),
		User: s.dialect.user, ConnectionID: s.dialect.connectionID, Args: args}
	stmt, err := st.Translate(env)
	if err != nil {
		return mysqlParse{err: err, fallback: errors.Is(err, mysqldialect.ErrUnsupported)}
	}
	return mysqlParse{stmt: stmt}
}

// ResultColumns binds a MySQL-dialect query whose params ? markers are
// unknown yet (a statement being prepared) and returns its result's
// columns, without running it. The schema is nil for statements that are
// not queries, and for queries whose columns depend on the arguments.
func (s *Session) ResultColumns(ctx context.Context, statement string, params int) *arrow.Schema {
	st, err := mysqldialect.Parse(statement)
	if err != nil || !st.IsQuery() {
		return nil
	}
	env := &mysqldialect.Env{Vars: s.dialect.vars, Namespace: s.engine.Namespace(),
		User: s.dialect.user, ConnectionID: s.dialect.connectionID, Args: make([]any, params)}
	stmt, err := st.Translate(env)
	q, ok := stmt.(*sql.QueryStmt)
	if err != nil || !ok {
		return nil
	}
	p, err := planner.BindQuery(s.engine.Context(ctx), s.engine, q.Query)
	if err != nil {
		return nil
	}
	return exec.ArrowSchema(p.Schema())
}
