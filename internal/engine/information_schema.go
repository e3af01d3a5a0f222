package engine

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/iceberg-go/table"

	"github.com/lakesql/lakesql/exec"
	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/sql"
	"github.com/lakesql/lakesql/sql/mysqldialect"
)

// InformationSchema is the namespace of the SQL-standard catalog views that
// MySQL clients and BI tools query on connect (Metabase, Grafana, DBeaver,
// Tableau): namespaces appear as databases (SCHEMATA), tables and views
// with their columns (TABLES, COLUMNS, VIEWS), and indexes (STATISTICS,
// always empty: Iceberg tables have none).
const InformationSchema = "information_schema"

// infoColumn is a column of an information_schema table: text or a number.
type infoColumn struct {
	name   string
	number bool
}

// infoTable is one information_schema table and how its rows are listed.
type infoTable struct {
	name    string
	columns []infoColumn
	rows    func(s *Session, ctx context.Context) ([][]any, error)
}

func text(names ...string) []infoColumn {
	cols := make([]infoColumn, len(names))
	for i, n := range names {
		cols[i] = infoColumn{name: n}
	}
	return cols
}

func number(name string) infoColumn { return infoColumn{name: name, number: true} }

// infoTables are the tables of information_schema, in the order errors list
// them; set in init because TABLES lists them.
var infoTables []infoTable

func init() {
	infoTables = []infoTable{
		{"schemata", text("catalog_name", "schema_name", "default_character_set_name", "default_collation_name", "sql_path"), (*Session).schemataRows},
		{"tables", slices.Concat(text("table_catalog", "table_schema", "table_name", "table_type", "engine"),
			[]infoColumn{number("version")}, text("row_format"), []infoColumn{number("table_rows"), number("data_length")},
			text("create_time", "update_time", "table_collation", "table_comment")), (*Session).tablesRows},
		{"columns", slices.Concat(text("table_catalog", "table_schema", "table_name", "column_name"),
			[]infoColumn{number("ordinal_position")}, text("column_default", "is_nullable", "data_type"),
			[]infoColumn{number("character_maximum_length"), number("numeric_precision"), number("numeric_scale"), number("datetime_precision")},
			text("character_set_name", "collation_name", "column_type", "column_key", "extra", "privileges", "column_comment")), (*Session).columnsRows},
		{"views", text("table_catalog", "table_schema", "table_name", "view_definition", "check_option", "is_updatable",
			"definer", "security_type", "character_set_client", "collation_connection"), (*Session).viewsRows},
		{"statistics", slices.Concat(text("table_catalog", "table_schema", "table_name"), []infoColumn{number("non_unique")},
			text("index_schema", "index_name"), []infoColumn{number("seq_in_index")}, text("column_name", "collation"),
			[]infoColumn{number("cardinality"), number("sub_part")}, text("packed", "nullable", "index_type", "comment", "index_comment")),
			func(*Session, context.Context) ([][]any, error) { return nil, nil }},
	}
}

// resolveInformationSchema binds information_schema.t (any case), reading
// the catalog when the query is planned; ok is false for other names.
func (s *Session) resolveInformationSchema(ctx context.Context, name sql.ObjectName) (rows *planner.Rows, ok bool, err error) {
	parts := name.Parts
	if len(parts) == 3 && strings.EqualFold(parts[0], s.opts.Catalog) {
		parts = parts[1:]
	}
	if len(parts) != 2 || !strings.EqualFold(parts[0], InformationSchema) {
		return nil, false, nil
	}
	i := slices.IndexFunc(infoTables, func(t infoTable) bool { return strings.EqualFold(t.name, parts[1]) })
	if i < 0 {
		names := make([]string, len(infoTables))
		for j, t := range infoTables {
			names[j] = t.name
		}
		return nil, true, fmt.Errorf("line %d, column %d: unknown table %s.%s (information_schema has %s)",
			name.Pos.Line, name.Pos.Col, InformationSchema, parts[1], strings.Join(names, ", "))
	}
	info := infoTables[i]
	values, err := info.rows(s, ctx)
	if err != nil {
		return nil, true, fmt.Errorf("%s.%s: %w", InformationSchema, info.name, err)
	}
	return info.build(values), true, nil
}

