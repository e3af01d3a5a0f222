package exec

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/compute"

	"github.com/lakesql/lakesql/exec/expr"
	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/sql"
)

// matcher finds the candidate pairs of a join: for each row of a probe batch,
// the rows of the materialized build side it may join with.
type matcher interface {
	// setBuild indexes the build side; it is called once, before setProbe.
	setBuild(ctx context.Context, build arrow.RecordBatch) error
	// setProbe starts on the rows of a new probe batch.
	setProbe(ctx context.Context, probe arrow.RecordBatch) error
	// next appends at most max candidate pairs to p and reports whether the
	// probe batch is exhausted.
	next(p *pairs, max int) bool
	// fork returns a matcher over the same build side with a probe state of
	// its own, for another goroutine; the build side is only read.
	fork() matcher
}

// pairs are (probe row, build row) candidates; -1 stands for a row of NULLs.
type pairs struct {
	probe, build []int32
}

func (p *pairs) add(probe, build int32) {
	p.probe = append(p.probe, probe)
	p.build = append(p.build, build)
}

func (p *pairs) reset() {
	p.probe, p.build = p.probe[:0], p.build[:0]
}

// join is the operator behind hash and nested-loop joins. It materializes the
// build side, then streams the probe side through a matcher. cond, the part
// of the ON condition the matcher does not check, is evaluated on candidate
// pairs in batches. For outer joins it remembers which rows of a preserved
// side matched and emits the others, padded with NULLs: unmatched probe rows
// after each probe batch, unmatched build rows at the end.
type join struct {
	typ       sql.JoinType
	left      Operator
	right     Operator
	buildLeft bool
	cond      planner.Expr
	// condCols marks the joined columns cond reads, and condOver is cond
	// over just those, schema condSchema: candidate pairs gather them
	// alone for the condition, the others only for the pairs that pass.
	// condOver is nil where cond holds expressions this cannot renumber
	// (a subquery); then all columns are gathered.
	condCols   []bool
	condOver   planner.Expr
	condSchema *arrow.Schema
	match      matcher
	// keep marks the joined columns (left's, then right's) that are output,
	// nil for all; schema has the kept ones, joined all of them.
	keep   []bool
	schema *arrow.Schema
	joined *arrow.Schema

	build        arrow.RecordBatch
	buildMatched []bool
	nextBuildRow int // where emitting unmatched build rows continues

	probe          arrow.RecordBatch
	probeMatched   []bool
	probeExhausted bool
	probeDone      bool
	pairs          pairs

	// pruneProbe, when set, receives the build side to prune the probe
	// side's files (dynamic_pruning.go).
	pruneProbe *dynamicFilter

	// grace runs the join once its build side spilled; spillLevel is how
	// often the rows it joins were partitioned (hash_join_spill.go).
	grace      *graceJoin
	spillLevel int
}

func newJoin(typ sql.JoinType, left, right Operator, cond planner.Expr, buildLeft bool, keep []bool, m matcher) *join {
	fields := append(append([]arrow.Field(nil), left.Schema().Fields()...), right.Schema().Fields()...)
	j := &join{
		typ: typ, left: left, right: right, cond: cond, buildLeft: buildLeft, match: m,
		joined: arrow.NewSchema(fields, nil), keep: keep,
	}
	j.schema = j.joined
	if keep == nil && j.leftOnly() {
		keep = leftColumns(left.Schema().NumFields(), len(fields))
		j.keep = keep
	}
	if keep != nil {
		j.schema = arrow.NewSchema(kept(keep, fields), nil)
	}
	j.condCols, j.condOver = narrowedCondition(cond, len(fields))
	if j.condOver != nil {
		j.condSchema = arrow.NewSchema(kept(j.condCols, fields), nil)
	}
	return j
}

