package procedures

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/apache/iceberg-go/table"

	"github.com/lakesql/lakesql/catalog"
	"github.com/lakesql/lakesql/internal/engine"
	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/storage"
)

// rollbackToSnapshot is CALL system.rollback_to_snapshot(table, snapshot_id).
func rollbackToSnapshot(ctx context.Context, s *engine.Session, args map[string]*planner.Literal) (*engine.Result, error) {
	tbl, name, err := procedureTable(ctx, s, args)
	if err != nil {
		return nil, err
	}
	id, err := requiredInt64Arg(ctx, args, "snapshot_id")
	if err != nil {
		return nil, err
	}
	return rollback(ctx, s, tbl, name, id)
}

// rollbackToTimestamp is CALL system.rollback_to_timestamp(table, timestamp):
// back to the latest ancestor of the current snapshot committed before then.
func rollbackToTimestamp(ctx context.Context, s *engine.Session, args map[string]*planner.Literal) (*engine.Result, error) {
	tbl, name, err := procedureTable(ctx, s, args)
	if err != nil {
		return nil, err
	}
	at, ok, err := timeArg(ctx, args, "timestamp")
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, errors.New("argument timestamp is required")
	}
	cur := tbl.CurrentSnapshot()
	if cur == nil {
		return nil, fmt.Errorf("table %s has no snapshots to roll back to", name)
	}
	for _, snap := range table.AncestorsOf(cur.SnapshotID, tbl.Metadata().SnapshotByID) {
		if time.UnixMilli(snap.TimestampMs).Before(at) {
			return rollback(ctx, s, tbl, name, snap.SnapshotID)
		}
	}
	return nil, fmt.Errorf("no ancestor of the current snapshot of %s was committed before %s", name, at.UTC().Format("2006-01-02 15:04:05.999999"))
}

// rollback makes snapshot id, an ancestor of the current one, current again.
func rollback(ctx context.Context, s *engine.Session, tbl *table.Table, name string, id int64) (*engine.Result, error) {
	cur := tbl.CurrentSnapshot()
	if cur == nil {
		return nil, fmt.Errorf("table %s has no snapshots to roll back to", name)
	}
	if tbl.SnapshotByID(id) == nil {
		return nil, unknownSnapshot(tbl.Metadata(), name, id)
	}
	if !table.IsAncestorOf(cur.SnapshotID, id, tbl.Metadata().SnapshotByID) {
		return nil, fmt.Errorf("snapshot %d is not an ancestor of the current snapshot %d of %s (set_current_snapshot moves to any snapshot)", id, cur.SnapshotID, name)
	}
	tx := tbl.NewTransaction()
	if err := tx.RollbackToSnapshot(id); err != nil {
		return nil, fmt.Errorf("roll back %s: %w", name, err)
	}
	err := storage.RetryCommit(ctx, tbl, func(cur *table.Table) error {
		if _, err := storage.CommitTransaction(ctx, cur, tx); err != nil {
			return fmt.Errorf("roll back %s: %w", name, err)
		}
		return nil
	}, func(fresh *table.Table) error { return mainMoved("roll back", name, tbl, fresh) })
	if err != nil {
		return nil, err
	}
	return bigintRow(snapshotChangeColumns, &cur.SnapshotID, &id), nil
}

var snapshotChangeColumns = []string{"previous_snapshot_id", "current_snapshot_id"}

// mainMoved refuses to retry a change of the main branch (a rollback, a
// set_current_snapshot) that lost a race to a commit that moved it: it
// would undo that commit. A race for the next version's claim that left
// the branch where it was is retried.
func mainMoved(what, name string, read, fresh *table.Table) error {
	if catalog.SnapshotID(read) != catalog.SnapshotID(fresh) {
		return fmt.Errorf("%s %s failed: another writer committed to it meanwhile; nothing was changed, run it again", what, name)
	}
	return nil
}
