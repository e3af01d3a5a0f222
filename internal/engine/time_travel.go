package engine

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/iceberg-go/table"

	"github.com/lakesql/lakesql/exec/expr"
	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/sql"
	"github.com/lakesql/lakesql/value"
)

// timeTravel points ref at the snapshot that FOR SYSTEM_VERSION / SYSTEM_TIME
// AS OF asks for, and at that snapshot's schema: rows are read as they were
// then, so columns added since do not exist and dropped ones still do.
func (s *Session) timeTravel(ctx context.Context, ref *planner.TableRef, travel *sql.TimeTravel) error {
	var snap *table.Snapshot
	var err error
	if travel.Kind == "TIMESTAMP" {
		snap, err = s.snapshotAsOfTime(ctx, ref, travel.Value)
	} else {
		snap, err = s.snapshotAsOfVersion(ctx, ref, travel.Value)
	}
	if err != nil {
		return err
	}
	ref.Snapshot = snap
	if snap.SchemaID == nil {
		return nil // format v1 snapshots may not record a schema: the current one applies
	}
	if schema, ok := ref.Table.Schemas()[*snap.SchemaID]; ok {
		ref.Schema = schema
		return nil
	}
	return fmt.Errorf("snapshot %d of %s refers to schema %d, which the table metadata does not hold", snap.SnapshotID, ref.QualifiedName(), *snap.SchemaID)
}

// snapshotAsOfVersion resolves VERSION AS OF: a snapshot id, or (as in Spark)
// the name of a branch or tag.
func (s *Session) snapshotAsOfVersion(ctx context.Context, ref *planner.TableRef, e sql.Expr) (*table.Snapshot, error) {
	x, err := planner.BindExpr(ctx, s, e, nil)
	if err != nil {
		return nil, err
	}
	switch {
	case planner.IsInteger(x.Type()):
		v, err := ConstantValue(ctx, "VERSION AS OF", x, planner.TypeBigint)
		if err != nil {
			return nil, err
		}
		id := v.(*array.Int64).Value(0)
		if snap := ref.Table.SnapshotByID(id); snap != nil {
			return snap, nil
		}
		return nil, fmt.Errorf("table %s has no snapshot %d (list them with SELECT snapshot_id, committed_at FROM %s.snapshots)", ref.QualifiedName(), id, ref.QualifiedName())
	case arrow.TypeEqual(x.Type(), planner.TypeVarchar):
		v, err := ConstantValue(ctx, "VERSION AS OF", x, planner.TypeVarchar)
		if err != nil {
			return nil, err
		}
		name := v.(*array.String).Value(0)
		if snap := ref.Table.SnapshotByName(name); snap != nil {
			return snap, nil
		}
		return nil, fmt.Errorf("table %s has no branch or tag %q (list them with SELECT name FROM %s.refs)", ref.QualifiedName(), name, ref.QualifiedName())
	}
	return nil, fmt.Errorf("VERSION AS OF needs a snapshot id or a branch or tag name, got %s", planner.TypeString(x.Type()))
}

// snapshotAsOfTime resolves TIMESTAMP AS OF: the snapshot that was current at
// that time, following the table's history (so a rolled-back snapshot is not
// chosen for a time after the rollback).
func (s *Session) snapshotAsOfTime(ctx context.Context, ref *planner.TableRef, e sql.Expr) (*table.Snapshot, error) {
	x, err := planner.BindExpr(ctx, s, e, nil)
	if err != nil {
		return nil, err
	}
	switch x.Type().ID() {
	case arrow.STRING, arrow.DATE32, arrow.TIMESTAMP:
	default:
		return nil, fmt.Errorf("TIMESTAMP AS OF needs a timestamp, got %s", planner.TypeString(x.Type()))
	}
	v, err := ConstantValue(ctx, "TIMESTAMP AS OF", x, planner.TypeTimestampTZ)
	if err != nil {
		return nil, err
	}
	micros := int64(v.(*array.Timestamp).Value(0))
	if snap := ref.Table.SnapshotAsOf(floorDiv(micros, 1000), true); snap != nil {
		return snap, nil
	}
	at := value.FormatTimestamp(micros)
	return nil, fmt.Errorf("no snapshot of %s at or before %s", ref.QualifiedName(), at)
}

// ConstantValue evaluates the bound expression of a clause, which references
// no columns, converted to type t, as a one-element array. NULL is refused:
// no snapshot is "as of NULL".
func ConstantValue(ctx context.Context, clause string, x planner.Expr, t arrow.DataType) (arrow.Array, error) {
	if !arrow.TypeEqual(x.Type(), t) {
		x = &planner.Cast{X: x, T: t}
	}
	one := array.NewRecordBatch(arrow.NewSchema(nil, nil), nil, 1)
	defer one.Release()
	v, err := expr.Eval(ctx, x, one, memory.DefaultAllocator)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", clause, err)
	}
	if v.IsNull(0) {
		return nil, fmt.Errorf("%s needs a value, got NULL", clause)
	}
	return v, nil
}

// floorDiv divides rounding toward negative infinity, so that a time before
// 1970 still maps to the millisecond that contains it.
func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && a < 0 {
		q--
	}
	return q
}
