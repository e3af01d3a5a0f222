package ddl

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/apache/iceberg-go"
	icebergio "github.com/apache/iceberg-go/io"
	"github.com/apache/iceberg-go/table"

	"github.com/lakesql/lakesql/catalog"
	"github.com/lakesql/lakesql/internal/engine"
	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/sql"
	"github.com/lakesql/lakesql/storage"
)

// ReplaceTable runs REPLACE TABLE … and CREATE OR REPLACE TABLE … [AS query]
// as Iceberg's replace transaction: one commit on the same table metadata,
// so the table keeps its UUID, location and history (earlier snapshots stay
// for time travel and rollback until they expire). The commit adds the new
// schema (a column of the same name and type keeps its field id, as in
// Iceberg's Java replace), partition spec and an unsorted order, adds the
// new properties to the old, and makes the main branch hold only the
// query's rows — or none, without AS. CREATE OR REPLACE creates a table
// that does not exist; REPLACE refuses to.
func ReplaceTable(ctx context.Context, s *engine.Session, st *sql.ReplaceTable) (*engine.Result, error) {
	ct := st.Table
	wh, ns, name, err := s.TableName(ctx, ct.Name)
	if err != nil {
		return nil, err
	}
	exists, err := wh.TableExists(ctx, ns, name)
	if err != nil {
		return nil, err
	}
	if !exists && st.OrCreate {
		return CreateTable(ctx, s, ct)
	}
	tbl, _, err := s.LoadTable(ctx, ct.Name) // a missing table's error names its neighbours
	if err != nil {
		return nil, err
	}
	r := &replacement{wh: wh, tbl: tbl, name: ns + "." + name}
	if ct.AsQuery == nil {
		schema, err := icebergSchema(ct.Columns)
		if err != nil {
			return nil, err
		}
		if err := r.stage(schema, ct); err != nil {
			return nil, err
		}
		if err := r.commit(ctx, nil); err != nil {
			return nil, err
		}
		return engine.Message("OK"), nil
	}
	if len(ct.Columns) > 0 {
		return nil, &planner.Error{Pos: ct.Pos, Msg: "REPLACE TABLE … AS takes its columns from the query: drop the column list"}
	}
	p, err := s.PlanStored(ctx, ct.AsQuery)
	if err != nil {
		return nil, err
	}
	schema, err := queryTableSchema(p.Schema())
	if err != nil {
		return nil, err
	}
	if err := r.stage(schema, ct); err != nil {
		return nil, err
	}
	res, err := s.Run(ctx, p, nil)
	if err != nil {
		return nil, err
	}
	defer res.Close()
	rows, err := commitStaged(ctx, wh, r.staged, res, func(files []iceberg.DataFile) error { return r.commit(ctx, files) })
	if err != nil {
		return nil, err
	}
	return engine.RowCount(rows, "inserted"), nil
}

// replacement is one REPLACE TABLE at work.
type replacement struct {
	wh      *catalog.Warehouse // the table's catalog's
	tbl     *table.Table
	name    string
	updates []table.Update
	staged  *table.Table // the table as the updates leave it, for writing its data
}

// stage prepares the updates that give the table schema, ct's partitioning
// and properties, and no current snapshot.
func (r *replacement) stage(schema *iceberg.Schema, ct *sql.CreateTable) error {
	base := r.tbl.Metadata()
	schema = keepFieldIDs(schema, base)
	spec, err := partitionSpec(schema, ct.PartitionBy)
	if err != nil {
		return err
	}
	spec = keepPartitionFieldIDs(spec, base)
	order, err := sortOrder(schema, ct.ClusterBy)
	if err != nil {
		return err
	}
	r.updates = []table.Update{
		table.NewAddSchemaUpdate(schema),
		table.NewSetCurrentSchemaUpdate(-1),
		table.NewAddPartitionSpecUpdate(&spec, false),
		table.NewSetDefaultSpecUpdate(-1),
		table.NewAddSortOrderUpdate(&order),
		table.NewSetDefaultSortOrderUpdate(-1),
	}
	// The default name mapping (column names to field ids, for files
	// written without ids) must describe the new schema; iceberg-go adds it
	// on a table's first write, so it is set here in every case.
	mapping, err := json.Marshal(schema.NameMapping())
	if err != nil {
		return fmt.Errorf("replace table %s: %w", r.name, err)
	}
	props := tableProperties(ct)
	if _, given := props[table.DefaultNameMappingKey]; !given {
		props[table.DefaultNameMappingKey] = string(mapping)
	}
	r.updates = append(r.updates, table.NewSetPropertiesUpdate(props))
	if base.CurrentSnapshot() != nil {
		r.updates = append(r.updates, table.NewRemoveSnapshotRefUpdate(table.MainBranch))
	}
	meta, err := table.UpdateTableMetadata(base, r.updates, r.tbl.MetadataLocation())
	if err != nil {
		return fmt.Errorf("replace table %s: %w", r.name, err)
	}
	fsys := r.wh.FS()
	r.staged = table.New(r.tbl.Identifier(), meta, r.tbl.MetadataLocation(),
		func(context.Context) (icebergio.IO, error) { return fsys, nil }, r.wh.Catalog())
	return nil
}

