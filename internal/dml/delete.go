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

// deletion is one DELETE statement at work. It is copy-on-write: a data
// file none of whose rows match is kept; one all of whose rows match is
// removed in metadata only; any other is replaced by a copy without the
// matching rows. Rows where the condition is NULL are kept, as in SQL.
type deletion struct {
	s      *engine.Session
	target *planner.TableRef
	scan   *planner.Scan
	cond   planner.Expr // over scan.Columns; nil deletes every row

	removed []iceberg.DataFile
	rewrite []exec.ScanFile // files to copy without their matching rows
	deleted int64
}

// Delete runs DELETE FROM t [WHERE cond].
func Delete(ctx context.Context, s *engine.Session, st *sql.Delete) (*engine.Result, error) {
	target, err := s.ResolveTable(ctx, st.Table, nil)
	if err != nil {
		return nil, err
	}
	scan, err := planner.NewScan(target, "")
	if err != nil {
		return nil, err
	}
	d := &deletion{s: s, target: target, scan: scan}
	if st.Where != nil {
		if d.cond, err = s.BindCondition(ctx, scan, st.Where, "DELETE … WHERE"); err != nil {
			return nil, err
		}
	}
	if target.Snapshot == nil {
		return engine.RowCount(0, "deleted"), nil
	}
	if err := d.run(ctx); err != nil {
		return nil, err
	}
	return engine.RowCount(d.deleted, "deleted"), nil
}

// run decides the fate of every file that may hold matching rows, writes
// the copies and commits.
func (d *deletion) run(ctx context.Context) error {
	// Files that the condition's partition and column-bound pruning rules
	// out hold no matching row: the optimizer does not even list them.
	scan, err := d.s.PlanScan(ctx, d.scan, d.cond)
	if err != nil {
		return err
	}
	env := d.s.Env()
	plan, err := exec.TableScanPlan(ctx, scan, env)
	if err != nil {
		return err
	}
	files, err := exec.ScanFiles(ctx, env.FS, d.target, plan)
	if err != nil {
		return err
	}
	for i, df := range plan.Files {
		if err := d.classify(ctx, df, files[i]); err != nil {
			return err
		}
	}
	if len(d.removed) == 0 && len(d.rewrite) == 0 {
		return nil
	}
	return d.commit(ctx)
}

// classify decides what happens to one data file and counts its deleted rows.
func (d *deletion) classify(ctx context.Context, df iceberg.DataFile, f exec.ScanFile) error {
	all, known := true, true // without a condition every row matches
	if d.cond != nil {
		all, known = d.partitionVerdict(ctx, df)
	}
	switch {
	case known && !all:
		return nil
	case known && !f.HasDeletes():
		// The manifest's row count is exact only when no delete file
		// applies; otherwise the live rows are counted below.
		d.removed = append(d.removed, df)
		d.deleted += df.Count()
		return nil
	}
	matched, live, err := d.count(ctx, f)
	switch {
	case err != nil:
		return err
	case matched == 0:
	case matched == live:
		d.removed = append(d.removed, df)
	default:
		d.removed = append(d.removed, df)
		d.rewrite = append(d.rewrite, f)
	}
	d.deleted += matched
	return nil
}

// partitionVerdict evaluates the condition once for a whole file when it
// reads only identity-partitioned columns, whose value is the same in every
// row of the file. known is false when it reads any other column; all is
// whether every row matches (else none does).
func (d *deletion) partitionVerdict(ctx context.Context, df iceberg.DataFile) (all, known bool) {
	spec := d.target.Table.Metadata().PartitionSpecByID(int(df.SpecID()))
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
	folded := planner.Rewrite(d.cond, func(e planner.Expr) planner.Expr {
		ref, ok := e.(*planner.ColumnRef)
		if !ok {
			return e
		}
		v, present := constants[d.scan.Columns[ref.Index].FieldID]
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
func (d *deletion) count(ctx context.Context, f exec.ScanFile) (matched, live int64, err error) {
	cols, cond, err := d.condColumns()
	if err != nil {
		return 0, 0, err
	}
	op := exec.NewTableScan(d.s.Warehouse().FS(), []exec.ScanFile{f}, cols, nil, nil)
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
func (d *deletion) condColumns() ([]exec.ScanColumn, planner.Expr, error) {
	if d.cond == nil {
		return nil, nil, nil
	}
	index := map[int]int{} // scan column → position among the columns read
	var cols []exec.ScanColumn
	var err error
	planner.Walk(d.cond, func(e planner.Expr) {
		if ref, ok := e.(*planner.ColumnRef); ok && err == nil {
			if _, seen := index[ref.Index]; !seen {
				index[ref.Index] = len(cols)
				var c exec.ScanColumn
				c, err = exec.TableScanColumn(d.target.Schema, d.scan.Columns[ref.Index])
				cols = append(cols, c)
			}
		}
	})
	if err != nil {
		return nil, nil, err
	}
	cond := planner.Rewrite(d.cond, func(e planner.Expr) planner.Expr {
		if ref, ok := e.(*planner.ColumnRef); ok {
			return &planner.ColumnRef{Index: index[ref.Index], Name: ref.Name, T: ref.T}
		}
		return e
	})
	return cols, cond, nil
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

// commit writes the copies of the partly deleted files and replaces the
// removed files by them in one snapshot.
func (d *deletion) commit(ctx context.Context) error {
	types := make([]arrow.DataType, len(d.scan.Columns))
	cols := make([]exec.ScanColumn, len(d.scan.Columns))
	for i, c := range d.scan.Columns {
		types[i] = c.T
		var err error
		if cols[i], err = exec.TableScanColumn(d.target.Schema, c); err != nil {
			return err
		}
	}
	w, err := storage.NewTableWriter(d.target.Table, d.s.Warehouse().FS(), types)
	if err != nil {
		return err
	}
	added, err := d.writeCopies(ctx, w, cols)
	if err == nil {
		err = CommitReplace(ctx, d.target.Table, d.removed, added)
	}
	if err != nil {
		w.Abort()
	}
	return err
}

// writeCopies writes the rows of the files to rewrite that the condition is
// not TRUE for.
func (d *deletion) writeCopies(ctx context.Context, w *storage.TableWriter, cols []exec.ScanColumn) ([]iceberg.DataFile, error) {
	if len(d.rewrite) == 0 {
		return w.Close()
	}
	keep := &planner.Call{Fn: planner.FnNot, T: arrow.FixedWidthTypes.Boolean, Args: []planner.Expr{
		&planner.Call{Fn: planner.FnIsTrue, T: arrow.FixedWidthTypes.Boolean, Args: []planner.Expr{d.cond}},
	}}
	op := exec.NewFilter(exec.NewTableScan(d.s.Warehouse().FS(), d.rewrite, cols, nil, nil), keep)
	if err := op.Open(ctx); err != nil {
		return nil, err
	}
	defer op.Close()
	_, files, err := w.WriteAll(ctx, func() (arrow.RecordBatch, error) { return op.Next(ctx) })
	return files, err
}
