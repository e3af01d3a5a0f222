package procedures

import (
	"context"
	"fmt"

	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/table"

	"github.com/lakesql/lakesql/internal/engine"
	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/storage"
)

// BeforeRewriteCommit, when set (by tests only), runs before each commit attempt
// of a rewrite, to commit concurrently at the worst moment.
var BeforeRewriteCommit func()

// rewriteCommit commits the batches of one rewrite_data_files call as
// Iceberg "replace" snapshots, through iceberg-go's RewriteFiles, which
// stages the replacement with rewrite semantics (no data changed, so
// concurrent appends do not conflict).
type rewriteCommit struct {
	s      *engine.Session
	target *planner.TableRef
	tbl    *table.Table // the latest state known: the base of the next commit
}

func newRewriteCommit(s *engine.Session, target *planner.TableRef) *rewriteCommit {
	return &rewriteCommit{s: s, target: target, tbl: target.Table}
}

// commit replaces old by added in one snapshot. The filesystem catalog
// refuses a commit whose base snapshot is no longer current without
// retrying it, so storage.RetryCommit retries it on the reloaded table, once
// the concurrent commits are known not to touch the rewritten files: files
// they added stay, as the rewrite only removes the files it read.
func (c *rewriteCommit) commit(ctx context.Context, old, added []iceberg.DataFile) error {
	return storage.RetryCommit(ctx, c.tbl, func(tbl *table.Table) error {
		if BeforeRewriteCommit != nil {
			BeforeRewriteCommit()
		}
		return c.attempt(ctx, tbl, old, added)
	}, func(fresh *table.Table) error {
		return storage.CheckConflicts(ctx, c.s.Warehouse().FS(), c.s.Manifests(), c.target.Table, fresh, old, true)
	})
}

// attempt stages and commits the replacement on tbl; the table it commits
// is the base of the next batch's commit.
func (c *rewriteCommit) attempt(ctx context.Context, tbl *table.Table, old, added []iceberg.DataFile) error {
	tx := storage.NewTransaction(tbl)
	if err := tx.AssertRefSnapshotID(table.MainBranch); err != nil {
		return err
	}
	rw := tx.NewRewrite(iceberg.Properties{"lakesql.operation": "rewrite_data_files"})
	if tbl.Metadata().Version() >= 2 {
		// As Iceberg's use-starting-sequence-number: equality deletes
		// committed while the rewrite ran still apply to its new files.
		rw.DataSequenceNumber(c.target.Snapshot.SequenceNumber)
	}
	for _, df := range old {
		rw.DeleteFile(df)
	}
	for _, df := range added {
		rw.AddDataFile(df)
	}
	if err := rw.Commit(ctx); err != nil {
		return fmt.Errorf("rewrite of %s: %w", c.target.QualifiedName(), err)
	}
	next, err := storage.CommitTransaction(ctx, tbl, tx)
	if err != nil {
		return fmt.Errorf("rewrite of %s: %w", c.target.QualifiedName(), err)
	}
	c.tbl = next
	return nil
}
