package dml

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakesql/lakesql/internal/engine"
	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/sql"
	"github.com/lakesql/lakesql/storage"
)

// Insert runs INSERT INTO t … and INSERT OVERWRITE t … (VALUES or a query),
// with Spark's static PARTITION (col = value, …) and Delta's REPLACE WHERE.
func Insert(ctx context.Context, s *engine.Session, st *sql.Insert) (*engine.Result, error) {
	target, err := s.ResolveTable(ctx, st.Table, nil)
	if err != nil {
		return nil, err
	}
	if st.Partition != nil || st.ReplaceWhere != nil {
		return insertReplacing(ctx, s, target, st)
	}
	rows, err := runInsertSource(ctx, s, target, st)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	if st.Overwrite {
		return insertOverwrite(ctx, s, target, rows.types, rows.next)
	}
	n, err := storage.Append(ctx, target.Table, target.FS, rows.types, rows.next)
	if err != nil {
		return nil, err
	}
	return engine.RowCount(n, "inserted"), nil
}

// insertRows are the rows an INSERT writes, in the table's column order.
type insertRows struct {
	res   *engine.Result
	types []arrow.DataType
	next  func() (arrow.RecordBatch, error)
}

func (r *insertRows) Close() { r.res.Close() }

// runInsertSource binds, optimizes and starts the source of an INSERT.
func runInsertSource(ctx context.Context, s *engine.Session, target *planner.TableRef, st *sql.Insert) (*insertRows, error) {
	p, err := planner.BindInsert(ctx, s, target, st)
	if err != nil {
		return nil, err
	}
	if p, err = s.Optimize(ctx, p); err != nil {
		return nil, err
	}
	res, err := s.Run(ctx, p, nil)
	if err != nil {
		return nil, err
	}
	types := make([]arrow.DataType, len(res.Schema.Fields()))
	for i, f := range res.Schema.Fields() {
		types[i] = f.Type
	}
	return &insertRows{res: res, types: types, next: func() (arrow.RecordBatch, error) { return res.Next(ctx) }}, nil
}
