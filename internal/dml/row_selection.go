package dml

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/iceberg-go"

	"github.com/lakesql/lakesql/exec"
	"github.com/lakesql/lakesql/exec/expr"
	"github.com/lakesql/lakesql/internal/engine"
	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/sql"
	"github.com/lakesql/lakesql/storage"
)

// rowSelection is the rows of a table a statement changes: those a
// condition is TRUE for (DELETE … WHERE, UPDATE … WHERE). Rows where the
// condition is NULL are not selected, as in SQL.
type rowSelection struct {
	s      *engine.Session
	target *planner.TableRef
	scan   *planner.Scan
	cond   planner.Expr // over scan.Columns; nil selects every row
}

// selectedFile is a data file holding selected rows.
type selectedFile struct {
	df      iceberg.DataFile
	f       exec.ScanFile
	matched int64 // selected rows
	all     bool  // every live row of the file is selected
}

// files lists the data files that hold selected rows, counting them. Files
// that the condition's partition and column-bound pruning rules out hold
// none: the optimizer does not even list them. Of the others, only the
// condition's columns are read, and not even those when the partition
// values decide the whole file.
func (r *rowSelection) files(ctx context.Context) ([]selectedFile, error) {
	scan, err := r.s.PlanScan(ctx, r.scan, r.cond)
	if err != nil {
		return nil, err
	}
	env := r.s.Env()
	plan, err := exec.TableScanPlan(ctx, scan, env)
	if err != nil {
		return nil, err
	}
	files, err := exec.ScanFiles(ctx, r.target, plan)
	if err != nil {
		return nil, err
	}
	var out []selectedFile
	for i, df := range plan.Files {
		sf := selectedFile{df: df, f: files[i]}
		all, known := true, true // without a condition every row matches
		if r.cond != nil {
			all, known = r.partitionVerdict(ctx, df)
		}
		switch {
		case known && !all:
			continue
		case known && !sf.f.HasDeletes():
			// The manifest's row count is exact only when no delete file
			// applies; otherwise the live rows are counted below.
			sf.matched, sf.all = df.Count(), true
		default:
			var live int64
			if sf.matched, live, err = r.count(ctx, sf.f); err != nil {
				return nil, err
			}
			sf.all = sf.matched == live
		}
		if sf.matched > 0 {
			out = append(out, sf)
		}
	}
	return out, nil
}

// partitionVerdict evaluates the condition once for a whole file when it
// reads only identity-partitioned columns, whose value is the same in every
// row of the file. known is false when it reads any other column; all is
// whether every row matches (else none does).
func (r *rowSelection) partitionVerdict(ctx context.Context, df iceberg.DataFile) (all, known bool) {
	spec := r.target.Table.Metadata().PartitionSpecByID(int(df.SpecID()))
	if spec == nil {
		return false, false
	}
	constants := map[int]any{} // source field id → partition value
	for _, pf := range spec.Fields() {
		if _, ok := pf.Transform.(iceberg.IdentityTransform); ok {
			constants[pf.SourceID()] = df.Partition()[pf.FieldID]
		}
	}
	known = true
	folded := planner.Rewrite(r.cond, func(e planner.Expr) planner.Expr {
		ref, ok := e.(*planner.ColumnRef)
		if !ok {
			return e
		}
		v, present := constants[r.scan.Columns[ref.Index].FieldID]
		value, fits := plannerConstant(v, ref.T)
		if !present || !fits {
			known = false
			return e
		}
		return &planner.Literal{Value: value, T: ref.T}
	})
	if !known {
		return false, false
	}
	one := array.NewRecordBatch(arrow.NewSchema(nil, nil), nil, 1)
	defer one.Release()
	res, err := expr.Eval(ctx, folded, one, memory.DefaultAllocator)
	if err != nil {
		return false, false // the rows are read and the error, if real, reported then
	}
	defer res.Release()
	b, ok := res.(*array.Boolean)
	return ok && b.IsValid(0) && b.Value(0), true
}

// plannerConstant converts a partition value as manifests decode it into
// the Go form a planner literal of type t holds; fits is false when it does
// not correspond to t.
func plannerConstant(v any, t arrow.DataType) (value any, fits bool) {
	if lit, ok := v.(iceberg.Literal); ok {
		v = lit.Any()
	}
	switch x := v.(type) {
	case nil:
		return nil, true
	case iceberg.Date:
		return int32(x), t.ID() == arrow.DATE32
	case iceberg.Timestamp:
		return int64(x), t.ID() == arrow.TIMESTAMP
	case iceberg.Time:
		return int64(x), t.ID() == arrow.TIME64
	case iceberg.Decimal:
		return x.Val, t.ID() == arrow.DECIMAL128
	case decimal128.Num:
		return x, t.ID() == arrow.DECIMAL128
	case bool:
		return x, t.ID() == arrow.BOOL
	case int32:
		return x, t.ID() == arrow.INT32 || t.ID() == arrow.DATE32
	case int64:
		return x, t.ID() == arrow.INT64 || t.ID() == arrow.TIMESTAMP || t.ID() == arrow.TIME64
	case float32:
		return x, t.ID() == arrow.FLOAT32
	case float64:
		return x, t.ID() == arrow.FLOAT64
	case string:
		return x, t.ID() == arrow.STRING
	}
	return nil, false
}

// count reads a file (with its delete files applied) and counts its live
// rows and the rows the condition is TRUE for. Only the condition's columns
// are read.
func (r *rowSelection) count(ctx context.Context, f exec.ScanFile) (matched, live int64, err error) {
	cols, cond := r.condColumns()
	op := exec.NewTableScan(r.target.FS, []exec.ScanFile{f}, cols, nil, nil)
	if err := op.Open(ctx); err != nil {
		return 0, 0, err
	}
	defer op.Close()
	for {
		batch, err := op.Next(ctx)
		if err != nil || batch == nil {
			return matched, live, err
		}
		live += batch.NumRows()
		n, err := countTrue(ctx, cond, batch)
		batch.Release()
		if err != nil {
			return 0, 0, err
		}
		matched += n
	}
}

// condColumns are the scan columns the condition reads, and the condition
// rebound to them.
func (r *rowSelection) condColumns() ([]exec.ScanColumn, planner.Expr) {
	if r.cond == nil {
		return nil, nil
	}
	index := map[int]int{} // scan column → position among the columns read
	var cols []exec.ScanColumn
	planner.Walk(r.cond, func(e planner.Expr) {
		if ref, ok := e.(*planner.ColumnRef); ok {
			if _, seen := index[ref.Index]; !seen {
				index[ref.Index] = len(cols)
				cols = append(cols, r.scanColumn(ref.Index))
			}
		}
	})
	cond := planner.Rewrite(r.cond, func(e planner.Expr) planner.Expr {
		if ref, ok := e.(*planner.ColumnRef); ok {
			return &planner.ColumnRef{Index: index[ref.Index], Name: ref.Name, T: ref.T}
		}
		return e
	})
	return cols, cond
}

func (r *rowSelection) scanColumn(i int) exec.ScanColumn { return scanColumn(r.target, r.scan, i) }

// scanColumn is column i of scan, as a table scan reads it.
func scanColumn(target *planner.TableRef, scan *planner.Scan, i int) exec.ScanColumn {
	c := scan.Columns[i]
	f, _ := target.Schema.FindFieldByID(c.FieldID)
	return exec.ScanColumn{ReadColumn: storage.ReadColumn{FieldID: c.FieldID, Name: c.Name, Type: c.T}, IcebergType: f.Type}
}

// allColumns are every column of scan, as the copies of rewritten files
// need them, with their Arrow types.
func allColumns(target *planner.TableRef, scan *planner.Scan) ([]exec.ScanColumn, []arrow.DataType) {
	types := make([]arrow.DataType, len(scan.Columns))
	cols := make([]exec.ScanColumn, len(scan.Columns))
	for i, c := range scan.Columns {
		types[i] = c.T
		cols[i] = scanColumn(target, scan, i)
	}
	return cols, types
}

