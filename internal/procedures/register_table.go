package procedures

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/lakesql/lakesql/internal/engine"
	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/sql"
)

// registerTable is CALL system.register_table(table => 'ns.t', metadata_file => '…/vN.metadata.json').
func registerTable(ctx context.Context, s *engine.Session, args map[string]*planner.Literal) (*engine.Result, error) {
	name, err := stringArg(args, "table")
	if err != nil {
		return nil, err
	}
	metadataFile, err := stringArg(args, "metadata_file")
	if err != nil {
		return nil, err
	}
	ns, t, err := defaultCatalogTable(ctx, s, sql.ObjectName{Parts: strings.Split(name, ".")})
	if err != nil {
		return nil, err
	}
	// The table's folder, above metadata/, holds what the table reads.
	if err := planner.CheckFileAccess(ctx, filepath.Dir(filepath.Dir(metadataFile)), false); err != nil {
		return nil, fmt.Errorf("register_table: %w", err)
	}
	tbl, err := s.Warehouse().RegisterTable(ctx, ns, t, metadataFile)
	if err != nil {
		return nil, err
	}
	snap, rows, files := "", "0", "0"
	if cur := tbl.CurrentSnapshot(); cur != nil {
		snap = fmt.Sprint(cur.SnapshotID)
		if cur.Summary != nil {
			rows = cur.Summary.Properties["total-records"]
			files = cur.Summary.Properties["total-data-files"]
		}
	}
	return engine.TextRows([]string{"current_snapshot_id", "total_records_count", "total_data_files_count"}, [][]string{{snap, rows, files}}), nil
}