// keepFieldIDs renumbers a new schema's columns (numbered from 1) against
// the table's current schema: a column of the same name and type keeps its
// id, the others get ids the table never used.
func keepFieldIDs(schema *iceberg.Schema, base table.Metadata) *iceberg.Schema {
	current := base.CurrentSchema()
	next := base.LastColumnID()
	fields := append([]iceberg.NestedField(nil), schema.Fields()...)
	for i, f := range fields {
		if old, ok := current.FindFieldByNameCaseInsensitive(f.Name); ok && old.Type.Equals(f.Type) {
			fields[i].ID = old.ID
			continue
		}
		next++
		fields[i].ID = next
	}
	return iceberg.NewSchemaWithIdentifiers(0, nil, fields...)
}

// keepPartitionFieldIDs renumbers a new spec's fields (numbered from 1000)
// against the table's specs: a field with the source column and transform
// of an existing one keeps its id, the others get ids the table never used,
// as partition field ids must be unique across a table's specs.
func keepPartitionFieldIDs(spec iceberg.PartitionSpec, base table.Metadata) iceberg.PartitionSpec {
	next := iceberg.PartitionDataIDStart - 1
	if last := base.LastPartitionSpecID(); last != nil {
		next = max(next, *last)
	}
	known := map[string]int{}
	for _, old := range base.PartitionSpecs() {
		for _, f := range old.Fields() {
			known[fmt.Sprint(f.SourceID(), f.Transform)] = f.FieldID
			next = max(next, f.FieldID)
		}
	}
	var fields []iceberg.PartitionField
	for _, f := range spec.Fields() {
		if id, ok := known[fmt.Sprint(f.SourceID(), f.Transform)]; ok {
			f.FieldID = id
		} else {
			next++
			f.FieldID = next
		}
		fields = append(fields, f)
	}
	return iceberg.NewPartitionSpec(fields...)
}

// commit applies the staged updates, with a snapshot of files when there
// are any, in one commit that fails if the table changed since it was read.
func (r *replacement) commit(ctx context.Context, files []iceberg.DataFile) error {
	meta, snapshot, err := snapshotOf(ctx, r.staged, files)
	if err != nil {
		return fmt.Errorf("replace table %s: %w", r.name, err)
	}
	base := r.tbl.Metadata()
	var head *int64
	if snap := base.CurrentSnapshot(); snap != nil {
		head = &snap.SnapshotID
	}
	reqs := []table.Requirement{
		table.AssertTableUUID(base.TableUUID()),
		table.AssertRefSnapshotID(table.MainBranch, head),
		table.AssertCurrentSchemaID(base.CurrentSchema().ID),
		table.AssertDefaultSpecID(base.DefaultPartitionSpec()),
	}
	_, _, err = r.wh.CommitTable(ctx, r.tbl.Identifier(), reqs, append(r.updates, snapshot...))
	if err != nil {
		removeSnapshotFiles(r.wh.FS(), meta.CurrentSnapshot())
		if storage.LostRace(ctx, r.tbl, err) {
			return fmt.Errorf("replace table %s: another statement changed it meanwhile; nothing was replaced", r.name)
		}
		return fmt.Errorf("replace table %s: %w", r.name, err)
	}
	return nil
}
