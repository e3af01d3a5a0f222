package procedures

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/iceberg-go"
	icebergio "github.com/apache/iceberg-go/io"

	"github.com/lakesql/lakesql/exec"
	"github.com/lakesql/lakesql/internal/engine"
	"github.com/lakesql/lakesql/storage"
)

// rewriteMetrics are the counts rewrite_data_files returns.
type rewriteMetrics struct {
	rewrittenFiles, addedFiles, failedFiles int
	rewrittenBytes, addedBytes              int64
	groups                                  int
}

// row is Spark's result row of rewrite_data_files.
func (m rewriteMetrics) row() *engine.Result {
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "rewritten_data_files_count", Type: arrow.PrimitiveTypes.Int32},
		{Name: "added_data_files_count", Type: arrow.PrimitiveTypes.Int32},
		{Name: "rewritten_bytes_count", Type: arrow.PrimitiveTypes.Int64},
		{Name: "failed_data_files_count", Type: arrow.PrimitiveTypes.Int32},
	}, nil)
	return oneRow(schema, int32(m.rewrittenFiles), int32(m.addedFiles), m.rewrittenBytes, int32(m.failedFiles))
}

// oneRow is a one-row result of int32, int64 and string values.
func oneRow(schema *arrow.Schema, values ...any) *engine.Result {
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	for i, v := range values {
		switch v := v.(type) {
		case int32:
			b.Field(i).(*array.Int32Builder).Append(v)
		case int64:
			b.Field(i).(*array.Int64Builder).Append(v)
		case string:
			b.Field(i).(*array.StringBuilder).Append(v)
		}
	}
	batch := b.NewRecordBatch()
	defer batch.Release()
	return engine.BatchResult(schema, batch)
}

// rewriter runs one rewrite_data_files call.
type rewriter struct {
	s        *engine.Session
	req      *rewriteRequest
	plan     *storage.ScanPlan // the files the groups index
	files    []exec.ScanFile   // plan.Files with their deletes, for the selected files only
	groups   []storage.RewriteGroup
	commit   *rewriteCommit
	progress *rewriteProgress
}

// groupOutput is what rewriting one group wrote.
type groupOutput struct {
	group storage.RewriteGroup
	added []iceberg.DataFile
	paths []string // every file started, for cleanup
}

// rewrite plans the groups, rewrites them and commits, all at once or, with
// partial progress, in up to maxCommits batches.
func rewrite(ctx context.Context, s *engine.Session, req *rewriteRequest) (rewriteMetrics, error) {
	if req.target.Snapshot == nil {
		return rewriteMetrics{}, nil
	}
	r := &rewriter{s: s, req: req}
	if err := r.planGroups(ctx); err != nil || len(r.groups) == 0 {
		return rewriteMetrics{}, err
	}
	r.commit = newRewriteCommit(s, req.target)
	r.progress = newRewriteProgress(s.Progress(), r.groups)
	defer r.progress.finish()
	batches := [][]storage.RewriteGroup{r.groups}
	if req.partial {
		batches = splitBatches(r.groups, req.maxCommits)
	}
	var m rewriteMetrics
	for _, batch := range batches {
		err := r.rewriteBatch(ctx, batch, &m)
		if err != nil && (!req.partial || ctx.Err() != nil) {
			return m, err
		}
	}
	return m, nil
}

// planGroups lists the files the where argument may match and groups those
// worth rewriting; the deletes of the grouped files are loaded.
func (r *rewriter) planGroups(ctx context.Context) error {
	scan, err := r.s.PlanScan(ctx, r.req.scan, r.req.where)
	if err != nil {
		return err
	}
	env := r.s.Env()
	plan, err := exec.TableScanPlan(ctx, scan, env)
	if err != nil {
		return err
	}
	if r.groups, err = storage.PlanRewrite(r.req.target.Table.Metadata(), r.req.target.Schema, plan, r.req.opts); err != nil {
		return err
	}
	// Only the grouped files are read, so only their deletes are loaded.
	selected := *plan
	selected.Files, selected.FileSeqs = nil, nil
	for gi := range r.groups {
		g := &r.groups[gi]
		for i, fi := range g.Files {
			g.Files[i] = len(selected.Files)
			selected.Files = append(selected.Files, plan.Files[fi])
			selected.FileSeqs = append(selected.FileSeqs, plan.FileSeqs[fi])
		}
	}
	r.plan = &selected
	r.files, err = exec.ScanFiles(ctx, r.req.target, r.plan)
	return err
}

// splitBatches spreads groups over at most n batches, as Iceberg's partial
// progress spreads them over at most max-commits commits.
func splitBatches(groups []storage.RewriteGroup, n int) [][]storage.RewriteGroup {
	per := (len(groups) + n - 1) / n
	var batches [][]storage.RewriteGroup
	for start := 0; start < len(groups); start += per {
		batches = append(batches, groups[start:min(start+per, len(groups))])
	}
	return batches
}

// rewriteBatch rewrites groups concurrently and commits them in one
// snapshot. On failure nothing of the batch is committed, its new files are
// removed, and its input files are counted as failed.
func (r *rewriter) rewriteBatch(ctx context.Context, groups []storage.RewriteGroup, m *rewriteMetrics) error {
	outs, err := r.rewriteGroups(ctx, groups)
	if err == nil {
		err = r.commit.commit(ctx, r.oldFiles(outs), addedFiles(outs))
	}
	if err != nil {
		removeOutputs(r.s.Warehouse().FS(), outs)
		for _, g := range groups {
			m.failedFiles += len(g.Files)
		}
		return err
	}
	for _, o := range outs {
		m.groups++
		m.rewrittenFiles += len(o.group.Files)
		m.rewrittenBytes += o.group.Bytes
		m.addedFiles += len(o.added)
		for _, df := range o.added {
			m.addedBytes += df.FileSizeBytes()
		}
	}
	return nil
}

