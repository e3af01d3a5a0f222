package ddl

import (
	"fmt"
	"strings"

	"github.com/apache/iceberg-go/table"

	"github.com/lakesql/lakesql/internal/engine"
	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/sql/mysqldialect"
	"github.com/lakesql/lakesql/storage"
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
	fields := tbl.Schema().Fields()
	for i, f := range fields {
		column := "json" // a type lakesql cannot read yet
		if t, err := planner.ArrowTypeOf(f.Type); err == nil {
			column = mysqldialect.TypeOf(t).Column
		}
		fmt.Fprintf(&b, "  %s %s", backquote(f.Name), column)
		if f.Required {
			b.WriteString(" NOT NULL")
		} else {
			b.WriteString(" DEFAULT NULL")
		}
		if f.Doc != "" {
			fmt.Fprintf(&b, " COMMENT %s", quoteString(f.Doc))
		}
		if i < len(fields)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString(") ENGINE=Iceberg DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_ai_ci")
	if spec := tbl.Spec(); spec.NumFields() > 0 {
		parts := make([]string, 0, spec.NumFields())
		for _, pf := range spec.Fields() {
			parts = append(parts, storage.PartitionFieldText(tbl.Schema(), pf))
		}
		fmt.Fprintf(&b, "\n/* PARTITIONED BY (%s) */", strings.Join(parts, ", "))
	}
	return engine.TextRows([]string{"Table", "Create Table"}, [][]string{{name, b.String()}}), nil
}

// backquote quotes a MySQL identifier.
func backquote(s string) string { return "`" + strings.ReplaceAll(s, "`", "``") + "`" }