// countTrue counts the rows of batch cond is TRUE for; a nil cond is TRUE.
func countTrue(ctx context.Context, cond planner.Expr, batch arrow.RecordBatch) (int64, error) {
	if cond == nil {
		return batch.NumRows(), nil
	}
	res, err := expr.Eval(ctx, cond, batch, memory.DefaultAllocator)
	if err != nil {
		return 0, fmt.Errorf("WHERE %s: %w", cond, err)
	}
	defer res.Release()
	b, ok := res.(*array.Boolean)
	if !ok {
		return 0, nil // a NULL condition matches nothing
	}
	var n int64
	for i := range b.Len() {
		if b.IsValid(i) && b.Value(i) {
			n++
		}
	}
	return n, nil
}

// isTrue is cond IS TRUE: TRUE where cond is, FALSE where it is FALSE or NULL.
func isTrue(cond planner.Expr) planner.Expr {
	return &planner.Call{Fn: planner.FnIsTrue, T: arrow.FixedWidthTypes.Boolean, Args: []planner.Expr{cond}}
}

// newRowSelection resolves the table a statement changes and binds its
// condition (nil where for every row). alias, when set, is the name the
// condition may qualify the columns with.
func newRowSelection(ctx context.Context, s *engine.Session, name sql.ObjectName, alias string, where sql.Expr, clause string) (*rowSelection, error) {
	target, err := s.ResolveTable(ctx, name, nil)
	if err != nil {
		return nil, err
	}
	scan, err := planner.NewScan(target, alias)
	if err != nil {
		return nil, err
	}
	sel := &rowSelection{s: s, target: target, scan: scan}
	if where != nil {
		if sel.cond, err = s.BindCondition(ctx, scan, where, clause); err != nil {
			return nil, err
		}
	}
	return sel, nil
}

// copyOnWrite splits the selected files into those to remove and, among
// them, those to copy without their selected rows, and counts the rows.
func copyOnWrite(files []selectedFile) (removed []iceberg.DataFile, rewrite []exec.ScanFile, rows int64) {
	for _, sf := range files {
		removed = append(removed, sf.df)
		if !sf.all {
			rewrite = append(rewrite, sf.f)
		}
		rows += sf.matched
	}
	return removed, rewrite, rows
}

// withoutSelected keeps the rows of a scan where cond is not TRUE.
func withoutSelected(cond planner.Expr) func(exec.Operator) exec.Operator {
	keep := &planner.Call{Fn: planner.FnNot, T: arrow.FixedWidthTypes.Boolean, Args: []planner.Expr{isTrue(cond)}}
	return func(scan exec.Operator) exec.Operator { return exec.NewFilter(scan, keep) }
}

// rewrite writes the rows that transform makes of the files to rewrite
// (read whole, every column) and replaces the removed files by the new ones,
// and extra files, in one snapshot.
func (r *rowSelection) rewrite(ctx context.Context, removed []iceberg.DataFile, rewrite []exec.ScanFile, transform func(exec.Operator) exec.Operator, extra ...iceberg.DataFile) error {
	cols, types := allColumns(r.target, r.scan)
	w, err := storage.NewTableWriter(r.target.Table, r.target.FS, types)
	if err != nil {
		return err
	}
	added, err := r.writeCopies(ctx, w, rewrite, cols, transform)
	if err == nil && len(removed)+len(added)+len(extra) > 0 {
		err = CommitReplace(ctx, r.s.Manifests(), r.target.Table, removed, append(added, extra...))
	}
	if err != nil {
		w.Abort()
	}
	return err
}

func (r *rowSelection) writeCopies(ctx context.Context, w *storage.TableWriter, rewrite []exec.ScanFile, cols []exec.ScanColumn, transform func(exec.Operator) exec.Operator) ([]iceberg.DataFile, error) {
	if len(rewrite) == 0 {
		return w.Close()
	}
	op := transform(exec.NewTableScan(r.target.FS, rewrite, cols, nil, nil))
	if err := op.Open(ctx); err != nil {
		return nil, err
	}
	defer op.Close()
	_, files, err := w.WriteAll(ctx, func() (arrow.RecordBatch, error) { return op.Next(ctx) })
	return files, err
}
