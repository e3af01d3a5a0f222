package exec

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	icebergio "github.com/apache/iceberg-go/io"

	"github.com/lakesql/lakesql/planner"
	store "github.com/lakesql/lakesql/storage"
)

// Env is what building operators needs from the session.
type Env struct {
	// FS reads table files.
	FS icebergio.IO
	// ScanStats, when set, receives per-scan counters keyed by plan node.
	ScanStats map[*planner.Scan]*ScanStats
}

// Build turns a logical plan into a tree of operators.
func Build(ctx context.Context, p planner.Plan, env *Env) (Operator, error) {
	switch p := p.(type) {
	case *planner.Scan:
		return buildScan(ctx, p, env)
	case *planner.Filter:
		input, err := Build(ctx, p.Input, env)
		if err != nil {
			return nil, err
		}
		return NewFilter(input, p.Cond), nil
	case *planner.Project:
		input, err := Build(ctx, p.Input, env)
		if err != nil {
			return nil, err
		}
		return NewProject(input, p.Exprs, p.Names), nil
	case *planner.Limit:
		input, err := Build(ctx, p.Input, env)
		if err != nil {
			return nil, err
		}
		return NewLimit(input, p.Limit, p.Offset), nil
	case *planner.Values:
		return NewValues(ArrowSchema(p.Columns), p.Rows), nil
	}
	return nil, fmt.Errorf("no operator for plan node %T", p)
}

// ArrowSchema is the Arrow schema of plan columns.
func ArrowSchema(cols []planner.Column) *arrow.Schema {
	fields := make([]arrow.Field, len(cols))
	for i, c := range cols {
		fields[i] = arrow.Field{Name: c.Name, Type: c.T, Nullable: true}
	}
	return arrow.NewSchema(fields, nil)
}

func buildScan(ctx context.Context, p *planner.Scan, env *Env) (Operator, error) {
	listed, err := store.ListSnapshotFiles(ctx, env.FS, p.Table.Snapshot)
	if err != nil {
		return nil, fmt.Errorf("scan %s: %w", p.Table.QualifiedName(), err)
	}
	if n := len(listed.DeleteFiles); n > 0 {
		// Returning rows without applying deletes would be a wrong answer.
		return nil, fmt.Errorf("scan %s: the table has %d delete files (merge-on-read deletes), which lakesql cannot apply yet", p.Table.QualifiedName(), n)
	}
	files := make([]ScanFile, len(listed.DataFiles))
	for i, df := range listed.DataFiles {
		files[i] = ScanFile{Path: df.FilePath(), Size: df.FileSizeBytes()}
	}
	cols := make([]store.ReadColumn, len(p.Columns))
	for i, c := range p.Columns {
		cols[i] = store.ReadColumn{FieldID: c.FieldID, Name: c.Name, Type: c.T}
	}
	var stats *ScanStats
	if env.ScanStats != nil {
		stats = &ScanStats{}
		env.ScanStats[p] = stats
	}
	return NewTableScan(env.FS, files, cols, stats), nil
}
