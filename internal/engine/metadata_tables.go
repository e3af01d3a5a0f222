package engine

import (
	"context"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/table"

	"github.com/lakesql/lakesql/catalog"
	"github.com/lakesql/lakesql/exec"
	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/sql"
	"github.com/lakesql/lakesql/value"
)

// metadataTable is one Iceberg metadata table: iceberg-go computes its rows.
// maps names its map<string, string> columns that stay maps, so that
// summary['added-data-files'] reads one entry, as in Spark; other nested
// columns are rendered as text.
type metadataTable struct {
	name string
	read func(table.InspectTable, context.Context) (array.RecordReader, error)
	maps []string
}

// metadataTables are the metadata tables lakesql serves, in the order error
// messages list them.
var metadataTables = []metadataTable{
	{"snapshots", table.InspectTable.Snapshots, []string{"summary"}},
	{"history", table.InspectTable.History, nil},
	{"files", table.InspectTable.Files, nil},
	{"partitions", table.InspectTable.Partitions, nil},
	{"manifests", table.InspectTable.Manifests, nil},
	{"refs", table.InspectTable.Refs, nil},
}

// findMetadataTable finds a metadata table by name, or returns nil.
func findMetadataTable(name string) *metadataTable {
	i := slices.IndexFunc(metadataTables, func(m metadataTable) bool { return strings.EqualFold(m.name, name) })
	if i < 0 {
		return nil
	}
	return &metadataTables[i]
}

// ResolveMetadataTable implements planner.Resolver: ns.t.snapshots and
// catalog.ns.t.snapshots are metadata tables, and information_schema.t
// the catalog's tables (information_schema.go). They are read whole when the
// query is planned, since iceberg-go builds them whole from the metadata
// files (manifest lists and manifests), not from data files.
func (s *Session) ResolveMetadataTable(ctx context.Context, name sql.ObjectName) (*planner.Rows, error) {
	if rows, ok, err := s.resolveInformationSchema(ctx, name); ok {
		return rows, err
	}
	wh, ns, tableName, meta, err := s.metadataTableName(ctx, name)
	if err != nil || meta == nil {
		return nil, err
	}
	tbl, err := s.loadTable(ctx, wh, name, ns, tableName)
	if err != nil {
		return nil, err
	}
	qualified := ns + "." + tableName + "." + meta.name
	rows, err := readMetadataTable(ctx, tbl, meta)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", qualified, err)
	}
	rows.Name, rows.Qualifier = qualified, meta.name
	return rows, nil
}

// metadataTableName recognizes [catalog.]ns.t.meta and returns the
// warehouse of its catalog. Three parts are ambiguous: they name
// catalog.ns.t when the first part is a catalog's name (catalogs.go), and
// ns.t.meta otherwise. A three-part name whose first two parts
// name no table is left to ResolveTable, whose errors explain it better (an
// unknown catalog, most likely). meta is nil for no metadata table.
func (s *Session) metadataTableName(ctx context.Context, name sql.ObjectName) (wh *catalog.Warehouse, ns, tableName string, meta *metadataTable, err error) {
	parts := name.Parts
	wh = s.wh
	switch {
	case len(parts) == 4:
		if wh, err = s.Catalog(ctx, parts[0]); err != nil {
			return nil, "", "", nil, err
		}
		parts = parts[1:]
	case len(parts) == 3 && !s.isCatalog(parts[0]):
	default:
		return nil, "", "", nil, nil
	}
	ns, tableName = parts[0], parts[1]
	if m := findMetadataTable(parts[2]); m != nil {
		return wh, ns, tableName, m, nil
	}
	if len(name.Parts) == 3 {
		if exists, _ := wh.TableExists(ctx, ns, tableName); !exists {
			return nil, "", "", nil, nil
		}
	}
	known := make([]string, len(metadataTables))
	for i, m := range metadataTables {
		known[i] = m.name
	}
	return nil, "", "", nil, fmt.Errorf("unknown metadata table %s.%s (known: %s)", tableName, parts[2], strings.Join(known, ", "))
}

// readMetadataTable reads a metadata table of the table's current snapshot
// into memory. The partition column of .files and .partitions is a STRUCT
// of readable values (PartitionRows), so partition.event_date works as in
// Spark, and .snapshots' summary a map (metadataTable.maps); the other
// nested columns (maps, lists) are rendered as text.
func readMetadataTable(ctx context.Context, tbl *table.Table, meta *metadataTable) (*planner.Rows, error) {
	inSchema, batches, err := metadataRows(ctx, tbl, meta)
	if err != nil {
		return nil, err
	}
	defer func() {
		for _, b := range batches {
			b.Release()
		}
	}()
	cols := make([]planner.Column, inSchema.NumFields())
	for i, f := range inSchema.Fields() {
		cols[i] = planner.Column{Name: f.Name, T: f.Type}
		if _, nested := f.Type.(arrow.NestedType); nested && f.Name != "partition" && !keptMap(meta, f) {
			cols[i].T = planner.TypeVarchar
		}
	}
	schema := exec.ArrowSchema(cols)
	text := valueText{fieldType: fieldTypeByID(tbl.Metadata())}
	rows := &planner.Rows{Columns: cols}
	for _, in := range batches {
		out := make([]arrow.Array, len(cols))
		for i, f := range inSchema.Fields() {
			switch m, isMap := in.Column(i).(*array.Map); {
			case isMap && keptMap(meta, f):
				out[i] = sortedStringMap(m)
			case arrow.TypeEqual(f.Type, cols[i].T):
				out[i] = in.Column(i)
				out[i].Retain()
			default:
				out[i] = text.column(f.Name, in.Column(i))
			}
		}
		rows.Batches = append(rows.Batches, array.NewRecordBatch(schema, out, in.NumRows()))
		for _, a := range out {
			a.Release()
		}
	}
	return rows, nil
}

