package ddl

import (
	"context"
	"fmt"
	"strings"

	icecatalog "github.com/apache/iceberg-go/catalog"

	"github.com/apache/iceberg-go"

	"github.com/lakesql/lakesql/catalog"
	"github.com/lakesql/lakesql/internal/engine"
	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/sql"
)

// newTableName resolves the name of a table to create: skip reports that
// it exists and IF NOT EXISTS says to do nothing; existing otherwise is an
// error.
func newTableName(ctx context.Context, s *engine.Session, st *sql.CreateTable) (wh *catalog.Warehouse, ns, name string, skip bool, err error) {
	if wh, ns, name, err = s.TableName(ctx, st.Name); err != nil {
		return nil, "", "", false, err
	}
	exists, err := wh.TableExists(ctx, ns, name)
	switch {
	case err != nil:
		return nil, "", "", false, err
	case exists && st.IfNotExists:
		return wh, ns, name, true, nil
	case exists:
		return nil, "", "", false, catalog.Errorf(catalog.ErrTableExists, "table %s.%s already exists", ns, name)
	}
	return wh, ns, name, false, nil
}

// CreateTable runs CREATE TABLE, with columns and PARTITIONED BY, or AS
// SELECT (create_table_as.go).
func CreateTable(ctx context.Context, s *engine.Session, st *sql.CreateTable) (*engine.Result, error) {
	if st.AsQuery != nil {
		return createTableAs(ctx, s, st)
	}
	wh, ns, name, skip, err := newTableName(ctx, s, st)
	if err != nil {
		return nil, err
	}
	if skip {
		return engine.Message("OK"), nil
	}
	schema, err := icebergSchema(st.Columns)
	if err != nil {
		return nil, err
	}
	spec, err := partitionSpec(schema, st.PartitionBy)
	if err != nil {
		return nil, err
	}
	order, err := sortOrder(schema, st.ClusterBy)
	if err != nil {
		return nil, err
	}
	if _, err := wh.CreateTable(ctx, ns, name, schema, spec, tableProperties(st), icecatalog.WithSortOrder(order)); err != nil {
		return nil, err
	}
	return engine.Message("OK"), nil
}

// icebergSchema builds a table schema from column definitions, numbering
// fields (nested ones too) from 1.
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
		fields[i] = iceberg.NestedField{Name: c.Name, Type: t, Required: c.NotNull, Doc: c.Comment}
	}
	return planner.TableSchema(fields...)
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

// tableProperties are the TBLPROPERTIES of a CREATE TABLE.
func tableProperties(st *sql.CreateTable) iceberg.Properties {
	props := iceberg.Properties{}
	for _, p := range st.Properties {
		props[p.Key] = p.Value
	}
	return props
}
