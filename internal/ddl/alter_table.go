package ddl

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/table"

	"github.com/lakesql/lakesql/catalog"
	"github.com/lakesql/lakesql/internal/engine"
	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/sql"
	"github.com/lakesql/lakesql/storage"
)

// AlterTable runs ALTER TABLE. Each action is checked against the current
// metadata, staged in one iceberg-go transaction and committed as one new
// metadata version; any error comes before the commit, so a failed ALTER
// leaves the table as it was.
func AlterTable(ctx context.Context, s *engine.Session, st *sql.AlterTable) (*engine.Result, error) {
	tbl, name, err := s.LoadTable(ctx, st.Name)
	if err != nil {
		return nil, err
	}
	if r, ok := st.Action.(*sql.RenameTable); ok {
		return renameTable(ctx, s, st.Name, r.To, name)
	}
	// A commit that loses a race is staged again, and so checked again, on
	// the table as the other writer left it.
	var a *alteration
	stage := func(cur *table.Table) error {
		a = &alteration{tbl: cur, tx: cur.NewTransaction()}
		if err := a.stage(st.Action); err != nil {
			return fmt.Errorf("alter table %s: %w", name, err)
		}
		return nil
	}
	if err := stage(tbl); err != nil {
		return nil, err
	}
	err = storage.RetryCommit(ctx, tbl, func(cur *table.Table) error {
		if _, err := storage.CommitTransaction(ctx, cur, a.tx); err != nil {
			return fmt.Errorf("alter table %s: %w", name, err)
		}
		return nil
	}, stage)
	if err != nil {
		return nil, err
	}
	return engine.Message("OK"), nil
}

// renameTable runs ALTER TABLE from RENAME TO to; an unqualified new name
// stays in the table's namespace.
func renameTable(ctx context.Context, s *engine.Session, from, to sql.ObjectName, name string) (*engine.Result, error) {
	wh, ns, table, err := s.TableName(ctx, from)
	if err != nil {
		return nil, err
	}
	toNS, toName := ns, to.Parts[len(to.Parts)-1]
	if len(to.Parts) > 1 {
		toWH, n, t, err := s.TableName(ctx, to)
		if err != nil {
			return nil, err
		}
		if toWH != wh {
			return nil, fmt.Errorf("ALTER TABLE %s RENAME TO %s: a table cannot move to another catalog (CREATE TABLE … AS SELECT copies it)", name, strings.Join(to.Parts, "."))
		}
		toNS, toName = n, t
	}
	err = wh.RenameTable(ctx, ns, table, toNS, toName)
	if errors.Is(err, catalog.ErrRenameUnsupported) {
		target := toNS + "." + toName
		return nil, fmt.Errorf("ALTER TABLE %s RENAME TO is not supported in a warehouse on object storage without a catalog, which names a table by its folder and cannot move one at once (an SQL or REST catalog, --catalog-uri, renames); CREATE TABLE %s AS SELECT * FROM %s, then DROP TABLE %s, copies it (without its history)", name, target, name, name)
	}
	if err != nil {
		return nil, err
	}
	return engine.Message("OK"), nil
}

// alteration stages one ALTER TABLE action on a table.
type alteration struct {
	tbl *table.Table
	tx  *table.Transaction
}

func (a *alteration) stage(action sql.AlterAction) error {
	switch act := action.(type) {
	case *sql.AddPartitionField:
		return a.addPartitionField(act.Field)
	case *sql.DropPartitionField:
		return a.dropPartitionField(act.Field)
	case *sql.ReplacePartitionField:
		return a.replacePartitionField(act.Old, act.New)
	case *sql.WriteOrderedBy:
		return a.writeOrder(act)
	case *sql.AddColumns:
		return a.addColumns(act.Columns)
	case *sql.DropColumn:
		return a.dropColumn(act)
	case *sql.RenameColumn:
		return a.renameColumn(act.Old, act.New)
	case *sql.AlterColumnType:
		return a.alterColumnType(act.Name, act.Type)
	case *sql.SetProperties:
		return a.setProperties(act.Properties)
	case *sql.UnsetProperties:
		return a.unsetProperties(act.Keys)
	}
	return fmt.Errorf("%T is not supported yet", action)
}

// ---- partition evolution ----

