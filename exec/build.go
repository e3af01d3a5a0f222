package exec

import (
	"context"
	"fmt"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	icebergio "github.com/apache/iceberg-go/io"

	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/storage"
)

// Env is what building operators needs from the session.
type Env struct {
	// FS reads the files a query names ('events.csv'); a table's files are
	// read through its own (planner.TableRef.FS).
	FS icebergio.IO
	// ScanStats, when set, receives per-scan counters keyed by plan node.
	ScanStats map[*planner.Scan]*ScanStats
	// NoPruning turns off the pruning decided at run time — by subquery
	// values and by hash join build keys (SET pruning = off).
	NoPruning bool
	// ManifestCache keeps manifest entries across the session's scans (of
	// those the optimizer did not plan).
	ManifestCache *storage.ManifestCache
	// SimplifyFilter, when set, folds and normalizes a scan's filter once
	// the values of its subqueries stand in it, as the optimizer does at
	// plan time (optimizer.SimplifyScanFilter), so that they prune.
	SimplifyFilter func(planner.Expr) planner.Expr
	// Metrics, when set, receives per-operator counters keyed by plan node.
	Metrics map[planner.Plan]*OperatorMetrics

	// subqueries holds the statement's subquery results, each run once
	// (subquery.go).
	subqueries sync.Map
	// dynamicFilters holds the filters joins' build sides fill for their
	// probe scans (dynamic_pruning.go).
	dynamicFilters dynamicFilters
	// shared holds the rows of the statement's materialized WITH queries
	// (materialize.go).
	shared sync.Map
	// dictionaryKeys maps a scan to the columns it may read as dictionary
	// arrays (dictionary_keys.go).
	dictionaryKeys sync.Map
	// workTables holds, per recursive WITH query, the rows of its previous
	// round (work_table.go).
	workTables sync.Map
}

// Build turns a logical plan into a tree of operators. With env.Metrics set,
// every operator is metered for EXPLAIN ANALYZE; a plan built again (a
// recursive WITH query's step, every round) adds to its counts.
func Build(ctx context.Context, p planner.Plan, env *Env) (Operator, error) {
	op, err := buildNode(ctx, p, env)
	if err != nil || env.Metrics == nil {
		return op, err
	}
	m, ok := env.Metrics[p]
	if !ok {
		m = &OperatorMetrics{}
		env.Metrics[p] = m
	}
	return newMetered(op, m), nil
}

func buildNode(ctx context.Context, p planner.Plan, env *Env) (Operator, error) {
	switch p := p.(type) {
	case *planner.Scan:
		return buildScan(ctx, p, env)
	case *planner.FileScan:
		return buildFileScan(ctx, p, env)
	case *planner.MetadataAggregate:
		return buildMetadataAggregate(ctx, p, env)
	case *planner.Filter:
		input, err := Build(ctx, p.Input, env)
		if err != nil {
			return nil, err
		}
		return NewFilter(input, prepareSubqueries(p.Cond, env)), nil
	case *planner.Project:
		input, err := Build(ctx, p.Input, env)
		if err != nil {
			return nil, err
		}
		return NewProject(input, prepareAll(p.Exprs, env), p.Names), nil
	case *planner.Join:
		return buildJoin(ctx, p, env)
	case *planner.SetOp:
		return buildSetOp(ctx, p, env)
	case *planner.SubqueryAlias:
		// Renaming is the plan's business; the rows are the input's.
		return Build(ctx, p.Input, env)
	case *planner.Materialize:
		return buildMaterialize(p, env), nil
	case *planner.RecursiveCTE:
		return buildRecursiveCTE(p, env), nil
	case *planner.WorkTable:
		return buildWorkTable(p, env), nil
	case *planner.Limit:
		input, err := Build(ctx, p.Input, env)
		if err != nil {
			return nil, err
		}
		return NewLimit(input, p.Limit, p.Offset), nil
	case *planner.Values:
		return NewValues(ArrowSchema(p.Columns), p.Rows), nil
	case *planner.Rows:
		return NewBatches(ArrowSchema(p.Columns), p.Batches), nil
	case *planner.Series:
		return newSeries(p), nil
	case *planner.Aggregate, *planner.Sort, *planner.TopN, *planner.Distinct:
		return buildGrouping(ctx, p, env)
	case *planner.Window:
		return buildWindow(ctx, p, env)
	case *planner.Unnest:
		return buildUnnest(ctx, p, env)
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

// TableScanPlan is the data files a scan reads: those the optimizer's
// prune_files rule chose, or, when it did not run, every file of the
// snapshot. A filter that compares with uncorrelated subqueries can only
// prune once they have run: they run here, before the scan starts (their
// results are kept for the Filter above, so each runs once), and the files
// are planned again with their values.
func TableScanPlan(ctx context.Context, p *planner.Scan, env *Env) (*storage.ScanPlan, error) {
	if p.Files != nil && !planner.HasSubquery(p.Filter) {
		return p.Files, nil
	}
	return planFiles(ctx, p, env, p.Files != nil)
}

// planFiles lists the files of a scan, pruned by its filter (with its
// subqueries run) when prune is set.
func planFiles(ctx context.Context, p *planner.Scan, env *Env, prune bool) (*storage.ScanPlan, error) {
	req := storage.ScanRequest{
		Metadata: p.Table.Table.Metadata(),
		Snapshot: p.Table.Snapshot,
		Schema:   p.Table.Schema,
		Prune:    prune,
		Cache:    env.ManifestCache,
	}
	if req.Prune {
		filter, _ := resolveSubqueries(ctx, p.Filter, env)
		req.Filter, _ = planner.IcebergFilter(filter, p.Columns)
	}
	plan, err := storage.PlanScan(ctx, p.Table.FS, req)
	if err != nil {
		return nil, fmt.Errorf("scan %s: %w", p.Table.QualifiedName(), err)
	}
	return plan, nil
}

func buildScan(ctx context.Context, p *planner.Scan, env *Env) (Operator, error) {
	plan, err := TableScanPlan(ctx, p, env)
	if err != nil {
		return nil, err
	}
	files, err := ScanFiles(ctx, p.Table, plan)
	if err != nil {
		return nil, err
	}
	cols := make([]ScanColumn, len(p.Columns))
	for i, c := range p.Columns {
		if cols[i], err = TableScanColumn(p.Table.Schema, c); err != nil {
			return nil, fmt.Errorf("scan %s: %w", p.Table.QualifiedName(), err)
		}
	}
	askDictionaries(p, env, files, cols)
	// A scan built again (in a recursive WITH query's step) adds to its
	// counts, as its operator's metrics do.
	stats := env.ScanStats[p]
	if stats == nil {
		stats = &ScanStats{}
		if env.ScanStats != nil {
			env.ScanStats[p] = stats
		}
	}
	scan := NewTableScan(p.Table.FS, files, cols, plan.RowFilter, stats).(*tableScan)
	if scan.subqueryKeys = subqueryKeys(ctx, p, env); scan.subqueryKeys != nil {
		scan.setRowFilter(plan.RowFilter, scan.subqueryKeys...)
	}
	scan.rowsNeeded = p.RowsNeeded
	if dfs := env.dynamicFilters.of(p); len(dfs) > 0 {
		return &dynamicScan{tableScan: scan, p: p, env: env, filters: dfs}, nil
	}
	return scan, nil
}
