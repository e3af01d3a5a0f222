package exec

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/iceberg-go"

	"github.com/lakesql/lakesql/exec/expr"
	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/sql"
	"github.com/lakesql/lakesql/storage"
)

// Dynamic partition pruning (Spark's DPP, Trino's dynamic filtering): a hash
// join materializes its build side before it reads the probe side, so the
// build side's key values are known in time to prune the probe side's
// files. SELECT … FROM events e JOIN calendar c ON e.event_date = c.d WHERE
// c.month = '2026-01' then reads only January's files of events: the build
// keys become event_date IN (…) (or their range, past maxSummaryValues) and
// the probe scan is planned again with it, by partition and column bounds,
// before it opens a file.

// dynamicFilter carries the build side's keys of one join to its probe scan.
type dynamicFilter struct {
	scan        *planner.Scan        // the probe side's scan the filter applies to
	buildKeys   []planner.Expr       // over the build side's rows
	probeCols   []*planner.ColumnRef // the probe scan's columns they equal
	probeFields []int                // their field ids
	pred        planner.Expr         // implied for every probe row that can match; nil: none
	// rowKeys are, for integer-backed keys with more values than pred
	// lists, all of them: storage tests each row against them (a bitmap
	// lookup), so that the probe scan decodes its other columns only at
	// rows that can join.
	rowKeys []storage.ColumnPredicate // Col is the probe column's field id until prune
}

// planDynamicFilter returns the dynamic filter of a hash join whose probe
// side is a table scan (under filters or aliases) and whose unmatched probe
// rows are dropped, and registers it for that scan's build (buildScan).
func planDynamicFilter(p *planner.Join, env *Env) *dynamicFilter {
	// A semi join never outputs an unmatched row of either side; an anti
	// join outputs its unmatched left rows, so only a probing right side
	// can be filtered (its NOT EXISTS keys never match on NULL, as here).
	probePreserved := map[sql.JoinType]bool{
		sql.JoinInner: false, sql.JoinLeft: !p.BuildLeft, sql.JoinRight: p.BuildLeft,
		planner.JoinSemi: false, planner.JoinAnti: !p.BuildLeft,
	}
	preserved, known := probePreserved[p.Type]
	if env.NoPruning || len(p.LeftKeys) == 0 || !known || preserved {
		return nil
	}
	probe, buildKeys, probeKeys := p.Left, p.RightKeys, p.LeftKeys
	if p.BuildLeft {
		probe, buildKeys, probeKeys = p.Right, p.LeftKeys, p.RightKeys
	}
	df := &dynamicFilter{}
	var scan *planner.Scan
	for i, k := range probeKeys {
		ref, ok := k.(*planner.ColumnRef)
		if !ok || !arrow.TypeEqual(k.Type(), buildKeys[i].Type()) {
			continue
		}
		s, col := scanColumnUnder(probe, ref.Index)
		if s == nil || scan != nil && s != scan {
			continue
		}
		scan = s
		df.buildKeys = append(df.buildKeys, buildKeys[i])
		df.probeCols = append(df.probeCols, col)
		df.probeFields = append(df.probeFields, s.Columns[col.Index].FieldID)
	}
	if len(df.buildKeys) == 0 {
		return nil
	}
	df.scan = scan
	env.dynamicFilters.add(df)
	return df
}

// dynamicFilters are a statement's dynamic filters by the scan they
// filter: one scan may be under several joins (Q21's lineitem under its
// join with orders and, above, the one with a nation's suppliers).
type dynamicFilters struct {
	mu     sync.Mutex
	byScan map[*planner.Scan][]*dynamicFilter
}

func (d *dynamicFilters) add(df *dynamicFilter) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.byScan == nil {
		d.byScan = map[*planner.Scan][]*dynamicFilter{}
	}
	d.byScan[df.scan] = append(d.byScan[df.scan], df)
}

func (d *dynamicFilters) of(scan *planner.Scan) []*dynamicFilter {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.byScan[scan]
}

// DynamicFilterOf describes the filter a hash join's build side will put
// on its probe scan at run time, for EXPLAIN: the scan and a line such as
// "event_date IN (keys of c.d)". The scan is nil when the join prunes
// nothing at run time.
func DynamicFilterOf(p *planner.Join, env *Env) (*planner.Scan, string) {
	df := planDynamicFilter(p, &Env{NoPruning: env.NoPruning})
	if df == nil {
		return nil, ""
	}
	build := p.Right
	if p.BuildLeft {
		build = p.Left
	}
	parts := make([]string, len(df.buildKeys))
	for i, k := range df.buildKeys {
		key := k.String()
		if ref, ok := k.(*planner.ColumnRef); ok {
			if col := build.Schema()[ref.Index]; col.Table != "" {
				key = col.Table + "." + col.Name
			}
		}
		parts[i] = fmt.Sprintf("%s IN (keys of %s)", df.probeCols[i], key)
	}
	return df.scan, strings.Join(parts, " AND ")
}

// scanColumnUnder follows column i of a plan's rows down to the table scan
// it comes from, through filters, renames, projections that pass it on,
// aggregates that group by it and joins: a row of the scan whose column
// fails an implied key predicate can then be dropped without changing what
// reaches the join (an aggregate's group of that key would not join
// either; nor would a joined row carrying the key, and a row a lower outer
// join pads with NULL in its place joins nothing). TPC-H Q21's lineitem
// scan is filtered so by the suppliers of one nation, two joins up. It
// returns nil when the column is computed or the path holds anything else.
func scanColumnUnder(p planner.Plan, i int) (*planner.Scan, *planner.ColumnRef) {
	for {
		switch n := p.(type) {
		case *planner.Scan:
			if i >= len(n.Columns) || planner.IsMetadataColumn(n.Columns[i].FieldID) {
				return nil, nil
			}
			col := n.Columns[i]
			return n, &planner.ColumnRef{Index: i, Name: col.Name, T: col.T}
		case *planner.Filter:
			p = n.Input
		case *planner.SubqueryAlias:
			p = n.Input
		case *planner.Project:
			ref, ok := n.Exprs[i].(*planner.ColumnRef)
			if !ok {
				return nil, nil
			}
			p, i = n.Input, ref.Index
		case *planner.Join:
			if p, i = joinInput(n, i); p == nil {
				return nil, nil
			}
		case *planner.Aggregate:
			if i >= len(n.GroupBy) {
				return nil, nil
			}
			ref, ok := n.GroupBy[i].(*planner.ColumnRef)
			if !ok {
				return nil, nil
			}
			p, i = n.Input, ref.Index
		default:
			return nil, nil
		}
	}
}

// joinInput is the input of join j and the column of it that column i of
// j's output comes from; nil for a column a semi or anti join's right side
// would give (it outputs none).
func joinInput(j *planner.Join, i int) (planner.Plan, int) {
	if j.Keep != nil {
		joined := -1 // the i-th kept column of the joined layout
		for k, keep := range j.Keep {
			if keep {
				if i == 0 {
					joined = k
					break
				}
				i--
			}
		}
		if joined < 0 {
			return nil, 0
		}
		i = joined
	}
	if left := len(j.Left.Schema()); i < left {
		return j.Left, i
	} else if !j.LeftOnly() {
		return j.Right, i - left
	}
	return nil, 0
}

// setBuild derives the probe predicate from the materialized build side.
// It prunes only: when a key cannot be summarized it is left out.
func (df *dynamicFilter) setBuild(ctx context.Context, build arrow.RecordBatch) error {
	var parts []planner.Expr
	df.rowKeys = nil
	for i, k := range df.buildKeys {
		arr, err := expr.Eval(ctx, k, build, allocator(ctx))
		if err != nil {
			return err
		}
		s := newValueSummary(k.Type())
		s.add(arr)
		if pred, ok := s.predicate(df.probeCols[i]); ok {
			parts = append(parts, pred)
		}
		if s.overflow || len(s.values) > maxPruningValues {
			if keys, ok := integerKeys(arr); ok {
				df.rowKeys = append(df.rowKeys, storage.NewInPredicate(df.probeFields[i], keys))
			}
		}
		arr.Release()
	}
	df.pred = planner.Conjunction(parts)
	return nil
}

// integerKeys returns the non-NULL values of an integer-backed array (those
// storage.ColumnPredicate tests), repeats included: the set
// NewInPredicate builds sorts them once.
func integerKeys(arr arrow.Array) ([]int64, bool) {
	if !storage.FilterableType(arr.DataType()) || arr.DataType().ID() == arrow.DECIMAL128 {
		return nil, false
	}
	keys := make([]int64, 0, arr.Len()-arr.NullN())
	for i := range arr.Len() {
		if arr.IsNull(i) {
			continue
		}
		switch a := arr.(type) {
		case *array.Int64:
			keys = append(keys, a.Value(i))
		case *array.Int32:
			keys = append(keys, int64(a.Value(i)))
		case *array.Date32:
			keys = append(keys, int64(a.Value(i)))
		case *array.Timestamp:
			keys = append(keys, int64(a.Value(i)))
		}
	}
	return keys, true
}

// dynamicScan is a table scan that waits for its joins' build sides: it
// opens on its first Next, after dropping the files, row groups and rows
// the dynamic filters rule out, and counts the files in
// ScanStats.FilesPrunedAtRunTime. Every join builds before it reads its
// probe side, so each join above the scan has set its filter by then.
type dynamicScan struct {
	*tableScan
	p       *planner.Scan
	env     *Env
	filters []*dynamicFilter
	ctx     context.Context
	opened  bool
}

// Open defers opening to the first Next: the join opens both sides before
// it builds.
func (s *dynamicScan) Open(ctx context.Context) error {
	s.ctx = ctx
	return nil
}

func (s *dynamicScan) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if !s.opened {
		if err := s.prune(ctx); err != nil {
			return nil, err
		}
		s.opened = true
		if err := s.tableScan.Open(s.ctx); err != nil {
			return nil, err
		}
	}
	return s.tableScan.Next(ctx)
}

// prune plans the scan again with the build side's predicate and keeps the
// files that plan keeps.
func (s *dynamicScan) prune(ctx context.Context) error {
	preds := []planner.Expr{s.p.Filter}
	rowKeys := s.subqueryKeys
	for _, df := range s.filters {
		if df.pred != nil {
			preds = append(preds, df.pred)
		}
		rowKeys = slices.Concat(rowKeys, df.rowKeys)
	}
	if len(preds) == 1 {
		return nil
	}
	q := *s.p
	q.Filter = planner.Conjunction(preds)
	plan, err := planFiles(ctx, &q, s.env, true)
	if err != nil {
		return err
	}
	keep := make(map[string]bool, len(plan.Files))
	for _, f := range plan.Files {
		keep[f.FilePath()] = true
	}
	var files []ScanFile
	for _, f := range s.files {
		if keep[f.Path] {
			files = append(files, f)
		}
	}
	s.stats.FilesPrunedAtRunTime.Add(int64(len(s.files) - len(files)))
	s.files = files
	// The predicate also skips row groups and pages, and, where storage
	// can test it, drops rows before the other columns are decoded.
	s.setRowFilter(plan.RowFilter, rowKeys...)
	return nil
}

func (s *dynamicScan) Close() error {
	if !s.opened {
		return nil
	}
	return s.tableScan.Close()
}

// boundFilter is pred bound to scan p's table schema, as storage tests
// rows; nil when pred has no Iceberg form.
func boundFilter(pred planner.Expr, p *planner.Scan) (iceberg.BooleanExpression, error) {
	f, ok := planner.IcebergFilter(pred, p.Columns)
	if !ok {
		return nil, nil
	}
	b, err := iceberg.BindExpr(p.Table.Schema, f, true)
	if err != nil {
		return nil, fmt.Errorf("scan %s: dynamic filter: %w", p.Table.QualifiedName(), err)
	}
	return b, nil
}
