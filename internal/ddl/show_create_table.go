package ddl

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/table"

	"github.com/lakesql/lakesql/internal/engine"
	"github.com/lakesql/lakesql/sql"
	"github.com/lakesql/lakesql/storage"
)

// ShowCreateTable runs SHOW CREATE TABLE t.
func ShowCreateTable(ctx context.Context, s *engine.Session, st *sql.ShowCreateTable) (*engine.Result, error) {
	tbl, qualified, err := s.LoadTable(ctx, st.Name)
	if err != nil {
		return nil, err
	}
	if st.MySQL {
		return showCreateTableMySQL(tbl)
	}
	return engine.TextRows([]string{"create_statement"}, [][]string{{CreateTableText(tbl, qualified)}}), nil
}

// CreateTableText is the CREATE TABLE statement that makes a table like tbl
// named name: its columns, partitioning and properties.
func CreateTableText(tbl *table.Table, name string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "CREATE TABLE %s (\n", name)
	writeColumns(&b, tbl.Schema().Fields(), func(f iceberg.NestedField) string {
		column := sql.QuoteIdent(f.Name) + " " + sqlTypeName(f.Type)
		if f.Required {
			column += " NOT NULL"
		}
		return column
	})
	b.WriteString(")")
	if partitions := partitionFieldsText(tbl); partitions != "" {
		fmt.Fprintf(&b, "\nPARTITIONED BY (%s)", partitions)
	}
	var props []string
	for k, v := range tbl.Properties() {
		props = append(props, fmt.Sprintf("%s = %s", quoteString(k), quoteString(v)))
	}
	if len(props) > 0 {
		slices.Sort(props)
		fmt.Fprintf(&b, "\nTBLPROPERTIES (%s)", strings.Join(props, ", "))
	}
	return b.String()
}

// writeColumns writes the column lines of a CREATE TABLE: each field as
// column renders it, then its comment, comma-separated.
func writeColumns(b *strings.Builder, fields []iceberg.NestedField, column func(iceberg.NestedField) string) {
	for i, f := range fields {
		b.WriteString("  " + column(f))
		if f.Doc != "" {
			fmt.Fprintf(b, " COMMENT %s", quoteString(f.Doc))
		}
		if i < len(fields)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
}

// partitionFieldsText is the table's partition fields as PARTITIONED BY
// lists them ("" when unpartitioned).
func partitionFieldsText(tbl *table.Table) string {
	spec := tbl.Spec()
	var parts []string
	for _, pf := range spec.Fields() {
		parts = append(parts, storage.PartitionFieldText(tbl.Schema(), pf))
	}
	return strings.Join(parts, ", ")
}

func quoteString(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }
