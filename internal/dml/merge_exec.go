package dml

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/iceberg-go"

	"github.com/lakesql/lakesql/exec"
	"github.com/lakesql/lakesql/exec/expr"
	"github.com/lakesql/lakesql/internal/engine"
	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/sql"
	"github.com/lakesql/lakesql/storage"
)

// mergeRun is the state of one MERGE at work (see merge.go for the steps).
type mergeRun struct {
	*merge
	source    []arrow.RecordBatch // the source's rows, with the marker column
	srcShape  *arrow.Schema
	dataFiles []iceberg.DataFile // candidate target files
	files     []exec.ScanFile
	join      *planner.Join       // keys and residual of ON, over stand-ins of the two sides
	action    planner.Expr        // per joined row: 1 + index of the clause it takes, 0 for none
	joined    []arrow.RecordBatch // the join's output
	shape     *arrow.Schema       // of joined
	actions   []*array.Int32
	seen      [][]bool // per candidate file, per row position: joined with a source row
	affected  []bool   // per candidate file: holds an updated or deleted row

	mor                        bool // write.merge.mode = merge-on-read
	updated, deleted, inserted int64
}

func (m *merge) run(ctx context.Context) (*engine.Result, error) {
	r := &mergeRun{merge: m}
	defer r.release()
	var err error
	if r.mor, err = mergeOnRead(m.target.Table, mergeModeProperty); err != nil {
		return nil, err
	}
	if err := r.readSource(ctx); err != nil {
		return nil, err
	}
	r.join = planner.NewJoin(r.joinType(), &planner.Values{Columns: r.leftColumns()}, &planner.Values{Columns: r.rightColumns()}, m.on)
	if err := r.candidates(ctx); err != nil {
		return nil, err
	}
	r.action = r.actionExpr()
	if err := r.runJoin(ctx); err != nil {
		return nil, err
	}
	if err := r.write(ctx); err != nil {
		return nil, err
	}
	return engine.Message(fmt.Sprintf("%s updated, %s deleted, %s inserted",
		rowsText(r.updated), rowsText(r.deleted), rowsText(r.inserted))), nil
}

func rowsText(n int64) string {
	if n == 1 {
		return "1 row"
	}
	return fmt.Sprintf("%d rows", n)
}

func (r *mergeRun) release() {
	for _, b := range r.source {
		b.Release()
	}
	for _, b := range r.joined {
		b.Release()
	}
	for _, a := range r.actions {
		a.Release()
	}
}

// joinType keeps the unmatched rows a clause may act on: source rows when
// rows may be inserted, target rows under NOT MATCHED BY SOURCE — and, when
// a WHEN MATCHED clause may change files, every candidate target row under
// copy-on-write, which rewrites files whole.
func (r *mergeRun) joinType() sql.JoinType {
	target := r.bySource || r.matched && !r.mor
	switch {
	case r.inserts && target:
		return sql.JoinFull
	case r.inserts:
		return sql.JoinLeft
	case target:
		return sql.JoinRight
	}
	return sql.JoinInner
}

func (r *mergeRun) leftColumns() []planner.Column {
	return append(append([]planner.Column(nil), r.srcCols...), planner.Column{Name: "#source", T: arrow.FixedWidthTypes.Boolean})
}

func (r *mergeRun) rightColumns() []planner.Column {
	return append(append([]planner.Column(nil), r.tgtCols...),
		planner.Column{Name: "_pos", T: arrow.PrimitiveTypes.Int64}, planner.Column{Name: "#file", T: arrow.PrimitiveTypes.Int32})
}

// readSource runs the source query and keeps its rows, each with a TRUE
// marker column.
func (r *mergeRun) readSource(ctx context.Context) error {
	res, err := r.s.Run(ctx, r.merge.source, nil)
	if err != nil {
		return err
	}
	defer res.Close()
	fields := append(append([]arrow.Field(nil), res.Schema.Fields()...), arrow.Field{Name: "#source", Type: arrow.FixedWidthTypes.Boolean, Nullable: true})
	r.srcShape = arrow.NewSchema(fields, nil)
	for {
		b, err := res.Next(ctx)
		if err != nil || b == nil {
			return err
		}
		marks := array.NewBooleanBuilder(memory.DefaultAllocator)
		for range b.NumRows() {
			marks.Append(true)
		}
		mark := marks.NewArray()
		marks.Release()
		cols := append(append([]arrow.Array(nil), b.Columns()...), mark)
		r.source = append(r.source, array.NewRecordBatch(r.srcShape, cols, b.NumRows()))
		mark.Release()
		b.Release()
	}
}

// candidates lists the target files that may hold a row a clause changes:
// those that may hold a row the ON condition matches (by its target-only
// conjuncts and the source's key values), and, with WHEN NOT MATCHED BY
// SOURCE clauses, those that may hold a row their conditions select.
func (r *mergeRun) candidates(ctx context.Context) error {
	if r.target.Snapshot == nil {
		return nil
	}
	matchable, err := r.matchable(ctx)
	if err != nil {
		return err
	}
	prune := matchable
	for _, c := range r.clauses {
		if c.match != sql.NotMatchedBySource {
			continue
		}
		if c.cond == nil {
			prune = nil // every target row may be changed
			break
		}
		prune = or(prune, r.toScan(c.cond))
	}
	scan, err := r.s.PlanScan(ctx, r.scan, prune)
	if err != nil {
		return err
	}
	env := r.s.Env()
	plan, err := exec.TableScanPlan(ctx, scan, env)
	if err != nil {
		return err
	}
	if r.files, err = exec.ScanFiles(ctx, r.target, plan); err != nil {
		return err
	}
	r.dataFiles = plan.Files
	r.seen = make([][]bool, len(r.files))
	r.affected = make([]bool, len(r.files))
	return nil
}

// matchable is implied for every target row some source row matches: the
// ON condition's conjuncts that read only the target, and for each join key
// the source's values of it.
func (r *mergeRun) matchable(ctx context.Context) (planner.Expr, error) {
	var parts []planner.Expr
	for _, c := range planner.Conjuncts(r.on) {
		onlyTarget := true
		planner.Walk(c, func(e planner.Expr) {
			if ref, ok := e.(*planner.ColumnRef); ok && ref.Index < r.tgtBase() {
				onlyTarget = false
			}
		})
		if onlyTarget {
			parts = append(parts, r.toScan(c))
		}
	}
	// A key is an expression over the target's columns, whose positions in
	// the join's right side are those of the scan: CAST(t.id AS BIGINT) IN
	// (…) prunes too, once the optimizer unwraps the cast.
	for i, k := range r.join.RightKeys {
		pred, ok, err := exec.KeyPredicate(ctx, r.join.LeftKeys[i], r.source, k)
		if err != nil {
			return nil, err
		}
		if ok {
			parts = append(parts, pred)
		}
	}
	return planner.Conjunction(parts), nil
}

// toScan renumbers an expression over the joined layout that reads only
// target columns to the target scan's columns.
func (r *mergeRun) toScan(e planner.Expr) planner.Expr {
	return planner.Rewrite(e, func(x planner.Expr) planner.Expr {
		if ref, ok := x.(*planner.ColumnRef); ok {
			return &planner.ColumnRef{Index: ref.Index - r.tgtBase(), Name: ref.Name, T: ref.T}
		}
		return x
	})
}

// or is a OR b, where a nil side is no predicate.
func or(a, b planner.Expr) planner.Expr {
	if a == nil || b == nil {
		return nil
	}
	return &planner.Call{Fn: planner.FnOr, T: arrow.FixedWidthTypes.Boolean, Args: []planner.Expr{a, b}}
}

func and(a, b planner.Expr) planner.Expr {
	return planner.Conjunction([]planner.Expr{a, b})
}

// actionExpr is, per joined row, 1 + the index of the first clause of the
// row's kind whose condition is TRUE, or 0.
func (r *mergeRun) actionExpr() planner.Expr {
	boolean := arrow.FixedWidthTypes.Boolean
	present := func(col *planner.ColumnRef) planner.Expr {
		return &planner.Call{Fn: planner.FnIsNotNull, T: boolean, Args: []planner.Expr{col}}
	}
	not := func(e planner.Expr) planner.Expr {
		return &planner.Call{Fn: planner.FnNot, T: boolean, Args: []planner.Expr{e}}
	}
	src := present(&planner.ColumnRef{Index: r.srcMark(), Name: "#source", T: boolean})
	tgt := present(&planner.ColumnRef{Index: r.fileCol(), Name: "#file", T: arrow.PrimitiveTypes.Int32})
	kinds := map[sql.MergeMatch]planner.Expr{sql.Matched: and(src, tgt), sql.NotMatched: and(src, not(tgt)), sql.NotMatchedBySource: and(not(src), tgt)}
	c := &planner.Case{Else: int32Lit(0), T: arrow.PrimitiveTypes.Int32}
	for k, cl := range r.clauses {
		c.Whens = append(c.Whens, planner.CaseWhen{Cond: and(kinds[cl.match], cl.cond), Result: int32Lit(int32(k + 1))})
	}
	return c
}

func int32Lit(v int32) planner.Expr { return &planner.Literal{Value: v, T: arrow.PrimitiveTypes.Int32} }

// runJoin joins the source with the candidate target rows, decides each
// joined row's clause and keeps the joined rows for write.
func (r *mergeRun) runJoin(ctx context.Context) error {
	left := exec.NewBatches(r.srcShape, r.source)
	cols, _ := allColumns(r.target, r.scan)
	right := newPositionedScan(r.target.FS, r.files, cols)
	var op exec.Operator
	if len(r.join.LeftKeys) > 0 {
		op = exec.NewHashJoin(r.join.Type, left, right, r.join.LeftKeys, r.join.RightKeys, r.join.Cond, true, nil)
	} else {
		op = exec.NewNestedLoopJoin(r.join.Type, left, right, r.join.Cond, true, nil)
	}
	if err := op.Open(ctx); err != nil {
		op.Close()
		return err
	}
	defer op.Close()
	r.shape = op.Schema()
	for {
		b, err := op.Next(ctx)
		if err != nil || b == nil {
			return err
		}
		r.joined = append(r.joined, b)
		res, err := expr.Eval(ctx, r.action, b, memory.DefaultAllocator)
		if err != nil {
			return err
		}
		actions := res.(*array.Int32)
		r.actions = append(r.actions, actions)
		if err := r.tally(b, actions); err != nil {
			return err
		}
	}
}

// tally counts the joined rows of one batch by their action, marks the
// files holding changed rows and checks that no target row matched twice.
func (r *mergeRun) tally(b arrow.RecordBatch, actions *array.Int32) error {
	marks := b.Column(r.srcMark())
	files := b.Column(r.fileCol()).(*array.Int32)
	rows := b.Column(r.rowCol()).(*array.Int64)
	for i := range int(b.NumRows()) {
		if r.matched && files.IsValid(i) && marks.IsValid(i) {
			if r.matchedBefore(files.Value(i), rows.Value(i)) {
				return &planner.Error{Pos: r.st.Pos, Msg: fmt.Sprintf("MERGE INTO %s: a target row matched more than one source row (ON %s); make the source unique on the ON condition's columns", r.target.QualifiedName(), sql.Format(r.st.On))}
			}
		}
		a := actions.Value(i)
		if a == 0 {
			continue
		}
		switch r.clauses[a-1].action {
		case sql.MergeInsert:
			r.inserted++
			continue
		case sql.MergeUpdate:
			r.updated++
		case sql.MergeDelete:
			r.deleted++
		}
		r.affected[files.Value(i)] = true
	}
	return nil
}

// matchedBefore records that row of file f joined a source row and reports
// whether one already had.
func (r *mergeRun) matchedBefore(f int32, row int64) bool {
	seen := r.seen[f]
	if missing := row + 1 - int64(len(seen)); missing > 0 {
		seen = append(seen, make([]bool, missing)...)
		r.seen[f] = seen
	}
	was := seen[row]
	seen[row] = true
	return was
}

