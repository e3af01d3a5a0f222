package exec

import (
	"context"
	"fmt"
	"sort"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/compute"

	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/storage"
)

// deleteFilter removes the rows of one data file that its delete files
// (merge-on-read deletes written by Spark, Flink, …) delete.
type deleteFilter struct {
	positions []int64 // sorted row positions within the file
	equality  []*equalitySet
}

// equalitySet is one equality delete file, its rows encoded as keys over
// its columns the way row_keys.go encodes them (NULL equals NULL, as Iceberg
// equality deletes require).
type equalitySet struct {
	cols []storage.ReadColumn
	keys map[string]struct{}
}

// ScanFiles returns the data files of a scan plan to read, each with the
// deletes that apply to it. The delete files are read here, once per scan.
func ScanFiles(ctx context.Context, ref *planner.TableRef, plan *storage.ScanPlan) ([]ScanFile, error) {
	files := make([]ScanFile, len(plan.Files))
	refs := make([]storage.ScanFileRef, len(plan.Files))
	for i, df := range plan.Files {
		files[i] = ScanFile{Path: df.FilePath(), Size: df.FileSizeBytes(), Rows: df.Count(), FirstRowID: df.FirstRowID(), DataSeq: &plan.FileSeqs[i]}
		refs[i] = storage.ScanFileRef{File: df, Seq: plan.FileSeqs[i]}
	}
	if len(plan.DeleteFiles) == 0 || len(files) == 0 {
		return files, nil
	}
	column := tableColumn(ref)
	deletes, err := storage.LoadDeletes(ctx, ref.FS, ref.Table.Metadata(), ref.Schema, refs, plan.DeleteFiles, plan.DeleteSeqs, column, allocator(ctx))
	if err != nil {
		return nil, fmt.Errorf("scan %s: %w", ref.QualifiedName(), err)
	}
	// Keys are encoded once per delete file, so the rows can be released.
	defer deletes.Release()
	sets := map[*storage.EqualityDeletes]*equalitySet{}
	for i := range files {
		fd := deletes.For(refs[i])
		if fd.Empty() {
			continue
		}
		f := &deleteFilter{positions: fd.Positions}
		for _, eq := range fd.Equality {
			set, ok := sets[eq]
			if !ok {
				if set, err = newEqualitySet(eq, column); err != nil {
					return nil, fmt.Errorf("scan %s: %w", ref.QualifiedName(), err)
				}
				sets[eq] = set
			}
			f.equality = append(f.equality, set)
		}
		files[i].deletes = f
	}
	return files, nil
}

// HasDeletes reports whether delete files delete rows of the file.
func (f ScanFile) HasDeletes() bool { return f.deletes != nil }

// tableColumn describes how to read a column of the table by field id. A
// delete file may name a column the scan's schema has since dropped, so
// older schemas are searched too.
func tableColumn(ref *planner.TableRef) func(int) (storage.ReadColumn, error) {
	return func(id int) (storage.ReadColumn, error) {
		f, ok := ref.Schema.FindFieldByID(id)
		for _, s := range ref.Table.Metadata().Schemas() {
			if ok {
				break
			}
			f, ok = s.FindFieldByID(id)
		}
		if !ok {
			return storage.ReadColumn{}, fmt.Errorf("no column of %s has field id %d", ref.QualifiedName(), id)
		}
		t, err := planner.ArrowTypeOf(f.Type)
		if err != nil {
			return storage.ReadColumn{}, fmt.Errorf("column %s: %w", f.Name, err)
		}
		return storage.NewReadColumn(f, t)
	}
}

