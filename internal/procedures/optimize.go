package procedures

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakesql/lakesql/internal/engine"
	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/sql"
)

// Optimize is Delta's OPTIMIZE t [WHERE cond] [ZORDER BY (a, b)], run as
// rewrite_data_files. Plain OPTIMIZE bin-packs, and like Delta compacts a
// partition's small files as soon as there are two of them (Iceberg waits
// for five). ZORDER BY rewrites every file the condition may match, sorted
// by zorder(a, b), as Delta's z-ordering does. Unlike Delta, the condition
// may name any column: it selects the files that may hold matching rows.
func Optimize(ctx context.Context, s *engine.Session, st *sql.Optimize) (*engine.Result, error) {
	if _, _, err := defaultCatalogTable(ctx, s, st.Table); err != nil {
		return nil, err
	}
	target, err := s.ResolveTable(ctx, st.Table, nil)
	if err != nil {
		return nil, err
	}
	scan, err := planner.NewScan(target, "")
	if err != nil {
		return nil, err
	}
	req := newRewriteRequest(target, scan)
	req.opts.MinInputFiles = 2
	if st.Where != nil {
		if req.where, err = s.BindCondition(ctx, scan, st.Where, "OPTIMIZE … WHERE"); err != nil {
			return nil, err
		}
	}
	if len(st.ZOrder) > 0 {
		if req.sort, err = zorderSort(st.ZOrder, scan.Columns); err != nil {
			return nil, err
		}
		req.opts.RewriteAll = true
	}
	m, err := rewrite(ctx, s, req)
	if err != nil {
		return nil, err
	}
	// Delta returns the table's path and a metrics struct; its main
	// counters are flattened into columns here.
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "path", Type: arrow.BinaryTypes.String},
		{Name: "num_files_added", Type: arrow.PrimitiveTypes.Int64},
		{Name: "num_files_removed", Type: arrow.PrimitiveTypes.Int64},
		{Name: "bytes_added", Type: arrow.PrimitiveTypes.Int64},
		{Name: "bytes_removed", Type: arrow.PrimitiveTypes.Int64},
		{Name: "num_batches", Type: arrow.PrimitiveTypes.Int64},
	}, nil)
	return oneRow(schema, target.Table.Location(), int64(m.addedFiles), int64(m.rewrittenFiles),
		m.addedBytes, m.rewrittenBytes, int64(m.groups)), nil
}
