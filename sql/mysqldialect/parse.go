// Package mysqldialect is the MySQL-dialect front end of lakesql: statements
// that MySQL clients and BI tools send (backquoted names, LIMIT o, n, IFNULL,
// @@session variables, SHOW FULL COLUMNS, SET NAMES …) are parsed by the TiDB
// parser and translated into lakesql's AST (package sql), which the engine
// plans like any other statement. lakesql's own parser stays the parser of
// its Spark/Iceberg dialect; callers fall back to it for what TiDB rejects.
package mysqldialect

import (
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/pingcap/tidb/pkg/parser"
	"github.com/pingcap/tidb/pkg/parser/ast"
	_ "github.com/pingcap/tidb/pkg/parser/test_driver" // value expressions (literals, ? markers)

	"github.com/lakesql/lakesql/sql"
)

// ErrUnsupported is the kind of error of a statement the TiDB parser reads
// but lakesql cannot translate; callers try lakesql's own parser next.
var ErrUnsupported = errors.New("not supported in the MySQL dialect")

// Statement is one statement parsed by the TiDB parser, ready to translate.
type Statement struct {
	node ast.StmtNode
	text string // the text it was parsed from, for positions
}

// Parse parses text holding one statement, optionally followed by ';'. Its
// errors are TiDB's syntax errors, one line, with line and column.
func Parse(text string) (*Statement, error) {
	p := parser.New()
	p.EnableWindowFunc(true)
	nodes, _, err := p.Parse(text, "utf8mb4", "")
	if err != nil {
		return nil, syntaxError(err)
	}
	switch len(nodes) {
	case 0:
		return nil, fmt.Errorf("%w at line 1, column 1: empty statement", sql.ErrSyntax)
	case 1:
		return &Statement{node: nodes[0], text: text}, nil
	}
	pos := positionOf(text, nodes[1].OriginTextPosition())
	return nil, fmt.Errorf("%w at line %d, column %d: one statement expected, found another", sql.ErrSyntax, pos.Line, pos.Col)
}

// tidbPosition matches the position in TiDB's syntax errors
// ("line 1 column 14 near …").
var tidbPosition = regexp.MustCompile(`line (\d+) column (\d+) near "(.*)"`)

// syntaxError rewrites TiDB's "[parser:1064]You have an error in your SQL
// syntax; … line 1 column 14 near "x" " as lakesql writes syntax errors.
func syntaxError(err error) error {
	msg := err.Error()
	m := tidbPosition.FindStringSubmatch(msg)
	if m == nil {
		if i := strings.Index(msg, "]"); i >= 0 {
			msg = msg[i+1:]
		}
		return fmt.Errorf("%w: %s", sql.ErrSyntax, strings.TrimSpace(msg))
	}
	near := m[3]
	if len(near) > 40 {
		near = near[:40] + "…"
	}
	if near == "" {
		return fmt.Errorf("%w at line %s, column %s: unexpected end of statement", sql.ErrSyntax, m[1], m[2])
	}
	return fmt.Errorf("%w at line %s, column %s near %q", sql.ErrSyntax, m[1], m[2], near)
}

// positionOf turns a byte offset into text into a 1-based line and column.
func positionOf(text string, offset int) sql.Pos {
	offset = min(max(offset, 0), len(text))
	before := text[:offset]
	line := strings.Count(before, "\n") + 1
	col := offset - strings.LastIndexByte(before, '\n')
	return sql.Pos{Line: line, Col: col}
}

// unsupported is the error of a construct lakesql does not translate, at
// the node that holds it.
func (t *translator) unsupported(n ast.Node, what string) error {
	pos := t.pos(n)
	return fmt.Errorf("line %d, column %d: %s is %w", pos.Line, pos.Col, what, ErrUnsupported)
}

// errorAt is an error about node n that is not a missing feature.
func (t *translator) errorAt(n ast.Node, format string, args ...any) error {
	pos := t.pos(n)
	return fmt.Errorf("line %d, column %d: %s", pos.Line, pos.Col, fmt.Sprintf(format, args...))
}

// pos is where node n starts. TiDB's parser records the offsets of
// expressions only; other nodes (tables, joins, clauses) report the start
// of the statement.
func (t *translator) pos(n ast.Node) sql.Pos {
	if n == nil {
		return sql.Pos{Line: 1, Col: 1}
	}
	return positionOf(t.text, n.OriginTextPosition())
}

// Kill recognizes KILL [CONNECTION | QUERY] id, which the server carries
// out rather than a session: ok is false for any other statement.
func (s *Statement) Kill() (id uint64, queryOnly, ok bool) {
	k, ok := s.node.(*ast.KillStmt)
	if !ok {
		return 0, false, false
	}
	return k.ConnectionID, k.Query, true
}

// IsQuery reports whether the statement returns rows without changing
// anything: SELECT, a set operation or SHOW. Only these are described when
// prepared, since translating others (SET) would apply them.
func (s *Statement) IsQuery() bool {
	switch s.node.(type) {
	case *ast.SelectStmt, *ast.SetOprStmt, *ast.ShowStmt:
		return true
	}
	return false
}