// narrowedCondition returns the columns of width joined columns that cond
// reads, and cond over just those columns in order; nil when cond is nil
// or holds an expression other than calls, casts, CASE, columns and
// literals.
func narrowedCondition(cond planner.Expr, width int) ([]bool, planner.Expr) {
	if cond == nil {
		return nil, nil
	}
	reads := make([]bool, width)
	plain := true
	planner.Walk(cond, func(x planner.Expr) {
		switch x := x.(type) {
		case *planner.ColumnRef:
			reads[x.Index] = true
		case *planner.Call, *planner.Cast, *planner.Case, *planner.Literal:
		default:
			plain = false
		}
	})
	if !plain {
		return nil, nil
	}
	at := make([]int, width)
	n := 0
	for i, r := range reads {
		at[i] = n
		if r {
			n++
		}
	}
	return reads, planner.Rewrite(cond, func(x planner.Expr) planner.Expr {
		if ref, ok := x.(*planner.ColumnRef); ok {
			return &planner.ColumnRef{Index: at[ref.Index], Name: ref.Name, T: ref.T}
		}
		return x
	})
}

// kept returns the elements of xs that keep marks.
func kept[T any](keep []bool, xs []T) []T {
	var out []T
	for i, x := range xs {
		if keep[i] {
			out = append(out, x)
		}
	}
	return out
}

func (j *join) Schema() *arrow.Schema { return j.schema }

func (j *join) Open(ctx context.Context) error {
	if err := j.left.Open(ctx); err != nil {
		return err
	}
	return j.right.Open(ctx)
}

func (j *join) sides() (build, probe Operator) {
	if j.buildLeft {
		return j.left, j.right
	}
	return j.right, j.left
}

// preserved reports whether the join keeps unmatched rows of the build and
// of the probe side.
func (j *join) preserved() (build, probe bool) {
	left := j.typ == sql.JoinLeft || j.typ == sql.JoinFull
	right := j.typ == sql.JoinRight || j.typ == sql.JoinFull
	if j.buildLeft {
		return left, right
	}
	return right, left
}

func (j *join) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if j.build == nil && j.grace == nil {
		if err := j.buildSide(ctx); err != nil {
			return nil, err
		}
	}
	if j.grace != nil {
		return j.grace.next(ctx)
	}
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		var (
			out arrow.RecordBatch
			err error
		)
		switch {
		case j.probe == nil && j.probeDone:
			return j.unmatchedBuild(ctx)
		case j.probe == nil:
			err = j.nextProbe(ctx)
		case j.probeExhausted:
			out, err = j.unmatchedProbe(ctx)
			j.probe.Release()
			j.probe = nil
		default:
			j.pairs.reset()
			j.probeExhausted = j.match.next(&j.pairs, BatchSize)
			out, err = j.matched(ctx, &j.pairs)
		}
		if err != nil || out != nil {
			return out, err
		}
	}
}

// buildSide materializes and indexes the build side. When it is empty and
// the probe side is not preserved, no row can be produced, so the probe side
// is never read.
func (j *join) buildSide(ctx context.Context) error {
	buildOp, _ := j.sides()
	spill := j.newBuildSpill()
	build, err := materialize(ctx, buildOp, spill)
	if err != nil {
		return err
	}
	if spill.spilling() {
		j.grace = newGraceJoin(j, spill)
		return nil
	}
	j.build = build
	j.buildMatched = make([]bool, build.NumRows())
	if j.pruneProbe != nil {
		if err := j.pruneProbe.setBuild(ctx, build); err != nil {
			return err
		}
	}
	if _, probePreserved := j.preserved(); build.NumRows() == 0 && !probePreserved && !j.probeAntiLeft() {
		j.probeDone = true
	}
	return j.match.setBuild(ctx, build)
}

func (j *join) nextProbe(ctx context.Context) error {
	_, probeOp := j.sides()
	batch, err := probeOp.Next(ctx)
	if err != nil || batch == nil {
		j.probeDone = batch == nil
		return err
	}
	if batch.NumRows() == 0 {
		batch.Release()
		return nil
	}
	j.probe, j.probeExhausted = batch, false
	j.probeMatched = make([]bool, batch.NumRows())
	return j.match.setProbe(ctx, batch)
}