func (a *alteration) addPartitionField(f sql.PartitionField) error {
	pf, err := PartitionField(a.tbl.Schema(), f, 0)
	if err != nil {
		return err
	}
	if err := a.checkNewPartitionField(pf, nil); err != nil {
		return err
	}
	return a.tx.UpdateSpec(false).AddField(a.sourceName(pf), pf.Transform, f.Name).Commit()
}

func (a *alteration) dropPartitionField(f sql.PartitionField) error {
	old, err := a.findPartitionField(f)
	if err != nil {
		return err
	}
	return a.tx.UpdateSpec(false).RemoveField(old.Name).Commit()
}

func (a *alteration) replacePartitionField(oldField, newField sql.PartitionField) error {
	old, err := a.findPartitionField(oldField)
	if err != nil {
		return err
	}
	pf, err := PartitionField(a.tbl.Schema(), newField, 0)
	if err != nil {
		return err
	}
	if err := a.checkNewPartitionField(pf, &old); err != nil {
		return err
	}
	return a.tx.UpdateSpec(false).RemoveField(old.Name).AddField(a.sourceName(pf), pf.Transform, newField.Name).Commit()
}

// checkNewPartitionField rejects a field the current spec already has (by
// name or by transform) or one that would partition a column by two time
// granularities, with messages that say what to do instead. replaced is the
// field a REPLACE removes, which the new one may resemble.
func (a *alteration) checkNewPartitionField(pf iceberg.PartitionField, replaced *iceberg.PartitionField) error {
	spec := a.tbl.Spec()
	for _, cur := range spec.Fields() {
		if replaced != nil && cur.FieldID == replaced.FieldID {
			continue
		}
		switch {
		case cur.Name == pf.Name:
			return fmt.Errorf("partition field %s already exists", cur.Name)
		case cur.SourceID() == pf.SourceID() && cur.Transform.Equals(pf.Transform):
			return fmt.Errorf("partition field %s already exists for %s", cur.Name, storage.PartitionFieldText(a.tbl.Schema(), pf))
		case cur.SourceID() == pf.SourceID() && isTimeTransform(cur.Transform) && isTimeTransform(pf.Transform):
			return fmt.Errorf("partition field %s would partition %s twice by time, as %s does already (use REPLACE PARTITION FIELD %s WITH %s)",
				pf.Name, a.sourceName(pf), cur.Name, cur.Name, storage.PartitionFieldText(a.tbl.Schema(), pf))
		}
	}
	return nil
}

func isTimeTransform(t iceberg.Transform) bool {
	_, ok := t.(iceberg.TimeTransform)
	return ok
}

// findPartitionField finds the current spec's field written as its name or as
// transform(column).
func (a *alteration) findPartitionField(f sql.PartitionField) (iceberg.PartitionField, error) {
	spec := a.tbl.Spec()
	if f.Transform == "identity" {
		for _, pf := range spec.Fields() {
			if strings.EqualFold(pf.Name, f.Column) {
				return pf, nil
			}
		}
	}
	// The column may not exist (a misspelled field name): that is reported
	// below as a missing partition field.
	if want, err := PartitionField(a.tbl.Schema(), f, 0); err == nil {
		for _, pf := range spec.Fields() {
			if pf.SourceID() == want.SourceID() && pf.Transform.Equals(want.Transform) {
				return pf, nil
			}
		}
	}
	written := writtenPartitionField(f)
	if spec.NumFields() == 0 {
		return iceberg.PartitionField{}, fmt.Errorf("partition field %s does not exist: the table is not partitioned", written)
	}
	var names []string
	for _, pf := range spec.Fields() {
		names = append(names, pf.Name)
	}
	if best := sql.Closest(f.Column, names); best != "" {
		return iceberg.PartitionField{}, fmt.Errorf("partition field %s does not exist (did you mean %s?)", written, best)
	}
	return iceberg.PartitionField{}, fmt.Errorf("partition field %s does not exist (partition fields: %s)", written, strings.Join(names, ", "))
}

// writtenPartitionField prints a partition field as the statement wrote it.
func writtenPartitionField(f sql.PartitionField) string {
	switch f.Transform {
	case "identity":
		return f.Column
	case "bucket", "truncate":
		return fmt.Sprintf("%s(%d, %s)", f.Transform, f.Param, f.Column)
	}
	return fmt.Sprintf("%s(%s)", f.Transform, f.Column)
}

