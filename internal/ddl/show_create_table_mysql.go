package ddl

import (
	"fmt"
	"strings"

	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/table"

	"github.com/lakesql/lakesql/internal/engine"
	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/sql/mysqldialect"
)

// showCreateTableMySQL is MySQL's SHOW CREATE TABLE: one row of Table and
// Create Table, the DDL with backquoted names and the MySQL column types
// the wire and information_schema give (mysqldialect.TypeOf), which MySQL
// clients (DBeaver, the mysql client) read. The partition spec, which
// MySQL's DDL cannot say, follows as a comment.
func showCreateTableMySQL(tbl *table.Table) (*engine.Result, error) {
	name := tbl.Identifier()[len(tbl.Identifier())-1]
	var b strings.Builder
	fmt.Fprintf(&b, "CREATE TABLE %s (\n", backquote(name))
	writeColumns(&b, tbl.Schema().Fields(), func(f iceberg.NestedField) string {
		column := "json" // a type lakesql cannot read yet
		if t, err := planner.ArrowTypeOf(f.Type); err == nil {
			column = mysqldialect.TypeOf(t).Column
		}
		if f.Required {
			return backquote(f.Name) + " " + column + " NOT NULL"
		}
		return backquote(f.Name) + " " + column + " DEFAULT NULL"
	})
	b.WriteString(") ENGINE=Iceberg DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_ai_ci")
	if partitions := partitionFieldsText(tbl); partitions != "" {
		fmt.Fprintf(&b, "\n/* PARTITIONED BY (%s) */", partitions)
	}
	return engine.TextRows([]string{"Table", "Create Table"}, [][]string{{name, b.String()}}), nil
}

// backquote quotes a MySQL identifier.
func backquote(s string) string { return "`" + strings.ReplaceAll(s, "`", "``") + "`" }