func newEqualitySet(eq *storage.EqualityDeletes, column func(int) (storage.ReadColumn, error)) (*equalitySet, error) {
	set := &equalitySet{keys: map[string]struct{}{}}
	for _, id := range eq.FieldIDs {
		c, err := column(id)
		if err != nil {
			return nil, fmt.Errorf("equality delete file %s: %w", eq.Path, err)
		}
		set.cols = append(set.cols, c)
	}
	for _, batch := range eq.Rows {
		keys, err := encodeKeys(batch.Columns(), int(batch.NumRows()))
		if err != nil {
			return nil, fmt.Errorf("equality delete file %s: %w", eq.Path, err)
		}
		for i := range int(batch.NumRows()) {
			set.keys[string(keys.key(i))] = struct{}{}
		}
	}
	return set, nil
}

// extraColumns are the columns equality deletes compare that the scan does
// not read for its output: they are read too, and dropped after matching.
func extraColumns(files []ScanFile, cols []ScanColumn) []ScanColumn {
	have := map[int]bool{}
	for _, c := range cols {
		have[c.FieldID] = true
	}
	var extra []ScanColumn
	for _, f := range files {
		if f.deletes == nil {
			continue
		}
		for _, eq := range f.deletes.equality {
			for _, c := range eq.cols {
				if !have[c.FieldID] {
					have[c.FieldID] = true
					extra = append(extra, ScanColumn{ReadColumn: c})
				}
			}
		}
	}
	return extra
}

// deletedRows marks the rows of a batch that starts at row first of its file
// and that the file's deletes delete; nil when none is.
func (d *deleteFilter) deletedRows(batch arrow.RecordBatch, first int64, colIndex map[int]int) ([]bool, error) {
	n := int(batch.NumRows())
	var deleted []bool
	mark := func(i int) {
		if deleted == nil {
			deleted = make([]bool, n)
		}
		deleted[i] = true
	}
	lo := sort.Search(len(d.positions), func(i int) bool { return d.positions[i] >= first })
	for _, p := range d.positions[lo:] {
		if p >= first+int64(n) {
			break
		}
		mark(int(p - first))
	}
	for _, eq := range d.equality {
		cols := make([]arrow.Array, len(eq.cols))
		for i, c := range eq.cols {
			cols[i] = batch.Column(colIndex[c.FieldID])
		}
		keys, err := encodeKeys(cols, n)
		if err != nil {
			return nil, err
		}
		for i := range n {
			if _, ok := eq.keys[string(keys.key(i))]; ok {
				mark(i)
			}
		}
	}
	return deleted, nil
}

// applyDeletes drops a batch's deleted rows and the columns read only for
// equality deletes. It takes ownership of batch.
func (s *tableScan) applyDeletes(ctx context.Context, batch arrow.RecordBatch, first int64, d *deleteFilter) (arrow.RecordBatch, error) {
	var deleted []bool
	if d != nil {
		var err error
		if deleted, err = d.deletedRows(batch, first, s.colIndex); err != nil {
			batch.Release()
			return nil, err
		}
	}
	if deleted == nil && len(s.readCols)+len(s.made) == len(s.cols) {
		return batch, nil
	}
	// The batch's own field types: a column may be dictionary encoded.
	projected := array.NewRecordBatch(arrow.NewSchema(batch.Schema().Fields()[:len(s.cols)], nil), batch.Columns()[:len(s.cols)], batch.NumRows())
	batch.Release()
	if deleted == nil {
		return projected, nil
	}
	defer projected.Release()
	if len(s.cols) == 0 {
		// count(*) reads no columns: only the row count changes.
		kept := len(deleted) - countMarked(deleted)
		return array.NewRecordBatch(s.schema, nil, int64(kept)), nil
	}
	mem := allocator(ctx)
	b := array.NewBooleanBuilder(mem)
	defer b.Release()
	for _, del := range deleted {
		b.Append(!del)
	}
	mask := b.NewBooleanArray()
	defer mask.Release()
	return compute.FilterRecordBatch(WithAllocator(ctx, mem), projected, mask, compute.DefaultFilterOptions())
}

func countMarked(marks []bool) int {
	n := 0
	for _, m := range marks {
		if m {
			n++
		}
	}
	return n
}
