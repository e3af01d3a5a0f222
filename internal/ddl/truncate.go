package ddl

import (
	"context"
	"fmt"

	"github.com/lakesql/lakesql/internal/dml"
	"github.com/lakesql/lakesql/internal/engine"
	"github.com/lakesql/lakesql/sql"
	"github.com/lakesql/lakesql/storage"
)

// TruncateTable runs TRUNCATE TABLE t: one snapshot that removes every data
// file of the table, in metadata only. The table, its schema, partitioning,
// properties and history stay; earlier snapshots still read the old rows
// until they expire.
func TruncateTable(ctx context.Context, s *engine.Session, st *sql.TruncateTable) (*engine.Result, error) {
	target, err := s.ResolveTable(ctx, st.Name, nil)
	if err != nil {
		return nil, err
	}
	if target.Snapshot == nil {
		return engine.Message("OK"), nil
	}
	plan, err := storage.PlanScan(ctx, target.FS, storage.ScanRequest{Metadata: target.Table.Metadata(), Snapshot: target.Snapshot, Schema: target.Schema, Cache: s.Manifests()})
	if err != nil {
		return nil, fmt.Errorf("truncate %s: %w", target.QualifiedName(), err)
	}
	if len(plan.Files) > 0 {
		if err := dml.CommitReplace(ctx, s.Manifests(), target.Table, plan.Files, nil); err != nil {
			return nil, err
		}
	}
	return engine.Message("OK"), nil
}