// build turns rows of Go values (string, int64 or nil) into one batch.
func (t infoTable) build(values [][]any) *planner.Rows {
	cols := make([]planner.Column, len(t.columns))
	for i, c := range t.columns {
		cols[i] = planner.Column{Name: c.name, T: planner.TypeVarchar}
		if c.number {
			cols[i].T = planner.TypeBigint
		}
	}
	schema := exec.ArrowSchema(cols)
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	for _, row := range values {
		for i, v := range row {
			switch v := v.(type) {
			case nil:
				b.Field(i).AppendNull()
			case string:
				b.Field(i).(*array.StringBuilder).Append(v)
			case int64:
				b.Field(i).(*array.Int64Builder).Append(v)
			}
		}
	}
	batch := b.NewRecordBatch()
	return &planner.Rows{Name: InformationSchema + "." + t.name, Qualifier: t.name, Columns: cols, Batches: []arrow.RecordBatch{batch}}
}

// namespaces lists the namespaces, information_schema itself first as MySQL does.
func (s *Session) namespaces(ctx context.Context) ([]string, error) {
	nss, err := s.wh.Namespaces(ctx)
	return append([]string{InformationSchema}, nss...), err
}

func (s *Session) schemataRows(ctx context.Context) ([][]any, error) {
	nss, err := s.namespaces(ctx)
	if err != nil {
		return nil, err
	}
	rows := make([][]any, len(nss))
	for i, ns := range nss {
		rows[i] = []any{"def", ns, "utf8mb4", "utf8mb4_0900_ai_ci", nil}
	}
	return rows, nil
}

// infoTableNames are information_schema's own tables, listed as system views.
func infoTableNames() []string {
	names := make([]string, len(infoTables))
	for i, t := range infoTables {
		names[i] = strings.ToUpper(t.name)
	}
	return names
}

func (s *Session) tablesRows(ctx context.Context) ([][]any, error) {
	var rows [][]any
	for _, name := range infoTableNames() {
		rows = append(rows, []any{"def", InformationSchema, name, "SYSTEM VIEW", nil, nil, nil, nil, nil, nil, nil, "utf8mb4_0900_ai_ci", ""})
	}
	err := s.eachTable(ctx, func(ns, name string, tbl *table.Table) {
		var rowCount, size any
		var updated any
		if snap := tbl.CurrentSnapshot(); snap != nil {
			if snap.Summary != nil {
				rowCount = summaryNumber(snap.Summary.Properties, "total-records")
				size = summaryNumber(snap.Summary.Properties, "total-files-size")
			}
			updated = formatMillis(snap.TimestampMs)
		}
		comment, _ := tbl.Properties()["comment"]
		rows = append(rows, []any{"def", ns, name, "BASE TABLE", "Iceberg", int64(tbl.Metadata().Version()), "Dynamic",
			rowCount, size, nil, updated, "utf8mb4_0900_ai_ci", comment})
	})
	if err != nil {
		return nil, err
	}
	err = s.eachView(ctx, func(ns, name, _ string) {
		rows = append(rows, []any{"def", ns, name, "VIEW", nil, nil, nil, nil, nil, nil, nil, nil, "VIEW"})
	})
	return rows, err
}

// formatMillis is a snapshot time as MySQL's DATETIME text, in UTC.
func formatMillis(ms int64) string {
	return time.UnixMilli(ms).UTC().Format(time.DateTime)
}

func summaryNumber(props map[string]string, key string) any {
	n, err := strconv.ParseInt(props[key], 10, 64)
	if err != nil {
		return nil
	}
	return n
}