// matched assembles the candidate pairs that satisfy cond, marking their
// rows as matched; it returns nil when none does.
func (j *join) matched(ctx context.Context, p *pairs) (arrow.RecordBatch, error) {
	if len(p.probe) == 0 {
		return nil, nil
	}
	if j.cond == nil {
		j.mark(p, nil)
		if j.leftOnly() {
			return nil, nil
		}
		return j.assemble(ctx, p.probe, p.build, j.keep)
	}
	if j.condOver == nil {
		return j.matchedAll(ctx, p)
	}
	over, err := j.gather(ctx, p.probe, p.build, j.condCols, j.condSchema)
	if err != nil {
		return nil, err
	}
	defer over.Release()
	bools, err := j.evalCondition(ctx, j.condOver, over)
	if err != nil || bools == nil {
		return nil, err
	}
	defer bools.Release()
	j.mark(p, bools)
	if j.leftOnly() {
		return nil, nil
	}
	var probeRows, buildRows []int32
	for i := range p.probe {
		if bools.IsValid(i) && bools.Value(i) {
			probeRows, buildRows = append(probeRows, p.probe[i]), append(buildRows, p.build[i])
		}
	}
	if len(probeRows) == 0 {
		return nil, nil
	}
	return j.assemble(ctx, probeRows, buildRows, j.keep)
}

// matchedAll is matched for a condition that needs every joined column:
// the pairs are gathered whole, then filtered.
func (j *join) matchedAll(ctx context.Context, p *pairs) (arrow.RecordBatch, error) {
	out, err := j.assemble(ctx, p.probe, p.build, nil)
	if err != nil {
		return nil, err
	}
	defer out.Release()
	bools, err := j.evalCondition(ctx, j.cond, out)
	if err != nil || bools == nil {
		return nil, err
	}
	defer bools.Release()
	j.mark(p, bools)
	if j.leftOnly() || countTrue(bools) == 0 {
		return nil, nil
	}
	mem := allocator(ctx)
	passed, err := compute.FilterRecordBatch(WithAllocator(ctx, mem), out, bools, compute.DefaultFilterOptions())
	if err != nil || j.keep == nil {
		return passed, err
	}
	defer passed.Release()
	return array.NewRecordBatch(j.schema, kept(j.keep, passed.Columns()), passed.NumRows()), nil
}

// evalCondition evaluates cond over batch; nil (and no error) for a
// NULL-typed condition, which matches nothing. The caller releases it.
func (j *join) evalCondition(ctx context.Context, cond planner.Expr, batch arrow.RecordBatch) (*array.Boolean, error) {
	mask, err := expr.Eval(ctx, cond, batch, allocator(ctx))
	if err != nil {
		return nil, fmt.Errorf("join condition %s: %w", j.cond, err)
	}
	bools, ok := mask.(*array.Boolean)
	if !ok {
		mask.Release()
		return nil, nil
	}
	return bools, nil
}

// mark records the rows of pairs that pass (all pairs when pass is nil).
func (j *join) mark(p *pairs, pass *array.Boolean) {
	for i := range p.probe {
		if pass == nil || pass.IsValid(i) && pass.Value(i) {
			j.probeMatched[p.probe[i]] = true
			if j.buildMatched != nil { // nil in forks, which need no build marks
				j.buildMatched[p.build[i]] = true
			}
		}
	}
}

// unmatchedProbe pads the probe rows that matched nothing with NULLs, for an
// outer join that preserves the probe side.
func (j *join) unmatchedProbe(ctx context.Context) (arrow.RecordBatch, error) {
	if j.leftOnly() && !j.buildLeft {
		return j.leftRowsByMatch(ctx, j.probeMatched, 0, len(j.probeMatched), false)
	}
	if _, preserved := j.preserved(); !preserved {
		return nil, nil
	}
	var rows []int32
	for i, m := range j.probeMatched {
		if !m {
			rows = append(rows, int32(i))
		}
	}
	if len(rows) == 0 {
		return nil, nil
	}
	return j.assemble(ctx, rows, nullRows(len(rows)), j.keep)
}

