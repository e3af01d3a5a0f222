package dml

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakesql/lakesql/internal/engine"
	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/sql"
	"github.com/lakesql/lakesql/storage"
)

// Insert runs INSERT INTO t … and INSERT OVERWRITE t … (VALUES or a query).
func Insert(ctx context.Context, s *engine.Session, st *sql.Insert) (*engine.Result, error) {
	target, err := s.ResolveTable(ctx, st.Table, nil)
	if err != nil {
		return nil, err
	}
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
	defer res.Close()
	types := make([]arrow.DataType, len(res.Schema.Fields()))
	for i, f := range res.Schema.Fields() {
		types[i] = f.Type
	}
	next := func() (arrow.RecordBatch, error) { return res.Next(ctx) }
	if st.Overwrite {
		return insertOverwrite(ctx, s, target, types, next)
	}
	rows, err := storage.Append(ctx, target.Table, s.Warehouse().FS(), types, next)
	if err != nil {
		return nil, err
	}
	return engine.RowCount(rows, "inserted"), nil
}