// metadataRows reads a metadata table's rows as iceberg-go computes them,
// with readable, sorted partitions (PartitionRows) and, for .partitions, the
// average file size and small files flag of each partition.
func metadataRows(ctx context.Context, tbl *table.Table, meta *metadataTable) (*arrow.Schema, []arrow.RecordBatch, error) {
	rr, err := meta.read(tbl.Inspect(), ctx)
	if err != nil {
		return nil, nil, err
	}
	defer rr.Release()
	schema, batches, err := PartitionRows(ctx, tbl.Metadata(), rr)
	if err != nil || meta.name != "partitions" {
		return schema, batches, err
	}
	schema, batches = withFileSizeColumns(schema, batches, TargetFileSize(tbl))
	return schema, batches, nil
}

// PartitionsTable is the rows of the table's .partitions metadata table.
func PartitionsTable(ctx context.Context, tbl *table.Table) (*arrow.Schema, []arrow.RecordBatch, error) {
	return metadataRows(ctx, tbl, findMetadataTable("partitions"))
}

// fieldTypeByID finds a column's type by field id in any of the table's schemas,
// so that bounds of columns dropped since still render.
func fieldTypeByID(md table.Metadata) func(id int) (iceberg.Type, bool) {
	schemas := md.Schemas()
	return func(id int) (iceberg.Type, bool) {
		for _, schema := range slices.Backward(schemas) {
			if f, ok := schema.FindFieldByID(id); ok {
				return f.Type, true
			}
		}
		return nil, false
	}
}

// valueText renders nested values as Spark prints them: structs and maps as
// {k=v, …}, lists as [v, …].
type valueText struct {
	fieldType func(id int) (iceberg.Type, bool)
}

// column renders each value of a nested column as text.
func (t valueText) column(name string, arr arrow.Array) arrow.Array {
	b := array.NewStringBuilder(memory.DefaultAllocator)
	defer b.Release()
	// lower_bounds and upper_bounds hold Iceberg's binary single-value
	// encoding, keyed by field id; decoded they can be read.
	m, isMap := arr.(*array.Map)
	bounds := isMap && (name == "lower_bounds" || name == "upper_bounds")
	for i := range arr.Len() {
		switch {
		case arr.IsNull(i):
			b.AppendNull()
		case bounds:
			b.Append(t.bounds(m, i))
		default:
			b.Append(t.value(arr, i))
		}
	}
	return b.NewArray()
}

func (t valueText) value(arr arrow.Array, i int) string {
	if arr.IsNull(i) {
		return "NULL"
	}
	switch a := arr.(type) {
	case *array.Struct:
		fields := a.DataType().(*arrow.StructType).Fields()
		items := make([]string, len(fields))
		for j, f := range fields {
			items[j] = f.Name + "=" + t.value(a.Field(j), i)
		}
		return "{" + strings.Join(items, ", ") + "}"
	case *array.Map:
		start, end := a.ValueOffsets(i)
		items := make([]string, 0, end-start)
		for j := int(start); j < int(end); j++ {
			items = append(items, t.value(a.Keys(), j)+"="+t.value(a.Items(), j))
		}
		if a.Keys().DataType().ID() == arrow.STRING {
			slices.Sort(items) // string keys come from Go maps, in random order
		}
		return "{" + strings.Join(items, ", ") + "}"
	case *array.List:
		start, end := a.ValueOffsets(i)
		items := make([]string, 0, end-start)
		for j := int(start); j < int(end); j++ {
			items = append(items, t.value(a.ListValues(), j))
		}
		return "[" + strings.Join(items, ", ") + "]"
	}
	return value.Format(arr, i)
}

// bounds renders a map of field id to encoded bound as {id=value, …}.
func (t valueText) bounds(m *array.Map, i int) string {
	keys, ok1 := m.Keys().(*array.Int32)
	vals, ok2 := m.Items().(*array.Binary)
	if !ok1 || !ok2 {
		return t.value(m, i)
	}
	start, end := m.ValueOffsets(i)
	items := make([]string, 0, end-start)
	for j := int(start); j < int(end); j++ {
		id := int(keys.Value(j))
		items = append(items, fmt.Sprintf("%d=%s", id, t.bound(id, vals.Value(j))))
	}
	return "{" + strings.Join(items, ", ") + "}"
}

// bound decodes one bound; bytes of an unknown field print as hex.
func (t valueText) bound(id int, raw []byte) string {
	if typ, ok := t.fieldType(id); ok {
		if lit, err := iceberg.LiteralFromBytes(typ, raw); err == nil {
			return lit.String()
		}
	}
	return "0x" + hex.EncodeToString(raw)
}
