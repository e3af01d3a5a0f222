package dml

import (
	"context"
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/iceberg-go"
	icebergio "github.com/apache/iceberg-go/io"
	"github.com/apache/iceberg-go/table"

	"github.com/lakesql/lakesql/exec"
	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/storage"
)

// deletedRows collects, per file of a positionedScan, the positions of the
// rows a merge-on-read statement deletes or replaces.
type deletedRows map[int32][]int64

// add records the rows of batch (laid out with its position and file
// columns at pos and file) that marked says.
func (d deletedRows) add(batch arrow.RecordBatch, pos, file int, marked func(i int) bool) {
	positions := batch.Column(pos).(*array.Int64)
	files := batch.Column(file).(*array.Int32)
	for i := range int(batch.NumRows()) {
		if files.IsValid(i) && marked(i) {
			f := files.Value(i)
			d[f] = append(d[f], positions.Value(i))
		}
	}
}

// write writes one position delete file per data file with deleted rows
// (data[i] is file i of the positionedScan); on error it removes those it
// wrote.
func (d deletedRows) write(fs icebergio.WriteFileIO, tbl *table.Table, data []iceberg.DataFile) ([]iceberg.DataFile, error) {
	var out []iceberg.DataFile
	for f, positions := range d {
		df := data[f]
		spec := tbl.Metadata().PartitionSpecByID(int(df.SpecID()))
		if spec == nil {
			removeWritten(fs, out)
			return nil, fmt.Errorf("data file %s has partition spec %d, which table %s does not have", df.FilePath(), df.SpecID(), strings.Join(tbl.Identifier(), "."))
		}
		del, err := storage.WritePositionDeletes(fs, *spec, df, positions)
		if err != nil {
			removeWritten(fs, out)
			return nil, err
		}
		out = append(out, del)
	}
	return out, nil
}

// removeWritten removes files this statement wrote and does not commit.
func removeWritten(fs icebergio.WriteFileIO, files []iceberg.DataFile) {
	for _, f := range files {
		_ = fs.Remove(f.FilePath())
	}
}

// commitMergeOnRead writes the delete files of deleted and commits them with
// the data files w wrote in one snapshot; on error it removes every file it
// wrote (w may be nil: nothing was written).
func commitMergeOnRead(ctx context.Context, fs icebergio.WriteFileIO, cache *storage.ManifestCache, tbl *table.Table, data []iceberg.DataFile, deleted deletedRows, w *storage.TableWriter, added []iceberg.DataFile) error {
	deletes, err := deleted.write(fs, tbl, data)
	if err == nil {
		if err = commitRowDelta(ctx, cache, tbl, data, added, deletes); err != nil {
			removeWritten(fs, deletes)
		}
	}
	if err != nil && w != nil {
		w.Abort()
	}
	return err
}

// mergeOnRead runs DELETE (values nil) or UPDATE (values: each column's new
// value, nil where unchanged) in merge-on-read mode: the selected rows of
// the selected files are named in position delete files, UPDATE writes
// their new versions to new data files, and both go in one snapshot.
func (r *rowSelection) mergeOnRead(ctx context.Context, files []selectedFile, values []planner.Expr) error {
	fs := r.target.FS
	scanFiles := make([]exec.ScanFile, len(files))
	data := make([]iceberg.DataFile, len(files))
	for i, sf := range files {
		scanFiles[i], data[i] = sf.f, sf.df
	}
	cols, types := allColumns(r.target, r.scan)
	var cond planner.Expr
	if values == nil {
		cols, cond = r.condColumns() // DELETE reads only what it tests
	} else {
		cond = r.cond
	}
	scan := newPositionedScan(fs, scanFiles, cols)
	pos, file := len(cols), len(cols)+1
	deleted := deletedRows{}
	var op exec.Operator = scan
	if cond != nil {
		op = exec.NewFilter(scan, isTrue(cond))
	}
	op = &tap{Operator: op, fn: func(b arrow.RecordBatch) { deleted.add(b, pos, file, func(int) bool { return true }) }}
	if values == nil {
		if err := drain(ctx, op); err != nil {
			return err
		}
		return commitMergeOnRead(ctx, fs, r.s.Manifests(), r.target.Table, data, deleted, nil, nil)
	}
	exprs, names := make([]planner.Expr, len(values)), make([]string, len(values))
	for i, c := range r.scan.Columns {
		names[i] = c.Name
		exprs[i] = values[i]
		if exprs[i] == nil {
			exprs[i] = &planner.ColumnRef{Index: i, Name: c.Name, T: c.T}
		}
	}
	op = exec.NewProject(op, exprs, names)
	w, err := storage.NewTableWriter(r.target.Table, fs, types)
	if err != nil {
		return err
	}
	if err := op.Open(ctx); err != nil {
		op.Close()
		w.Abort()
		return err
	}
	_, added, err := w.WriteAll(ctx, func() (arrow.RecordBatch, error) { return op.Next(ctx) })
	op.Close()
	if err != nil {
		w.Abort()
		return err
	}
	return commitMergeOnRead(ctx, fs, r.s.Manifests(), r.target.Table, data, deleted, w, added)
}

// tap calls fn on every batch passing through.
type tap struct {
	exec.Operator
	fn func(arrow.RecordBatch)
}

func (t *tap) Next(ctx context.Context) (arrow.RecordBatch, error) {
	b, err := t.Operator.Next(ctx)
	if b != nil {
		t.fn(b)
	}
	return b, err
}

// drain reads an operator to its end.
func drain(ctx context.Context, op exec.Operator) error {
	if err := op.Open(ctx); err != nil {
		op.Close()
		return err
	}
	defer op.Close()
	for {
		b, err := op.Next(ctx)
		if err != nil || b == nil {
			return err
		}
		b.Release()
	}
}
