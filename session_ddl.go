package lakesql

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/table"

	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/sql"
	"github.com/lakesql/lakesql/storage"
)

func (s *Session) createNamespace(ctx context.Context, st *sql.CreateNamespace) (*Result, error) {
	ns, err := s.namespaceName(st.Name)
	if err != nil {
		return nil, err
	}
	if err := s.wh.CreateNamespace(ctx, ns, st.IfNotExists); err != nil {
		return nil, err
	}
	return message("OK"), nil
}

func (s *Session) dropNamespace(ctx context.Context, st *sql.DropNamespace) (*Result, error) {
	ns, err := s.namespaceName(st.Name)
	if err != nil {
		return nil, err
	}
	if err := s.wh.DropNamespace(ctx, ns, st.IfExists, st.Cascade); err != nil {
		return nil, err
	}
	if s.namespace == ns {
		s.namespace = ""
	}
	return message("OK"), nil
}

func (s *Session) showNamespaces(ctx context.Context) (*Result, error) {
	nss, err := s.wh.Namespaces(ctx)
	if err != nil {
		return nil, err
	}
	rows := make([][]string, len(nss))
	for i, ns := range nss {
		rows[i] = []string{ns}
	}
	return textRows([]string{"namespace"}, rows), nil
}

func (s *Session) use(ctx context.Context, st *sql.Use) (*Result, error) {
	ns, err := s.namespaceName(st.Name)
	if err != nil {
		return nil, err
	}
	exists, err := s.wh.NamespaceExists(ctx, ns)
	if err != nil {
		return nil, err
	}
	if !exists {
		return nil, fmt.Errorf("namespace %s does not exist", ns)
	}
	s.namespace = ns
	return message("OK"), nil
}

// newTableName resolves the name of a table to create: skip reports that
// it exists and IF NOT EXISTS says to do nothing; existing otherwise is an
// error.
func (s *Session) newTableName(ctx context.Context, st *sql.CreateTable) (ns, name string, skip bool, err error) {
	if ns, name, err = s.tableName(st.Name); err != nil {
		return "", "", false, err
	}
	exists, err := s.wh.TableExists(ctx, ns, name)
	switch {
	case err != nil:
		return "", "", false, err
	case exists && st.IfNotExists:
		return ns, name, true, nil
	case exists:
		return "", "", false, fmt.Errorf("table %s.%s already exists", ns, name)
	}
	return ns, name, false, nil
}

func (s *Session) createTable(ctx context.Context, st *sql.CreateTable) (*Result, error) {
	if st.AsQuery != nil {
		return s.createTableAs(ctx, st)
	}
	ns, name, skip, err := s.newTableName(ctx, st)
	if err != nil {
		return nil, err
	}
	if skip {
		return message("OK"), nil
	}
	schema, err := icebergSchema(st.Columns)
	if err != nil {
		return nil, err
	}
	spec, err := partitionSpec(schema, st.PartitionBy)
	if err != nil {
		return nil, err
	}
	props := iceberg.Properties{}
	for _, p := range st.Properties {
		props[p.Key] = p.Value
	}
	if _, err := s.wh.CreateTable(ctx, ns, name, schema, spec, props); err != nil {
		return nil, err
	}
	return message("OK"), nil
}

// icebergSchema builds a table schema from column definitions, numbering
// fields from 1.
func icebergSchema(cols []sql.ColumnDef) (*iceberg.Schema, error) {
	if len(cols) == 0 {
		return nil, fmt.Errorf("CREATE TABLE needs at least one column")
	}
	seen := map[string]bool{}
	fields := make([]iceberg.NestedField, len(cols))
	for i, c := range cols {
		key := strings.ToLower(c.Name)
		if seen[key] {
			return nil, &planner.Error{Pos: c.Pos, Msg: fmt.Sprintf("column %s is defined twice", c.Name)}
		}
		seen[key] = true
		t, err := planner.IcebergType(c.Type)
		if err != nil {
			return nil, err
		}
		fields[i] = iceberg.NestedField{ID: i + 1, Name: c.Name, Type: t, Required: c.NotNull, Doc: c.Comment}
	}
	return iceberg.NewSchema(0, fields...), nil
}

// partitionSpec builds the partition spec of PARTITIONED BY.
func partitionSpec(schema *iceberg.Schema, fields []sql.PartitionField) (iceberg.PartitionSpec, error) {
	var out []iceberg.PartitionField
	names := map[string]bool{}
	for i, f := range fields {
		pf, err := PartitionField(schema, f, 1000+i)
		if err != nil {
			return iceberg.PartitionSpec{}, err
		}
		if names[pf.Name] {
			return iceberg.PartitionSpec{}, &planner.Error{Pos: f.Pos, Msg: fmt.Sprintf("partition field %s appears twice", pf.Name)}
		}
		names[pf.Name] = true
		out = append(out, pf)
	}
	return iceberg.NewPartitionSpec(out...), nil
}