// unmatchedBuild pads the build rows that matched nothing with NULLs, a
// batch at a time, for an outer join that preserves the build side.
func (j *join) unmatchedBuild(ctx context.Context) (arrow.RecordBatch, error) {
	for j.leftOnly() && j.buildLeft && j.nextBuildRow < len(j.buildMatched) {
		from := j.nextBuildRow
		j.nextBuildRow = min(from+BatchSize, len(j.buildMatched))
		if out, err := j.leftRowsByMatch(ctx, j.buildMatched, from, j.nextBuildRow, true); out != nil || err != nil {
			return out, err
		}
	}
	if preserved, _ := j.preserved(); !preserved {
		return nil, nil
	}
	var rows []int32
	for ; j.nextBuildRow < len(j.buildMatched) && len(rows) < BatchSize; j.nextBuildRow++ {
		if !j.buildMatched[j.nextBuildRow] {
			rows = append(rows, int32(j.nextBuildRow))
		}
	}
	if len(rows) == 0 {
		return nil, nil
	}
	return j.assemble(ctx, nullRows(len(rows)), rows, j.keep)
}

func nullRows(n int) []int32 {
	rows := make([]int32, n)
	for i := range rows {
		rows[i] = -1
	}
	return rows
}

// assemble builds output rows from probe and build row numbers (-1: NULLs),
// of the joined columns that keep marks (nil: all of them).
func (j *join) assemble(ctx context.Context, probeRows, buildRows []int32, keep []bool) (arrow.RecordBatch, error) {
	if keep == nil {
		return j.gather(ctx, probeRows, buildRows, nil, j.joined)
	}
	return j.gather(ctx, probeRows, buildRows, keep, j.schema)
}

// gather is assemble of the joined columns keep marks (nil: all), whose
// schema is schema.
func (j *join) gather(ctx context.Context, probeRows, buildRows []int32, keep []bool, schema *arrow.Schema) (arrow.RecordBatch, error) {
	buildOp, probeOp := j.sides()
	nl := j.left.Schema().NumFields()
	var leftKeep, rightKeep []bool
	if keep != nil {
		leftKeep, rightKeep = keep[:nl], keep[nl:]
	}
	probeKeep, buildKeep := leftKeep, rightKeep
	if j.buildLeft {
		probeKeep, buildKeep = rightKeep, leftKeep
	}
	probeCols, err := takeRows(ctx, probeOp.Schema(), j.probe, probeRows, probeKeep)
	if err != nil {
		return nil, err
	}
	defer expr.ReleaseArrays(probeCols)
	buildCols, err := takeRows(ctx, buildOp.Schema(), j.build, buildRows, buildKeep)
	if err != nil {
		return nil, err
	}
	defer expr.ReleaseArrays(buildCols)
	leftCols, rightCols := probeCols, buildCols
	if j.buildLeft {
		leftCols, rightCols = buildCols, probeCols
	}
	var cols []arrow.Array
	for _, c := range append(leftCols, rightCols...) {
		if c != nil {
			cols = append(cols, c)
		}
	}
	return array.NewRecordBatch(schema, cols, int64(len(probeRows))), nil
}

// takeRows gathers rows of batch (schema's columns) by number; -1 gives a
// NULL row. Only the columns keep marks are gathered (nil: all); the
// others are left nil. The caller releases the arrays.
func takeRows(ctx context.Context, schema *arrow.Schema, batch arrow.RecordBatch, rows []int32, keep []bool) ([]arrow.Array, error) {
	mem := allocator(ctx)
	cols := make([]arrow.Array, schema.NumFields())
	allNull := !slices.ContainsFunc(rows, func(r int32) bool { return r >= 0 })
	for c, f := range schema.Fields() {
		if keep != nil && !keep[c] {
			continue
		}
		if allNull {
			cols[c] = expr.NullArray(mem, f.Type, len(rows))
			continue
		}
		taken, err := expr.Take(ctx, mem, batch.Column(c), rows)
		if err != nil {
			expr.ReleaseArrays(cols)
			return nil, fmt.Errorf("join: gather column %s: %w", f.Name, err)
		}
		cols[c] = taken
	}
	return cols, nil
}

