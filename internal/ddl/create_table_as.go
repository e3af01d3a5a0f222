package ddl

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/iceberg-go"
	icebergio "github.com/apache/iceberg-go/io"
	"github.com/apache/iceberg-go/table"

	"github.com/lakesql/lakesql/catalog"
	"github.com/lakesql/lakesql/internal/engine"
	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/sql"
	"github.com/lakesql/lakesql/storage"
)

// createTableAs runs CREATE TABLE … AS query atomically. The table is staged
// in memory, the query's rows are written as its data files and snapshot,
// and only then is the table created, in one catalog commit that also
// carries the snapshot (Iceberg's create-table transaction). A failing query
// or commit therefore leaves no table, and the files written are removed;
// a concurrent reader sees either no table or the whole table.
func createTableAs(ctx context.Context, s *engine.Session, st *sql.CreateTable) (*engine.Result, error) {
	if len(st.Columns) > 0 {
		return nil, &planner.Error{Pos: st.Pos, Msg: "CREATE TABLE … AS takes its columns from the query: drop the column list"}
	}
	wh, ns, name, skip, err := newTableName(ctx, s, st)
	if err != nil {
		return nil, err
	}
	if skip {
		return engine.Message("OK"), nil
	}
	// Committing a new table creates missing namespace folders: check first.
	if exists, err := wh.NamespaceExists(ctx, ns); err != nil {
		return nil, err
	} else if !exists {
		return nil, wh.NoSuchNamespace(ctx, ns)
	}
	p, err := s.PlanStored(ctx, st.AsQuery)
	if err != nil {
		return nil, err
	}
	staged, err := stageTable(wh, ns, name, p.Schema(), st)
	if err != nil {
		return nil, err
	}
	res, err := s.Run(ctx, p, nil)
	if err != nil {
		return nil, err
	}
	defer res.Close()
	rows, err := commitStaged(ctx, wh, staged, res, func(files []iceberg.DataFile) error {
		return createWithFiles(ctx, wh, staged, files)
	})
	if err != nil {
		return nil, err
	}
	return engine.RowCount(rows, "inserted"), nil
}

// stageTable builds, in memory only, the metadata of the table the query's
// columns define, at the location wh's catalog gives new tables.
func stageTable(wh *catalog.Warehouse, ns, name string, cols []planner.Column, st *sql.CreateTable) (*table.Table, error) {
	schema, err := queryTableSchema(cols)
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
	props := tableProperties(st)
	// The warehouse's catalog puts a table in <warehouse>/<namespace>/<table>.
	location := wh.Path(ns, name)
	meta, err := table.NewMetadata(schema, &spec, order, location, props)
	if err != nil {
		return nil, fmt.Errorf("create table %s.%s: %w", ns, name, err)
	}
	if meta, err = asCatalogCreates(meta); err != nil {
		return nil, fmt.Errorf("create table %s.%s: %w", ns, name, err)
	}
	fsys := wh.FS()
	return table.New(table.Identifier{ns, name}, meta, "",
		func(context.Context) (icebergio.IO, error) { return fsys, nil }, wh.Catalog()), nil
}

// asCatalogCreates returns meta as the warehouse's catalog will create it
// from createUpdates(meta). iceberg-go's filesystem catalog applies them to
// a base holding an empty schema, so the table's schema and partition spec
// get id 1, not 0; the snapshot's manifests must carry the ids the committed
// table has.
func asCatalogCreates(meta table.Metadata) (table.Metadata, error) {
	base, err := table.NewMetadata(iceberg.NewSchema(0), nil, table.UnsortedSortOrder, "", nil)
	if err != nil {
		return nil, err
	}
	return table.UpdateTableMetadata(base, createUpdates(meta), "")
}

// queryTableSchema is the schema of a table holding a query's rows: its
// columns' names and types, numbered from 1.
func queryTableSchema(cols []planner.Column) (*iceberg.Schema, error) {
	seen := map[string]bool{}
	fields := make([]iceberg.NestedField, len(cols))
	for i, c := range cols {
		key := strings.ToLower(c.Name)
		if seen[key] {
			return nil, fmt.Errorf("the query has two columns named %s: give one an alias", c.Name)
		}
		seen[key] = true
		t, err := planner.IcebergTypeOf(c.T)
		if err != nil {
			return nil, fmt.Errorf("column %s: %w", c.Name, err)
		}
		fields[i] = iceberg.NestedField{Name: c.Name, Type: t}
	}
	return planner.TableSchema(fields...)
}