func (a *alteration) sourceName(pf iceberg.PartitionField) string {
	name, _ := a.tbl.Schema().FindColumnName(pf.SourceID())
	return name
}

// ---- write order ----

// distributionModeKey is the table property Spark's WRITE … ORDERED BY sets
// beside the sort order: range for ORDERED BY, none for UNORDERED, unchanged
// for LOCALLY ORDERED BY.
const distributionModeKey = "write.distribution-mode"

// writeOrder replaces the table's sort order. lakesql's own writer does not
// sort by it yet; Spark and other writers that honour it do.
func (a *alteration) writeOrder(w *sql.WriteOrderedBy) error {
	order, err := sortOrder(a.tbl.Schema(), w.Keys)
	if err != nil {
		return err
	}
	if err := a.tx.ReplaceSortOrder(order); err != nil {
		return err
	}
	switch {
	case len(w.Keys) == 0:
		return a.setChangedProperties(iceberg.Properties{distributionModeKey: "none"})
	case w.Locally:
		return nil
	}
	return a.setChangedProperties(iceberg.Properties{distributionModeKey: "range"})
}

// ---- schema evolution ----

// updateSchema starts a schema update. Names given to it are the schema's own
// spelling, so it can match them case-sensitively (which lets a rename change
// only a name's case). A table that carries a name mapping (files without
// field ids) gets it updated along with the schema.
func (a *alteration) updateSchema() *table.UpdateSchema {
	var opts []table.UpdateSchemaOption
	if nm := a.tbl.NameMapping(); nm != nil {
		opts = append(opts, table.WithNameMapping(nm))
	}
	return a.tx.UpdateSchema(true, false, opts...)
}

// column finds a column of the current schema, ignoring case.
func (a *alteration) column(name string) (iceberg.NestedField, error) {
	schema := a.tbl.Schema()
	if f, ok := schema.FindFieldByNameCaseInsensitive(name); ok {
		return f, nil
	}
	return iceberg.NestedField{}, fmt.Errorf("column %s does not exist%s", name, columnHint(schema, name))
}

func (a *alteration) addColumns(cols []sql.ColumnDef) error {
	us := a.updateSchema()
	added := map[string]bool{}
	for _, c := range cols {
		key := strings.ToLower(c.Name)
		if existing, exists := a.tbl.Schema().FindFieldByNameCaseInsensitive(c.Name); exists {
			return &planner.Error{Pos: c.Pos, Msg: fmt.Sprintf("column %s already exists", existing.Name)}
		}
		if added[key] {
			return &planner.Error{Pos: c.Pos, Msg: fmt.Sprintf("column %s is added twice", c.Name)}
		}
		added[key] = true
		if c.NotNull {
			// Iceberg rejects a required column without a default: the rows
			// already written have no value for it.
			return &planner.Error{Pos: c.Pos, Msg: fmt.Sprintf("cannot add column %s as NOT NULL: existing rows have no value for it (add it without NOT NULL)", c.Name)}
		}
		t, err := planner.IcebergType(c.Type)
		if err != nil {
			return err
		}
		us.AddColumn([]string{c.Name}, t, c.Comment, false, nil)
	}
	return us.Commit()
}

func (a *alteration) dropColumn(d *sql.DropColumn) error {
	col, err := a.column(d.Name)
	if err != nil {
		if d.IfExists {
			return nil
		}
		return err
	}
	if len(a.tbl.Schema().Fields()) == 1 {
		return fmt.Errorf("cannot drop column %s: it is the only column", col.Name)
	}
	if err := a.checkUnreferenced(col); err != nil {
		return err
	}
	return a.updateSchema().DeleteColumn([]string{col.Name}).Commit()
}

// checkUnreferenced refuses to drop a column that a partition spec or the
// write order uses. Old specs count too: the files written under them are
// still planned through their partition fields, which need the column.
func (a *alteration) checkUnreferenced(col iceberg.NestedField) error {
	cur := a.tbl.Spec()
	current := cur.ID()
	for _, spec := range a.tbl.Metadata().PartitionSpecs() {
		for _, pf := range spec.Fields() {
			if pf.SourceID() != col.ID {
				continue
			}
			if spec.ID() == current {
				return fmt.Errorf("cannot drop column %s: partition field %s uses it (DROP PARTITION FIELD %s first)", col.Name, pf.Name, pf.Name)
			}
			return fmt.Errorf("cannot drop column %s: partition field %s of the table's earlier partition spec %d uses it", col.Name, pf.Name, spec.ID())
		}
	}
	for _, sf := range a.tbl.SortOrder().Fields() {
		if sf.SourceID() == col.ID {
			return fmt.Errorf("cannot drop column %s: the table's write order uses it (change it with WRITE ORDERED BY or WRITE UNORDERED first)", col.Name)
		}
	}
	return nil
}

