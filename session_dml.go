package lakesql

import (
	"context"
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakesql/lakesql/optimizer"
	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/sql"
	"github.com/lakesql/lakesql/storage"
)

func (s *Session) insert(ctx context.Context, st *sql.Insert) (*Result, error) {
	if st.Overwrite {
		return nil, fmt.Errorf("INSERT OVERWRITE is not supported yet")
	}
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
	rows, err := storage.Append(ctx, target.Table, s.wh.FS(), types, func() (arrow.RecordBatch, error) {
		return res.Next(ctx)
	})
	if err != nil {
		return nil, err
	}
	return message(fmt.Sprintf("%d rows inserted", rows)), nil
}

func (s *Session) explain(ctx context.Context, st *sql.Explain) (*Result, error) {
	if st.Analyze {
		return nil, fmt.Errorf("EXPLAIN ANALYZE is not supported yet")
	}
	q, ok := st.Stmt.(*sql.QueryStmt)
	if !ok {
		return nil, fmt.Errorf("EXPLAIN supports queries only, not %s", statementName(st.Stmt))
	}
	p, err := s.plan(ctx, q.Query)
	if err != nil {
		return nil, err
	}
	var lines [][]string
	var walk func(planner.Plan, int) error
	walk = func(p planner.Plan, depth int) error {
		line := strings.Repeat("  ", depth) + p.Describe()
		if scan, ok := p.(*planner.Scan); ok {
			listed, err := storage.ListSnapshotFiles(ctx, s.wh.FS(), scan.Table.Snapshot)
			if err != nil {
				return err
			}
			line += fmt.Sprintf(" data_files=%d", len(listed.DataFiles))
		}
		lines = append(lines, []string{line})
		for _, c := range p.Children() {
			if err := walk(c, depth+1); err != nil {
				return err
			}
		}
		return nil
	}
	if err := walk(p, 0); err != nil {
		return nil, err
	}
	return textRows([]string{"plan"}, lines), nil
}