// commitStaged writes the query's rows into data files of the staged table
// (of warehouse wh) and commits them with commit (creating or replacing the
// table). On failure every file written is removed.
func commitStaged(ctx context.Context, wh *catalog.Warehouse, staged *table.Table, res *engine.Result, commit func([]iceberg.DataFile) error) (int64, error) {
	fsys := wh.FS()
	types := make([]arrow.DataType, len(res.Schema.Fields()))
	for i, f := range res.Schema.Fields() {
		types[i] = f.Type
	}
	w, err := storage.NewTableWriter(staged, fsys, types)
	if err != nil {
		return 0, err
	}
	rows, files, err := w.WriteAll(ctx, func() (arrow.RecordBatch, error) { return res.Next(ctx) })
	if err == nil {
		err = commit(files)
	}
	if err != nil {
		w.Abort()
		removeEmptyFolders(fsys, staged.Location(), w.Paths())
		return 0, err
	}
	return rows, nil
}

// createWithFiles commits the staged table, with a snapshot of files when
// there are any, as a new table. The snapshot's manifests are written first;
// a failed commit removes them.
func createWithFiles(ctx context.Context, wh *catalog.Warehouse, staged *table.Table, files []iceberg.DataFile) error {
	name := strings.Join(staged.Identifier(), ".")
	meta, snapshot, err := snapshotOf(ctx, staged, files)
	if err != nil {
		return fmt.Errorf("create table %s: %w", name, err)
	}
	_, _, err = wh.CommitTable(ctx, staged.Identifier(),
		[]table.Requirement{table.AssertCreate()}, append(createUpdates(meta), snapshot...))
	if err != nil {
		removeSnapshotFiles(wh.FS(), meta.CurrentSnapshot())
		// A catalog reports a table created meanwhile as a commit failure
		// or a failed AssertCreate: whether it exists now tells.
		if _, lerr := wh.Catalog().LoadTable(ctx, staged.Identifier()); errors.Is(err, table.ErrCommitFailed) || lerr == nil {
			return fmt.Errorf("create table %s: another statement created it meanwhile; nothing was written", name)
		}
		return fmt.Errorf("create table %s: %w", name, err)
	}
	return nil
}

// snapshotOf stages a snapshot of files (written for staged, a table not
// yet committed) and returns the staged metadata with it and the updates
// that add it as the main branch's head; with no files, staged's metadata
// and no updates. The snapshot's manifests are written.
func snapshotOf(ctx context.Context, staged *table.Table, files []iceberg.DataFile) (table.Metadata, []table.Update, error) {
	if len(files) == 0 {
		return staged.Metadata(), nil, nil
	}
	tx := storage.NewTransaction(staged)
	if err := tx.AddDataFiles(ctx, files, nil); err != nil {
		return nil, nil, err
	}
	withSnap, err := tx.StagedTable()
	if err != nil {
		return nil, nil, err
	}
	meta := withSnap.Metadata()
	snap := meta.CurrentSnapshot()
	return meta, []table.Update{
		table.NewAddSnapshotUpdate(snap),
		table.NewSetSnapshotRefUpdate(table.MainBranch, snap.SnapshotID, table.BranchRef, -1, -1, -1),
	}, nil
}

// createUpdates are the updates that create a table with meta's schema,
// partition spec, sort order, location and properties, as Iceberg's REST
// catalogs receive for a staged create.
func createUpdates(meta table.Metadata) []table.Update {
	spec := meta.PartitionSpec()
	order := meta.SortOrder()
	updates := []table.Update{
		table.NewAssignUUIDUpdate(meta.TableUUID()),
		table.NewUpgradeFormatVersionUpdate(meta.Version()),
		table.NewAddSchemaUpdate(meta.CurrentSchema()),
		table.NewSetCurrentSchemaUpdate(-1),
		table.NewAddPartitionSpecUpdate(&spec, true),
		table.NewSetDefaultSpecUpdate(-1),
		table.NewAddSortOrderUpdate(&order),
		table.NewSetDefaultSortOrderUpdate(-1),
		table.NewSetLocationUpdate(meta.Location()),
	}
	if props := meta.Properties(); len(props) > 0 {
		updates = append(updates, table.NewSetPropertiesUpdate(props))
	}
	return updates
}

// removeSnapshotFiles removes the manifest list and manifests of a snapshot
// that was never committed.
func removeSnapshotFiles(fsys icebergio.WriteFileIO, snap *table.Snapshot) {
	if snap == nil {
		return
	}
	if manifests, err := snap.Manifests(fsys); err == nil {
		for _, m := range manifests {
			_ = fsys.Remove(m.FilePath())
		}
	}
	_ = fsys.Remove(snap.ManifestList)
}

// removeEmptyFolders removes the folders of the given files, from the
// deepest up to the table location, as long as they are empty: a failed
// CREATE TABLE … AS leaves no trace. A folder that holds anything else stays.
func removeEmptyFolders(fsys *storage.RemapIO, location string, files []string) {
	for _, f := range files {
		for dir := filepath.Dir(f); strings.HasPrefix(dir, location); dir = filepath.Dir(dir) {
			if fsys.RemoveEmptyDir(dir) != nil {
				break
			}
		}
	}
}
