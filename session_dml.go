package lakesql

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakesql/lakesql/optimizer"
	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/sql"
	"github.com/lakesql/lakesql/storage"
)

func (s *Session) insert(ctx context.Context, st *sql.Insert) (*Result, error) {
	target, err := s.ResolveTable(ctx, st.Table, nil)
	if err != nil {
		return nil, err
	}
	p, err := planner.BindInsert(ctx, s, target, st)
	if err != nil {
		return nil, err
	}
	res, err := s.run(ctx, optimizer.Optimize(p), nil)
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
		return s.insertOverwrite(ctx, target, types, next)
	}
	rows, err := storage.Append(ctx, target.Table, s.wh.FS(), types, next)
	if err != nil {
		return nil, err
	}
	return message(fmt.Sprintf("%d rows inserted", rows)), nil
}