// materializeInParallel reads the rest of op with runParallel.
func materializeInParallel(ctx context.Context, op Operator, spill *keySpill) ([]arrow.RecordBatch, error) {
	workers := runtime.GOMAXPROCS(0)
	parts := make([][]arrow.RecordBatch, workers)
	err := runParallel(ctx, op, workers, func(_ context.Context, w int, b arrow.RecordBatch) error {
		b.Retain()
		var err error
		parts[w], err = spill.check(ctx, append(parts[w], b))
		return err
	})
	return slices.Concat(parts...), err
}

// materialize reads all of op into one batch of its schema. Past the first
// rows, the filters, projections and joins above op's scans run on every
// core (TPC-H Q12's filtered lineitem, the build side of its join); the
// rows then come in no set order, as from a parallel scan. When spill
// (nil for none) spills, the rows are all in its files and the batch is
// nil.
func materialize(ctx context.Context, op Operator, spill *keySpill) (arrow.RecordBatch, error) {
	var batches []arrow.RecordBatch
	defer func() {
		for _, b := range batches {
			b.Release()
		}
	}()
	rows := int64(0)
	parallelNow := parallelFromStart(op)
	for {
		if (parallelNow || rows >= parallelAfterRows) && runtime.GOMAXPROCS(0) > 1 && hasRowStages(op) && atBatchBoundary(op) {
			rest, err := materializeInParallel(ctx, op, spill)
			batches = append(batches, rest...)
			if err != nil {
				return nil, err
			}
			for _, b := range rest {
				rows += b.NumRows()
			}
			break
		}
		b, err := op.Next(ctx)
		if err != nil {
			return nil, err
		}
		if b == nil {
			break
		}
		rows += b.NumRows()
		if batches, err = spill.check(ctx, append(batches, b)); err != nil {
			return nil, err
		}
	}
	if spill.spilling() {
		rest := batches
		batches = nil
		return nil, spill.flush(ctx, rest)
	}
	mem := allocator(ctx)
	cols := make([]arrow.Array, op.Schema().NumFields())
	defer expr.ReleaseArrays(cols)
	for c, f := range op.Schema().Fields() {
		if len(batches) == 0 {
			cols[c] = expr.NullArray(mem, f.Type, 0)
			continue
		}
		parts := make([]arrow.Array, len(batches))
		for i, b := range batches {
			parts[i] = b.Column(c)
		}
		col, err := array.Concatenate(parts, mem)
		if err != nil {
			return nil, fmt.Errorf("materialize column %s: %w", f.Name, err)
		}
		cols[c] = col
	}
	return array.NewRecordBatch(op.Schema(), cols, rows), nil
}

func (j *join) Close() error {
	var err error
	if j.grace != nil {
		err = j.grace.close()
		j.grace = nil
	}
	if j.build != nil {
		j.build.Release()
		j.build = nil
	}
	if j.probe != nil {
		j.probe.Release()
		j.probe = nil
	}
	return errors.Join(err, j.left.Close(), j.right.Close())
}

// buildJoin builds a hash join when the plan has equi-join keys, else a
// nested-loop join.
func buildJoin(ctx context.Context, p *planner.Join, env *Env) (Operator, error) {
	dynamic := planDynamicFilter(p, env)
	left, err := Build(ctx, p.Left, env)
	if err != nil {
		return nil, err
	}
	right, err := Build(ctx, p.Right, env)
	if err != nil {
		left.Close()
		return nil, err
	}
	cond := prepareSubqueries(p.Cond, env)
	if len(p.LeftKeys) > 0 {
		j := NewHashJoin(p.Type, left, right, prepareAll(p.LeftKeys, env), prepareAll(p.RightKeys, env), cond, p.BuildLeft, p.Keep)
		j.(*join).pruneProbe = dynamic
		return j, nil
	}
	return NewNestedLoopJoin(p.Type, left, right, cond, p.BuildLeft, p.Keep), nil
}