func (a *alteration) renameColumn(oldName, newName string) error {
	col, err := a.column(oldName)
	if err != nil {
		return err
	}
	if other, exists := a.tbl.Schema().FindFieldByNameCaseInsensitive(newName); exists && other.ID != col.ID {
		return fmt.Errorf("cannot rename column %s to %s: column %s already exists", col.Name, newName, other.Name)
	}
	if col.Name == newName {
		return nil
	}
	// Iceberg forbids a partition field named like a column other than its
	// source: the rename would block every later partition change.
	spec := a.tbl.Spec()
	for _, pf := range spec.Fields() {
		if strings.EqualFold(pf.Name, newName) && pf.SourceID() != col.ID {
			return fmt.Errorf("cannot rename column %s to %s: partition field %s has that name", col.Name, newName, pf.Name)
		}
	}
	return a.updateSchema().RenameColumn([]string{col.Name}, newName).Commit()
}

func (a *alteration) alterColumnType(name string, typ sql.TypeName) error {
	col, err := a.column(name)
	if err != nil {
		return err
	}
	t, err := planner.IcebergType(typ)
	if err != nil {
		return err
	}
	if t.Equals(col.Type) {
		return nil
	}
	if !canWiden(col.Type, t) {
		return fmt.Errorf("cannot change column %s from %s to %s: Iceberg only widens INT to BIGINT, FLOAT to DOUBLE and DECIMAL(p,s) to DECIMAL(p2,s) with p2 > p",
			col.Name, sqlTypeName(col.Type), sqlTypeName(t))
	}
	update := table.ColumnUpdate{FieldType: iceberg.Optional[iceberg.Type]{Valid: true, Val: t}}
	return a.updateSchema().UpdateColumn([]string{col.Name}, update).Commit()
}

// canWiden reports whether Iceberg's schema evolution allows changing a
// column's type from one to the other: the promotions every reader applies to
// files written under the old type.
func canWiden(from, to iceberg.Type) bool {
	switch f := from.(type) {
	case iceberg.Int32Type:
		_, ok := to.(iceberg.Int64Type)
		return ok
	case iceberg.Float32Type:
		_, ok := to.(iceberg.Float64Type)
		return ok
	case iceberg.DecimalType:
		t, ok := to.(iceberg.DecimalType)
		return ok && t.Scale() == f.Scale() && t.Precision() > f.Precision()
	}
	return false
}

// ---- properties ----

// positiveIntProperties are the table properties lakesql's writer reads as
// positive integers; a bad value is refused here rather than at the next INSERT.
var positiveIntProperties = []string{"write.target-file-size-bytes", "write.parquet.row-group-size-rows"}

func (a *alteration) setProperties(props []sql.Property) error {
	set := iceberg.Properties{}
	for _, p := range props {
		if slices.Contains(positiveIntProperties, p.Key) {
			if n, err := strconv.ParseInt(p.Value, 10, 64); err != nil || n <= 0 {
				return fmt.Errorf("table property %s must be a positive integer, got %q", p.Key, p.Value)
			}
		}
		set[p.Key] = p.Value
	}
	return a.setChangedProperties(set)
}

// setChangedProperties sets the properties whose value differs from the
// table's, so that setting a property to its current value commits nothing.
func (a *alteration) setChangedProperties(props iceberg.Properties) error {
	current := a.tbl.Properties()
	changed := maps.Clone(props)
	maps.DeleteFunc(changed, func(k, v string) bool {
		old, ok := current[k]
		return ok && old == v
	})
	return a.tx.SetProperties(changed)
}

// unsetProperties removes the keys the table has; a missing key is not an
// error (the parser accepts IF EXISTS for Spark compatibility either way).
func (a *alteration) unsetProperties(keys []string) error {
	current := a.tbl.Properties()
	var present []string
	for _, k := range keys {
		if _, ok := current[k]; ok && !slices.Contains(present, k) {
			present = append(present, k)
		}
	}
	return a.tx.RemoveProperties(present)
}
