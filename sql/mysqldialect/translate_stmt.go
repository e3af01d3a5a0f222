package mysqldialect

import (
	"fmt"
	"slices"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	driver "github.com/pingcap/tidb/pkg/parser/test_driver"

	"github.com/lakesql/lakesql/sql"
)

// Env is what translation reads from the session.
type Env struct {
	// Vars are the connection's system variables (@@name, SHOW VARIABLES, SET).
	Vars *Variables
	// Namespace is the current namespace, the MySQL database (DATABASE()).
	Namespace string
	// User is the connected user (USER(), CURRENT_USER()).
	User string
	// ConnectionID answers CONNECTION_ID().
	ConnectionID uint32
	// Args are the values of the ? markers of a prepared statement, in
	// order: nil, bool, int64, uint64, float64, string, []byte, or Typed.
	Args []any
}

// translator translates one statement.
type translator struct {
	text string
	env  *Env
	// params numbers the ? markers by their offsets in the text: TiDB's
	// parser leaves their Order to its planner.
	params map[int]int
	// windows are the named windows of the SELECT block being translated,
	// by lower-case name.
	windows map[string]*sql.WindowSpec
}

// Translate turns the statement into lakesql's AST. A SET of MySQL system
// variables (SET NAMES, SET autocommit = 1, SET @@session.x = …) is applied
// to env.Vars and returns a nil statement: there is nothing left to run.
// Errors wrapping ErrUnsupported mean lakesql's own parser may do better.
func (s *Statement) Translate(env *Env) (sql.Statement, error) {
	t := &translator{text: s.text, env: env, params: map[int]int{}}
	for i, off := range s.paramOffsets() {
		t.params[off] = i
	}
	return t.statement(s.node)
}

// ParamCount is the number of ? markers of the statement.
func (s *Statement) ParamCount() int { return len(s.paramOffsets()) }

// paramOffsets are the offsets of the ? markers, in order.
func (s *Statement) paramOffsets() []int {
	v := &paramCollector{}
	s.node.Accept(v)
	slices.Sort(v.offsets)
	return v.offsets
}

type paramCollector struct{ offsets []int }

func (v *paramCollector) Enter(n ast.Node) (ast.Node, bool) {
	if p, ok := n.(*driver.ParamMarkerExpr); ok {
		v.offsets = append(v.offsets, p.Offset)
	}
	return n, false
}

func (v *paramCollector) Leave(n ast.Node) (ast.Node, bool) { return n, true }

func (t *translator) statement(n ast.StmtNode) (sql.Statement, error) {
	switch st := n.(type) {
	case *ast.SelectStmt, *ast.SetOprStmt:
		q, err := t.query(st.(ast.ResultSetNode))
		if err != nil {
			return nil, err
		}
		return &sql.QueryStmt{Query: q}, nil
	case *ast.ExplainStmt:
		return t.explain(st)
	case *ast.UseStmt:
		return &sql.Use{Name: sql.ObjectName{Parts: []string{st.DBName}, Pos: t.pos(st)}, Pos: t.pos(st)}, nil
	case *ast.SetStmt:
		return t.set(st)
	case *ast.ShowStmt:
		return t.show(st)
	case *ast.InsertStmt:
		return t.insert(st)
	case *ast.DeleteStmt:
		return t.delete(st)
	case *ast.UpdateStmt:
		return t.update(st)
	case *ast.CreateDatabaseStmt:
		return &sql.CreateNamespace{Name: t.objectName("", st.Name.O, st), IfNotExists: st.IfNotExists, Pos: t.pos(st)}, nil
	case *ast.DropDatabaseStmt:
		return &sql.DropNamespace{Name: t.objectName("", st.Name.O, st), IfExists: st.IfExists, Pos: t.pos(st)}, nil
	case *ast.DropTableStmt:
		return t.dropTable(st)
	case *ast.TruncateTableStmt:
		return &sql.TruncateTable{Name: t.tableName(st.Table), Pos: t.pos(st)}, nil
	case *ast.CreateTableStmt:
		return t.createTable(st)
	case *ast.BeginStmt, *ast.CommitStmt, *ast.RollbackStmt:
		// Every lakesql statement commits on its own; clients that wrap
		// reads in a transaction (DBeaver, JDBC with autocommit off, pools
		// that roll back a returned connection) still need these to
		// succeed. ROLLBACK undoes nothing (README says so).
		return nil, nil
	}
	return nil, t.unsupported(n, statementKind(n))
}

// statementKind names a statement for errors: "CreateIndexStmt" → "CREATE INDEX".
func statementKind(n ast.StmtNode) string {
	name := strings.TrimSuffix(strings.TrimPrefix(fmt.Sprintf("%T", n), "*ast."), "Stmt")
	var b strings.Builder
	for i, r := range name {
		if i > 0 && r >= 'A' && r <= 'Z' {
			b.WriteByte(' ')
		}
		b.WriteRune(r)
	}
	return "statement " + strings.ToUpper(b.String())
}

func (t *translator) explain(st *ast.ExplainStmt) (sql.Statement, error) {
	if st.Format != "" && !strings.EqualFold(st.Format, "row") && !strings.EqualFold(st.Format, "brief") {
		return nil, t.unsupported(st, "EXPLAIN FORMAT = "+st.Format)
	}
	if show, ok := st.Stmt.(*ast.ShowStmt); ok && show.Tp == ast.ShowColumns {
		// DESCRIBE t and EXPLAIN t are SHOW COLUMNS FROM t.
		return t.show(show)
	}
	inner, err := t.statement(st.Stmt)
	if err != nil {
		return nil, err
	}
	return &sql.Explain{Analyze: st.Analyze, Stmt: inner, Pos: t.pos(st)}, nil
}

// objectName is [schema.]name.
func (t *translator) objectName(schema, name string, n ast.Node) sql.ObjectName {
	parts := []string{name}
	if schema != "" {
		parts = []string{schema, name}
	}
	return sql.ObjectName{Parts: parts, Pos: t.pos(n)}
}

func (t *translator) tableName(tn *ast.TableName) sql.ObjectName {
	return t.objectName(tn.Schema.O, tn.Name.O, tn)
}

func (t *translator) dropTable(st *ast.DropTableStmt) (sql.Statement, error) {
	if len(st.Tables) != 1 {
		return nil, t.unsupported(st, "DROP TABLE of several tables")
	}
	if st.IsView {
		return nil, t.unsupported(st, "DROP VIEW")
	}
	return &sql.DropTable{Name: t.tableName(st.Tables[0]), IfExists: st.IfExists, Pos: t.pos(st)}, nil
}