// rewriteGroups rewrites groups, up to the request's concurrency at a time.
// It returns every group's output, the failed ones' included, so that their
// files can be removed.
func (r *rewriter) rewriteGroups(ctx context.Context, groups []storage.RewriteGroup) ([]*groupOutput, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	outs := make([]*groupOutput, len(groups))
	errs := make([]error, len(groups))
	// Each group's scan already reads on every core: more groups at once
	// than cores would only add memory.
	sem := make(chan struct{}, min(r.req.concurrency, runtime.GOMAXPROCS(0)))
	var wg sync.WaitGroup
	for i, g := range groups {
		outs[i] = &groupOutput{group: g}
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			if ctx.Err() != nil {
				return
			}
			if errs[i] = r.rewriteGroup(ctx, outs[i]); errs[i] != nil {
				cancel()
				return
			}
			r.progress.groupDone(g)
		})
	}
	wg.Wait()
	return outs, errors.Join(errs...)
}

// rewriteGroup reads a group's rows, deletes applied, and writes them
// under the output spec. The scan and the writer both stream, and the sort
// strategy's sort spills, so a group larger than memory is fine.
func (r *rewriter) rewriteGroup(ctx context.Context, out *groupOutput) error {
	cols, types, err := r.columns()
	if err != nil {
		return err
	}
	files := make([]exec.ScanFile, len(out.group.Files))
	for i, fi := range out.group.Files {
		files[i] = r.files[fi]
	}
	var rows exec.Operator = exec.NewTableScan(r.s.Warehouse().FS(), files, cols, nil, nil)
	schema := rows.Schema()
	if r.req.sort != nil {
		rows = sortedRows(rows, r.req.sort)
	}
	if err := rows.Open(ctx); err != nil {
		return err
	}
	defer rows.Close()
	return r.write(ctx, out, types, func() (arrow.RecordBatch, error) {
		batch, err := rows.Next(ctx)
		if err != nil || batch == nil || int(batch.NumCols()) == len(schema.Fields()) {
			return batch, err
		}
		// Without the z-order key.
		defer batch.Release()
		return array.NewRecordBatch(schema, batch.Columns()[:len(schema.Fields())], batch.NumRows()), nil
	})
}

// write writes batches into new files under the output spec.
func (r *rewriter) write(ctx context.Context, out *groupOutput, types []arrow.DataType, next func() (arrow.RecordBatch, error)) error {
	tbl := r.req.target.Table
	spec := tbl.Metadata().PartitionSpecByID(r.req.opts.OutputSpecID)
	w, err := storage.NewTableWriterForSpec(tbl, r.s.Warehouse().FS(), *spec, types)
	if err != nil {
		return err
	}
	w.SetTargetFileSize(r.req.opts.TargetFileSize)
	_, added, err := w.WriteAll(ctx, next)
	out.paths = append(out.paths, w.Paths()...)
	out.added = append(out.added, added...)
	return err
}

// columns are every column of the table, read as its Arrow type.
func (r *rewriter) columns() ([]exec.ScanColumn, []arrow.DataType, error) {
	cols := make([]exec.ScanColumn, len(r.req.scan.Columns))
	types := make([]arrow.DataType, len(cols))
	for i, c := range r.req.scan.Columns {
		var err error
		if cols[i], err = exec.TableScanColumn(r.req.target.Schema, c); err != nil {
			return nil, nil, err
		}
		types[i] = c.T
	}
	return cols, types, nil
}

func (r *rewriter) oldFiles(outs []*groupOutput) []iceberg.DataFile {
	var files []iceberg.DataFile
	for _, o := range outs {
		for _, fi := range o.group.Files {
			files = append(files, r.plan.Files[fi])
		}
	}
	return files
}

func addedFiles(outs []*groupOutput) []iceberg.DataFile {
	var files []iceberg.DataFile
	for _, o := range outs {
		files = append(files, o.added...)
	}
	return files
}

// removeOutputs deletes the files of groups that were not committed. It is
// best effort: a file left behind is an orphan no snapshot refers to.
func removeOutputs(fs icebergio.WriteFileIO, outs []*groupOutput) {
	for _, o := range outs {
		for _, path := range o.paths {
			_ = fs.Remove(path)
		}
	}
}

// rewriteProgress prints "rewrite_data_files: 3/10 groups, 1.2 GiB" on one
// line of a terminal as groups finish.
type rewriteProgress struct {
	w                     io.Writer // nil: no progress is shown
	mu                    sync.Mutex
	groups, done          int
	bytesDone, bytesTotal int64
}

func newRewriteProgress(w io.Writer, groups []storage.RewriteGroup) *rewriteProgress {
	p := &rewriteProgress{w: w, groups: len(groups)}
	for _, g := range groups {
		p.bytesTotal += g.Bytes
	}
	p.print()
	return p
}

func (p *rewriteProgress) groupDone(g storage.RewriteGroup) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done++
	p.bytesDone += g.Bytes
	p.print()
}

func (p *rewriteProgress) print() {
	if p.w != nil {
		fmt.Fprintf(p.w, "\rrewrite_data_files: %d/%d groups, %s of %s", p.done, p.groups, exec.FormatBytes(p.bytesDone), exec.FormatBytes(p.bytesTotal))
	}
}

// finish ends the progress line.
func (p *rewriteProgress) finish() {
	if p.w != nil {
		fmt.Fprintln(p.w)
	}
}