func (s *Session) columnsRows(ctx context.Context) ([][]any, error) {
	var rows [][]any
	err := s.eachTable(ctx, func(ns, name string, tbl *table.Table) {
		for i, f := range tbl.Schema().Fields() {
			t, err := planner.ArrowTypeOf(f.Type)
			if err != nil {
				t = arrow.Null // a type lakesql cannot read yet still lists its column
			}
			nullable := "YES"
			if f.Required {
				nullable = "NO"
			}
			rows = append(rows, columnRow(ns, name, f.Name, i+1, nullable, t, f.Doc))
		}
	})
	if err != nil {
		return nil, err
	}
	err = s.eachView(ctx, func(ns, name, _ string) {
		// A view's column types are those of its planned query; a view
		// that no longer plans (a dropped table) lists no columns.
		star := &sql.Select{Items: []sql.SelectItem{{Expr: &sql.Star{}}},
			From: &sql.TableName{Name: sql.ObjectName{Parts: []string{ns, name}}}}
		p, err := s.Plan(ctx, &sql.Query{Body: star})
		if err != nil {
			return
		}
		for i, c := range p.Schema() {
			rows = append(rows, columnRow(ns, name, c.Name, i+1, "YES", c.T, ""))
		}
	})
	return rows, err
}

// columnRow is one row of information_schema.columns.
func columnRow(ns, tableName, column string, ordinal int, nullable string, t arrow.DataType, comment string) []any {
	mt := mysqldialect.TypeOf(t)
	var maxLen, precision, scale, timePrecision, charset, collation any
	switch mt.Name {
	case "longtext", "char":
		maxLen, charset, collation = int64(4294967295), "utf8mb4", "utf8mb4_0900_ai_ci"
		if mt.Length > 0 {
			maxLen = int64(mt.Length)
		}
	case "longblob", "binary":
		maxLen = int64(4294967295)
		if mt.Length > 0 {
			maxLen = int64(mt.Length)
		}
	case "decimal":
		precision, scale = int64(mt.Precision), int64(mt.Scale)
	case "tinyint", "smallint", "int", "bigint":
		precision, scale = int64(map[string]int{"tinyint": 3, "smallint": 5, "int": 10, "bigint": 19}[mt.Name]), int64(0)
	case "float":
		precision = int64(12)
	case "double":
		precision = int64(22)
	case "datetime", "time":
		timePrecision = int64(mt.Scale)
	}
	return []any{"def", ns, tableName, column, int64(ordinal), nil, nullable, mt.Name, maxLen, precision, scale, timePrecision,
		charset, collation, mt.Column, "", "", "select", comment}
}

func (s *Session) viewsRows(ctx context.Context) ([][]any, error) {
	var rows [][]any
	err := s.eachView(ctx, func(ns, name, definition string) {
		rows = append(rows, []any{"def", ns, name, definition, "NONE", "NO", "lakesql@%", "DEFINER", "utf8mb4", "utf8mb4_0900_ai_ci"})
	})
	return rows, err
}

// eachTable calls f for every table of every namespace, in order. A table
// whose metadata cannot be read is skipped: one broken table must not hide
// the catalog from a client's schema browser.
func (s *Session) eachTable(ctx context.Context, f func(ns, name string, tbl *table.Table)) error {
	nss, err := s.wh.Namespaces(ctx)
	if err != nil {
		return err
	}
	for _, ns := range nss {
		names, err := s.wh.Tables(ctx, ns)
		if err != nil {
			return err
		}
		for _, name := range names {
			if tbl, err := s.wh.LoadTable(ctx, ns, name); err == nil {
				f(ns, name, tbl)
			}
		}
	}
	return nil
}

// eachView calls f for every view of every namespace with its SQL text.
func (s *Session) eachView(ctx context.Context, f func(ns, name, definition string)) error {
	nss, err := s.wh.Namespaces(ctx)
	if err != nil {
		return err
	}
	for _, ns := range nss {
		names, err := s.wh.Views(ctx, ns)
		if err != nil {
			return err
		}
		for _, name := range names {
			v, err := s.wh.LoadView(ctx, ns, name)
			if err != nil || v == nil {
				continue
			}
			f(ns, name, v.SQL)
		}
	}
	return nil
}
