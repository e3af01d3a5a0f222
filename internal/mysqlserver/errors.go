package mysqlserver

import (
	"context"
	"errors"

	"github.com/dolthub/vitess/go/mysql"

	"github.com/lakesql/lakesql"
	"github.com/lakesql/lakesql/catalog"
	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/sql"
	"github.com/lakesql/lakesql/sql/mysqldialect"
)

// errorCodes give lakesql's kinds of errors MySQL's error numbers and
// SQLSTATEs, which clients and drivers branch on (a 1146 is "table not
// found" to every ORM). The first kind that matches wins.
var errorCodes = []struct {
	kind  error
	code  int
	state string
}{
	{sql.ErrSyntax, mysql.ERParseError, "42000"},
	{mysqldialect.ErrUnsupported, mysql.ERNotSupportedYet, "42000"},
	{mysqldialect.ErrNoDatabase, mysql.ERNoDb, "3D000"},
	{catalog.ErrNoSuchTable, mysql.ERNoSuchTable, "42S02"},
	{catalog.ErrNoSuchNamespace, mysql.ERBadDb, "42000"},
	{catalog.ErrTableExists, mysql.ERTableExists, "42S01"},
	{catalog.ErrNamespaceExists, mysql.ERDbCreateExists, "HY000"},
	{planner.ErrUnknownColumn, mysql.ERBadFieldError, "42S22"},
	{planner.ErrAmbiguousColumn, 1052, "23000"}, // ER_NON_UNIQ_ERROR
	{planner.ErrUnknownFunction, 1305, "42000"}, // ER_SP_DOES_NOT_EXIST
	{planner.ErrType, mysql.ERWrongArguments, "HY000"},
	{lakesql.ErrStatementTimeout, mysql.ERQueryTimeout, "HY000"},
	{context.Canceled, mysql.ERQueryInterrupted, "70100"},
}

// sqlError is err as a MySQL error packet: its one-line message with the
// error number and SQLSTATE of its kind, else 1105 (unknown error), HY000.
func sqlError(err error) error {
	var sqlErr *mysql.SQLError
	if errors.As(err, &sqlErr) {
		return sqlErr
	}
	for _, c := range errorCodes {
		if errors.Is(err, c.kind) {
			return mysql.NewSQLError(c.code, c.state, "%s", err.Error())
		}
	}
	return mysql.NewSQLError(mysql.ERUnknownError, mysql.SSUnknownSQLState, "%s", err.Error())
}
