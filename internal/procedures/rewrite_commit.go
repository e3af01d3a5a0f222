package procedures

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/table"

	"github.com/lakesql/lakesql/catalog"
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
	start  *storage.ScanPlan // the snapshot the rewrite read, for conflict checks
	tbl    *table.Table      // the latest state known: the base of the next commit
}

func newRewriteCommit(s *engine.Session, target *planner.TableRef) *rewriteCommit {
	return &rewriteCommit{s: s, target: target, tbl: target.Table}
}

// commit replaces old by added in one snapshot. The filesystem catalog
// refuses a commit whose base snapshot is no longer current without
// retrying it, so a refused commit is retried here on the reloaded table,
// once the concurrent commits are known not to touch the rewritten files:
// files they added stay, as the rewrite only removes the files it read.
func (c *rewriteCommit) commit(ctx context.Context, old, added []iceberg.DataFile) error {
	var err error
	for attempt := range commitAttempts {
		if BeforeRewriteCommit != nil {
			BeforeRewriteCommit()
		}
		if err = c.attempt(ctx, old, added); err == nil {
			return nil
		}
		moved, committed, rerr := c.reload(ctx, added)
		switch {
		case rerr != nil:
			return fmt.Errorf("%w (and reloading the table failed: %v)", err, rerr)
		case committed:
			return nil // the catalog took the commit though it reported an error
		case !moved && !errors.Is(err, table.ErrCommitFailed):
			return err
		}
		if !moved {
			// Another writer holds the version's claim but has not written
			// it yet: wait for its commit, then validate against it.
			if attempt == commitAttempts-1 {
				break
			}
			if berr := storage.CommitBackoff(ctx, attempt+1); berr != nil {
				return berr
			}
			continue
		}
		if verr := c.validate(ctx, old); verr != nil {
			return verr
		}
	}
	return errLostRaces("rewrite", c.target.QualifiedName())
}

// attempt stages and commits the replacement on c.tbl.
func (c *rewriteCommit) attempt(ctx context.Context, old, added []iceberg.DataFile) error {
	tx := c.tbl.NewTransaction()
	if err := tx.AssertRefSnapshotID(table.MainBranch); err != nil {
		return err
	}
	rw := tx.NewRewrite(iceberg.Properties{"lakesql.operation": "rewrite_data_files"})
	if c.tbl.Metadata().Version() >= 2 {
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
	next, err := tx.Commit(ctx)
	if err != nil {
		return fmt.Errorf("rewrite of %s: %w", c.target.QualifiedName(), err)
	}
	c.tbl = next
	return nil
}

// reload loads the table after a failed commit: moved reports another
// snapshot, committed that it holds the rewrite's own files.
func (c *rewriteCommit) reload(ctx context.Context, added []iceberg.DataFile) (moved, committed bool, err error) {
	fresh, err := c.s.Warehouse().LoadTable(ctx, c.target.Namespace, c.target.Name)
	if err != nil {
		return false, false, err
	}
	if catalog.SnapshotID(fresh) == catalog.SnapshotID(c.tbl) {
		return false, false, nil
	}
	c.tbl = fresh
	live, err := c.liveFiles(ctx, fresh)
	if err != nil {
		return true, false, err
	}
	_, committed = live.paths[added[0].FilePath()]
	return true, committed, nil
}

// liveSet is the data files of a snapshot by path, with its scan plan.
type liveSet struct {
	plan  *storage.ScanPlan
	paths map[string]int
}

func (c *rewriteCommit) liveFiles(ctx context.Context, tbl *table.Table) (liveSet, error) {
	plan, err := storage.PlanScan(ctx, c.s.Warehouse().FS(), storage.ScanRequest{
		Metadata: tbl.Metadata(), Snapshot: tbl.CurrentSnapshot(), Schema: tbl.Schema(), Cache: c.s.Manifests()})
	if err != nil {
		return liveSet{}, err
	}
	set := liveSet{plan: plan, paths: make(map[string]int, len(plan.Files))}
	for i, df := range plan.Files {
		set.paths[df.FilePath()] = i
	}
	return set, nil
}

// validate refuses to commit on top of c.tbl when a concurrent commit
// removed a file the rewrite read (its rows may have been deleted or moved:
// committing would resurrect or duplicate them), or added a position delete
// file for one (its deletes would be lost). New equality deletes are fine:
// the new files keep the starting sequence number, so they still apply.
func (c *rewriteCommit) validate(ctx context.Context, old []iceberg.DataFile) error {
	if c.start == nil {
		start, err := c.liveFiles(ctx, c.target.Table)
		if err != nil {
			return err
		}
		c.start = start.plan
	}
	live, err := c.liveFiles(ctx, c.tbl)
	if err != nil {
		return err
	}
	known := map[string]bool{}
	for _, del := range c.start.DeleteFiles {
		known[del.FilePath()] = true
	}
	var removed []string
	for _, df := range old {
		i, ok := live.paths[df.FilePath()]
		if !ok {
			removed = append(removed, df.FilePath())
			continue
		}
		if err := c.checkNewDeletes(live.plan, i, known); err != nil {
			return err
		}
	}
	if len(removed) > 0 {
		return fmt.Errorf("rewrite of %s failed: a concurrent commit removed %d of the files being rewritten (%s); nothing was changed",
			c.target.QualifiedName(), len(removed), strings.Join(removed[:min(3, len(removed))], ", "))
	}
	return nil
}

// checkNewDeletes fails when a position delete file the rewrite did not see
// may apply to data file i of plan.
func (c *rewriteCommit) checkNewDeletes(plan *storage.ScanPlan, i int, known map[string]bool) error {
	df := plan.Files[i]
	for j, del := range plan.DeleteFiles {
		if known[del.FilePath()] || del.ContentType() != iceberg.EntryContentPosDeletes {
			continue
		}
		applies, err := storage.DeleteMayApply(c.tbl.Metadata(), c.tbl.Schema(), df, plan.FileSeqs[i], del, plan.DeleteSeqs[j])
		if err != nil {
			return err
		}
		if applies {
			return fmt.Errorf("rewrite of %s failed: a concurrent commit deleted rows of %s, which was being rewritten; nothing was changed",
				c.target.QualifiedName(), df.FilePath())
		}
	}
	return nil
}
