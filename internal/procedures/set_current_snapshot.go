package procedures

import (
	"context"
	"errors"
	"fmt"

	"github.com/apache/iceberg-go/table"

	"github.com/lakesql/lakesql/internal/engine"
	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/storage"
)

// setCurrentSnapshot is CALL system.set_current_snapshot(table, snapshot_id,
// ref): any snapshot of the table, or the one a branch or tag points at,
// becomes current, whether or not it is an ancestor of the current one.
func setCurrentSnapshot(ctx context.Context, s *engine.Session, args map[string]*planner.Literal) (*engine.Result, error) {
	tbl, name, err := procedureTable(ctx, s, args)
	if err != nil {
		return nil, err
	}
	id, err := targetSnapshot(ctx, tbl, name, args)
	if err != nil {
		return nil, err
	}
	meta := tbl.Metadata()
	var prev *int64
	if cur := meta.CurrentSnapshot(); cur != nil {
		prev = &cur.SnapshotID
	}
	b, err := table.MetadataBuilderFromBase(meta, tbl.MetadataLocation())
	if err != nil {
		return nil, fmt.Errorf("set current snapshot of %s: %w", name, err)
	}
	// The main branch must still be where it was read: a concurrent commit
	// fails this one instead of being undone by it.
	reqs := []table.Requirement{table.AssertTableUUID(meta.TableUUID()), table.AssertRefSnapshotID(table.MainBranch, prev)}
	updates := []table.Update{b.NewRetainingSnapshotRefUpdate(table.MainBranch, id, table.BranchRef)}
	err = storage.RetryCommit(ctx, tbl, func(*table.Table) error {
		if _, _, err := s.Warehouse().CommitTable(ctx, tbl.Identifier(), reqs, updates); err != nil {
			return fmt.Errorf("set current snapshot of %s: %w", name, err)
		}
		return nil
	}, func(fresh *table.Table) error { return mainMoved("set current snapshot of", name, tbl, fresh) })
	if err != nil {
		return nil, err
	}
	return bigintRow(snapshotChangeColumns, prev, &id), nil
}

// targetSnapshot reads set_current_snapshot's snapshot_id or ref, exactly one
// of which is given.
func targetSnapshot(ctx context.Context, tbl *table.Table, name string, args map[string]*planner.Literal) (int64, error) {
	id, byID, err := int64Arg(ctx, args, "snapshot_id")
	if err != nil {
		return 0, err
	}
	_, byRef := args["ref"]
	switch {
	case byID == byRef:
		return 0, errors.New("set_current_snapshot needs exactly one of snapshot_id and ref")
	case byRef:
		ref, err := stringArg(args, "ref")
		if err != nil {
			return 0, err
		}
		snap := tbl.SnapshotByName(ref)
		if snap == nil {
			return 0, fmt.Errorf("table %s has no branch or tag %q (list them with SELECT name FROM %s.refs)", name, ref, name)
		}
		return snap.SnapshotID, nil
	}
	if tbl.SnapshotByID(id) == nil {
		return 0, unknownSnapshot(tbl.Metadata(), name, id)
	}
	return id, nil
}

func unknownSnapshot(meta table.Metadata, name string, id int64) error {
	return fmt.Errorf("table %s has no snapshot %d (it has %d; list them with SELECT snapshot_id, committed_at FROM %s.snapshots)", name, id, len(meta.Snapshots()), name)
}

// ---- procedure arguments and results ----