// write writes the rows of the changed files, as the clauses leave them,
// and the inserted rows, and replaces the changed files in one snapshot.
func (r *mergeRun) write(ctx context.Context) error {
	var removed []iceberg.DataFile
	for i, a := range r.affected {
		if a {
			removed = append(removed, r.dataFiles[i])
		}
	}
	if len(removed) == 0 && r.inserted == 0 {
		return nil
	}
	kept, shape := r.keptRows()
	defer func() {
		for _, b := range kept {
			b.Release()
		}
	}()
	keep := &planner.ColumnRef{Index: shape.NumFields() - 1, Name: "#keep", T: arrow.FixedWidthTypes.Boolean}
	op := exec.NewProject(exec.NewFilter(exec.NewBatches(shape, kept), keep), r.outputExprs(), r.outputNames())
	_, types := allColumns(r.target, r.scan)
	w, err := storage.NewTableWriter(r.target.Table, r.target.FS, types)
	if err != nil {
		return err
	}
	var added []iceberg.DataFile
	if err = op.Open(ctx); err == nil {
		_, added, err = w.WriteAll(ctx, func() (arrow.RecordBatch, error) { return op.Next(ctx) })
	}
	op.Close()
	switch {
	case err != nil:
		w.Abort()
		return err
	case r.mor:
		return commitMergeOnRead(ctx, r.target.FS, r.s.Manifests(), r.target.Table, r.dataFiles, r.changedRows(), w, added)
	}
	if err = CommitReplace(ctx, r.s.Manifests(), r.target.Table, removed, added); err != nil {
		w.Abort()
	}
	return err
}

// changedRows are the positions of the target rows a clause updates or
// deletes, for merge-on-read.
func (r *mergeRun) changedRows() deletedRows {
	changed := deletedRows{}
	for k, b := range r.joined {
		actions := r.actions[k]
		changed.add(b, r.rowCol(), r.fileCol(), func(i int) bool {
			a := actions.Value(i)
			return a > 0 && r.clauses[a-1].action != sql.MergeInsert
		})
	}
	return changed
}

// keptRows are the joined batches with two columns added, the action and
// whether the row is written: an inserted row, and under copy-on-write a
// row of a changed file that is not deleted, under merge-on-read an updated
// row.
func (r *mergeRun) keptRows() ([]arrow.RecordBatch, *arrow.Schema) {
	fields := append(append([]arrow.Field(nil), r.shape.Fields()...),
		arrow.Field{Name: "#action", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		arrow.Field{Name: "#keep", Type: arrow.FixedWidthTypes.Boolean, Nullable: true})
	shape := arrow.NewSchema(fields, nil)
	var out []arrow.RecordBatch
	for k, b := range r.joined {
		actions := r.actions[k]
		files := b.Column(r.fileCol()).(*array.Int32)
		keeps := array.NewBooleanBuilder(memory.DefaultAllocator)
		for i := range int(b.NumRows()) {
			action := sql.MergeAction(-1)
			if a := actions.Value(i); a > 0 {
				action = r.clauses[a-1].action
			}
			switch {
			case r.mor: // the old versions stay, deleted by position
				keeps.Append(action == sql.MergeInsert || action == sql.MergeUpdate)
			default: // the changed files are written whole
				keeps.Append(action == sql.MergeInsert || files.IsValid(i) && r.affected[files.Value(i)] && action != sql.MergeDelete)
			}
		}
		keep := keeps.NewArray()
		keeps.Release()
		cols := append(append([]arrow.Array(nil), b.Columns()...), actions, keep)
		out = append(out, array.NewRecordBatch(shape, cols, b.NumRows()))
		keep.Release()
	}
	return out, shape
}

// outputExprs compute each target column of a written row: the value of
// the clause the row takes, or the target row's own.
func (r *mergeRun) outputExprs() []planner.Expr {
	actionCol := &planner.ColumnRef{Index: r.shape.NumFields(), Name: "#action", T: arrow.PrimitiveTypes.Int32}
	exprs := make([]planner.Expr, len(r.tgtCols))
	for j, col := range r.tgtCols {
		own := &planner.ColumnRef{Index: r.tgtBase() + j, Name: col.Name, T: col.T}
		c := &planner.Case{Else: own, T: col.T}
		for k, cl := range r.clauses {
			if cl.values == nil || cl.values[j] == nil {
				continue
			}
			is := &planner.Call{Fn: planner.FnEq, T: arrow.FixedWidthTypes.Boolean, Args: []planner.Expr{actionCol, int32Lit(int32(k + 1))}}
			c.Whens = append(c.Whens, planner.CaseWhen{Cond: is, Result: cl.values[j]})
		}
		exprs[j] = own
		if len(c.Whens) > 0 {
			exprs[j] = c
		}
	}
	return exprs
}

func (r *mergeRun) outputNames() []string {
	names := make([]string, len(r.tgtCols))
	for i, c := range r.tgtCols {
		names[i] = c.Name
	}
	return names
}