// PartitionField resolves one written partition field against a schema.
func PartitionField(schema *iceberg.Schema, f sql.PartitionField, fieldID int) (iceberg.PartitionField, error) {
	fail := func(format string, args ...any) (iceberg.PartitionField, error) {
		return iceberg.PartitionField{}, &planner.Error{Pos: f.Pos, Msg: fmt.Sprintf(format, args...)}
	}
	src, ok := schema.FindFieldByNameCaseInsensitive(f.Column)
	if !ok {
		return fail("partition column %s does not exist%s", f.Column, columnHint(schema, f.Column))
	}
	text := f.Transform
	switch f.Transform {
	case "bucket", "truncate":
		if f.Param <= 0 {
			return fail("%s needs a positive width, got %d", f.Transform, f.Param)
		}
		text = fmt.Sprintf("%s[%d]", f.Transform, f.Param)
	}
	transform, err := iceberg.ParseTransform(text)
	if err != nil {
		return fail("unknown partition transform %s", f.Transform)
	}
	if !transform.CanTransform(src.Type) {
		return fail("partition transform %s cannot apply to column %s of type %s", f.Transform, src.Name, src.Type)
	}
	pf := iceberg.PartitionField{SourceIDs: []int{src.ID}, FieldID: fieldID, Name: f.Name, Transform: transform}
	// Unnamed fields get iceberg-go's default name (ts_day, id_bucket_16,
	// s_trunc_4, the column for identity), the one ALTER TABLE … ADD
	// PARTITION FIELD gets through UpdateSpec and Spark gives too.
	name, err := iceberg.GeneratePartitionFieldName(schema, pf)
	if err != nil {
		return fail("partition field on %s: %v", src.Name, err)
	}
	pf.Name = name
	return pf, nil
}

// columnHint suggests, for an unknown column name, the nearest column of the
// schema, or lists the columns when there are few.
func columnHint(schema *iceberg.Schema, name string) string {
	var names []string
	for _, f := range schema.Fields() {
		names = append(names, f.Name)
	}
	if best := sql.Closest(name, names); best != "" {
		return fmt.Sprintf(" (did you mean %s?)", best)
	}
	if len(names) <= 12 {
		return " (columns: " + strings.Join(names, ", ") + ")"
	}
	return ""
}

func (s *Session) dropTable(ctx context.Context, st *sql.DropTable) (*Result, error) {
	ns, name, err := s.tableName(st.Name)
	if err != nil {
		return nil, err
	}
	if exists, err := s.wh.TableExists(ctx, ns, name); err != nil {
		return nil, err
	} else if !exists {
		if st.IfExists {
			return message("OK"), nil
		}
		_, err := s.wh.LoadTable(ctx, ns, name) // for its helpful message
		return nil, err
	}
	if err := s.wh.DropTable(ctx, ns, name, st.Purge); err != nil {
		return nil, err
	}
	return message("OK"), nil
}

func (s *Session) showTables(ctx context.Context, st *sql.ShowTables) (*Result, error) {
	ns := s.namespace
	if st.Namespace != nil {
		var err error
		if ns, err = s.namespaceName(*st.Namespace); err != nil {
			return nil, err
		}
	}
	var nss []string
	if ns != "" {
		nss = []string{ns}
	} else {
		var err error
		if nss, err = s.wh.Namespaces(ctx); err != nil {
			return nil, err
		}
	}
	var rows [][]string
	for _, n := range nss {
		tables, err := s.wh.Tables(ctx, n)
		if err != nil {
			return nil, err
		}
		for _, t := range tables {
			rows = append(rows, []string{n, t})
		}
	}
	return textRows([]string{"namespace", "table"}, rows), nil
}

func (s *Session) loadTable(ctx context.Context, name sql.ObjectName) (*table.Table, string, error) {
	ns, t, err := s.tableName(name)
	if err != nil {
		return nil, "", err
	}
	tbl, err := s.wh.LoadTable(ctx, ns, t)
	return tbl, ns + "." + t, err
}

func (s *Session) describe(ctx context.Context, st *sql.Describe) (*Result, error) {
	switch st.Kind {
	case "HISTORY":
		return s.describeHistory(ctx, st)
	case "DETAIL":
		return s.describeDetail(ctx, st)
	}
	tbl, _, err := s.loadTable(ctx, st.Name)
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
	return textRows([]string{"column", "type", "nullable", "comment"}, rows), nil
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
	}
	return strings.ToUpper(t.String())
}

func (s *Session) showCreateTable(ctx context.Context, st *sql.ShowCreateTable) (*Result, error) {
	tbl, qualified, err := s.loadTable(ctx, st.Name)
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "CREATE TABLE %s (\n", qualified)
	fields := tbl.Schema().Fields()
	for i, f := range fields {
		fmt.Fprintf(&b, "  %s %s", quoteIdent(f.Name), sqlTypeName(f.Type))
		if f.Required {
			b.WriteString(" NOT NULL")
		}
		if f.Doc != "" {
			fmt.Fprintf(&b, " COMMENT %s", quoteString(f.Doc))
		}
		if i < len(fields)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString(")")
	if spec := tbl.Spec(); spec.NumFields() > 0 {
		var parts []string
		for _, pf := range spec.Fields() {
			parts = append(parts, storage.PartitionFieldText(tbl.Schema(), pf))
		}
		fmt.Fprintf(&b, "\nPARTITIONED BY (%s)", strings.Join(parts, ", "))
	}
	var props []string
	for k, v := range tbl.Properties() {
		props = append(props, fmt.Sprintf("%s = %s", quoteString(k), quoteString(v)))
	}
	if len(props) > 0 {
		slices.Sort(props)
		fmt.Fprintf(&b, "\nTBLPROPERTIES (%s)", strings.Join(props, ", "))
	}
	return textRows([]string{"create_statement"}, [][]string{{b.String()}}), nil
}

func quoteString(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// quoteIdent quotes an identifier unless it is a plain lower-case name.
func quoteIdent(s string) string {
	for i, r := range s {
		if !(r >= 'a' && r <= 'z' || r == '_' || i > 0 && r >= '0' && r <= '9') {
			return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
		}
	}
	return s
}
