package procedures

import (
	"context"
	"fmt"

	"github.com/apache/iceberg-go/table"

	"github.com/lakesql/lakesql/internal/engine"
	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/storage"
)

// rewriteManifests is CALL system.rewrite_manifests(table, spec_id): the
// current snapshot's data manifests are rewritten clustered by partition,
// as a commit that adds files across many partitions writes them
// (storage.ManifestGroups), so that a selective query skips most manifests
// by their partition summaries. Only metadata is written, as one "replace"
// snapshot; every entry keeps its snapshot id and sequence numbers, so
// time travel and which deletes apply to which files are unchanged. Delete
// manifests are left as they are. Manifests already holding exactly one
// group are kept, so a second call changes nothing. Returns Spark's
// rewritten_manifests_count and added_manifests_count.
func rewriteManifests(ctx context.Context, s *engine.Session, args map[string]*planner.Literal) (*engine.Result, error) {
	tbl, name, err := procedureTable(ctx, s, args)
	if err != nil {
		return nil, err
	}
	id, bySpec, err := int64Arg(ctx, args, "spec_id")
	if err != nil {
		return nil, err
	}
	var specID *int
	if bySpec {
		if tbl.Metadata().PartitionSpecByID(int(id)) == nil {
			return nil, fmt.Errorf("table %s has no partition spec %d", name, id)
		}
		specID = new(int)
		*specID = int(id)
	}
	var rewritten, added int64
	err = storage.RetryCommit(ctx, tbl, func(cur *table.Table) error {
		rewritten, added = 0, 0
		plan, err := storage.PlanManifestRewrite(ctx, s.Warehouse().FS(), s.Manifests(), cur.Metadata(), cur.CurrentSnapshot(), specID)
		if err != nil {
			return fmt.Errorf("rewrite manifests of %s: %w", name, err)
		}
		// The plan is of the snapshot read: a concurrent commit fails
		// this attempt, and the next one plans the table it left.
		tx := cur.NewTransaction()
		if err := tx.AssertRefSnapshotID(table.MainBranch); err != nil {
			return err
		}
		opts := plan.Options()
		if specID != nil {
			opts = append(opts, table.WithRewriteSpecID(*specID))
		}
		res, err := tx.RewriteManifests(ctx, opts...)
		if err != nil {
			return fmt.Errorf("rewrite manifests of %s: %w", name, err)
		}
		if res.IsNoOp() {
			return nil
		}
		if _, err := storage.CommitTransaction(ctx, cur, tx); err != nil {
			return fmt.Errorf("rewrite manifests of %s: %w", name, err)
		}
		rewritten, added = int64(len(res.RewrittenManifests)), int64(len(res.AddedManifests))
		return nil
	}, nil)
	if err != nil {
		return nil, err
	}
	return bigintRow([]string{"rewritten_manifests_count", "added_manifests_count"}, &rewritten, &added), nil
}
