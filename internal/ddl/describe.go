package ddl

import (
	"context"
	"fmt"
	"strings"

	"github.com/apache/iceberg-go"

	"github.com/lakesql/lakesql/internal/engine"
	"github.com/lakesql/lakesql/sql"
	"github.com/lakesql/lakesql/storage"
)

// Describe runs DESCRIBE t (columns), DESCRIBE HISTORY and DESCRIBE DETAIL.
func Describe(ctx context.Context, s *engine.Session, st *sql.Describe) (*engine.Result, error) {
	switch st.Kind {
	case "HISTORY":
		return describeHistory(ctx, s, st)
	case "DETAIL":
		return describeDetail(ctx, s, st)
	}
	if v, err := s.ResolveView(ctx, st.Name); err != nil || v != nil {
		if err != nil {
			return nil, err
		}
		return describeView(ctx, s, v)
	}
	tbl, _, err := s.LoadTable(ctx, st.Name)
	if err != nil {
		return nil, err
	}
	var rows [][]string
	for _, f := range tbl.Schema().Fields() {
		null := "YES"
		if f.Required {
			null = "NO"
		}
		rows = append(rows, []string{f.Name, sqlTypeName(f.Type), null, f.Doc})
	}
	spec := tbl.Spec()
	for _, pf := range spec.Fields() {
		rows = append(rows, []string{"# partition", storage.PartitionFieldText(tbl.Schema(), pf), "", pf.Name})
	}
	return engine.TextRows([]string{"column", "type", "nullable", "comment"}, rows), nil
}

// sqlTypeName prints an Iceberg type as the SQL type CREATE TABLE accepts.
func sqlTypeName(t iceberg.Type) string {
	switch t := t.(type) {
	case iceberg.Int32Type:
		return "INT"
	case iceberg.Int64Type:
		return "BIGINT"
	case iceberg.Float32Type:
		return "FLOAT"
	case iceberg.Float64Type:
		return "DOUBLE"
	case iceberg.DecimalType:
		return fmt.Sprintf("DECIMAL(%d,%d)", t.Precision(), t.Scale())
	case iceberg.TimestampTzType:
		return "TIMESTAMPTZ"
	case iceberg.FixedType:
		return fmt.Sprintf("FIXED(%d)", t.Len())
	case *iceberg.ListType:
		return "ARRAY<" + sqlTypeName(t.Element) + notNull(t.ElementRequired) + ">"
	case *iceberg.MapType:
		return "MAP<" + sqlTypeName(t.KeyType) + ", " + sqlTypeName(t.ValueType) + notNull(t.ValueRequired) + ">"
	case *iceberg.StructType:
		fields := make([]string, len(t.FieldList))
		for i, f := range t.FieldList {
			fields[i] = sql.QuoteIdent(f.Name) + ": " + sqlTypeName(f.Type) + notNull(f.Required)
		}
		return "STRUCT<" + strings.Join(fields, ", ") + ">"
	}
	return strings.ToUpper(t.String())
}

func notNull(required bool) string {
	if required {
		return " NOT NULL"
	}
	return ""
}
