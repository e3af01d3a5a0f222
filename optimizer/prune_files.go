package optimizer

import (
	"context"
	"fmt"

	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/storage"
)

// pruneFiles decides which data files each table scan reads: the scan's
// filter is projected through every partition spec's transforms and tested
// on manifest summaries and file partition tuples, then on file column
// bounds (storage.PlanScan). The decision is stored in Scan.Files, so the
// executor reads exactly those files and EXPLAIN prints how they were
// chosen. A scan the rule does not reach (it is disabled) reads every file.
func pruneFiles(ctx context.Context, env *Env, p planner.Plan) (planner.Plan, error) {
	scan, ok := p.(*planner.Scan)
	if !ok {
		return withChildrenErr(p, func(c planner.Plan) (planner.Plan, error) { return pruneFiles(ctx, env, c) })
	}
	req := storage.ScanRequest{
		Metadata: scan.Table.Table.Metadata(),
		Snapshot: scan.Table.Snapshot,
		Schema:   scan.Table.Schema,
		Prune:    true,
		Cache:    env.Manifests,
	}
	if scan.Filter != nil {
		req.Filter, _ = planner.IcebergFilter(scan.Filter, scan.Columns)
	}
	files, err := storage.PlanScan(ctx, scan.Table.FS, req)
	if err != nil {
		return nil, fmt.Errorf("scan %s: %w", scan.Table.QualifiedName(), err)
	}
	out := *scan
	out.Files = files
	return &out, nil
}
