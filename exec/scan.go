package exec

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/iceberg-go"
	icebergio "github.com/apache/iceberg-go/io"

	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/storage"
)

// ScanFile is one data file a scan reads; ScanFiles attaches the deletes
// that apply to it.
type ScanFile struct {
	Path    string
	Size    int64
	Rows    int64         // the record count of table metadata; 0 when not known
	deletes *deleteFilter // nil: no row of the file is deleted
	// FirstRowID and DataSeq are what a format v3 table's rows of the
	// file inherit as _row_id (plus the row's position) and
	// _last_updated_sequence_number; nil when not known.
	FirstRowID, DataSeq *int64
}

// ScanColumn is a column a scan reads, with its Iceberg type for statistics.
type ScanColumn struct {
	storage.ReadColumn
	IcebergType iceberg.Type
}

// TableScanColumn is the scan column of a table column of schema: files
// written before the column was added read its initial-default.
func TableScanColumn(schema *iceberg.Schema, c planner.ScanColumn) (ScanColumn, error) {
	if err := planner.UnreadableColumn(c.Name, c.T); err != nil {
		return ScanColumn{}, err
	}
	if planner.IsMetadataColumn(c.FieldID) {
		return ScanColumn{ReadColumn: storage.ReadColumn{FieldID: c.FieldID, Name: c.Name, Type: c.T}}, nil
	}
	f, ok := schema.FindFieldByID(c.FieldID)
	if !ok {
		return ScanColumn{}, fmt.Errorf("column %s (field id %d) is not in the table schema", c.Name, c.FieldID)
	}
	rc, err := storage.NewReadColumn(f, c.T)
	if err != nil {
		return ScanColumn{}, err
	}
	rc.Name = c.Name
	return ScanColumn{ReadColumn: rc, IcebergType: f.Type}, nil
}

// ScanStats counts what a scan actually touched, for EXPLAIN ANALYZE and for
// tests that check pruning against real reads.
type ScanStats struct {
	FilesOpened    atomic.Int64
	RowGroupsTotal atomic.Int64
	RowGroupsRead  atomic.Int64
	BytesRead      atomic.Int64
	RowsProduced   atomic.Int64
	// FilesPrunedAtRunTime counts the files a join's build side ruled out
	// after planning (dynamic_pruning.go).
	FilesPrunedAtRunTime atomic.Int64
	// PagesTotal and PagesRead count the pages of the column chunks of the
	// row groups read, and those decoded: the page index skips the rest.
	PagesTotal atomic.Int64
	PagesRead  atomic.Int64
}

// tableScan reads data files in parallel, one worker per core. Each worker
// takes whole files from a queue and streams their row groups into a channel
// whose capacity bounds the batches in flight.
type tableScan struct {
	fs        icebergio.IO
	files     []ScanFile
	cols      []ScanColumn
	readCols  []storage.ReadColumn      // cols, then the columns only equality deletes need, less the row position
	colIndex  map[int]int               // field id → position in the batches drain makes
	made      []madeColumn              // the metadata columns, made by drain, not read
	rowFilter iceberg.BooleanExpression // bound; nil: read every row group
	late      []storage.ColumnPredicate // rowFilter's conjuncts storage tests on readCols
	// filterCols are the columns rowFilter refers to, whose page indexes
	// can skip pages.
	filterCols []ScanColumn
	// subqueryKeys are the value sets of the filter's IN subqueries that
	// storage tests rows against (prune_subqueries.go); Col is a field id.
	subqueryKeys []storage.ColumnPredicate
	schema       *arrow.Schema
	stats        *ScanStats
	workers      int
	hook         fileHook // nil for table scans
	// rowsNeeded > 0: stop handing out files once this many rows came out
	// (a LIMIT right above; see optimizer/push_down_limit.go).
	rowsNeeded int64

	cancel context.CancelFunc
	out    chan arrow.RecordBatch
	errMu  sync.Mutex
	err    error
	wg     sync.WaitGroup
}

// fileHook adapts a tableScan to files named by a table function rather than
// listed by a table's metadata: it checks each file's schema (no table
// guarantees it) and extends the file's batches with its hive partition
// columns.
type fileHook interface {
	checkFile(f ScanFile, pf *storage.ParquetFile) error
	extend(ctx context.Context, f ScanFile, it storage.RecordIterator) storage.RecordIterator
}

// NewTableScan returns an operator that reads cols of files through fs,
// skipping row groups whose footer statistics rule out rowFilter (a bound
// Iceberg expression, or nil). stats may be nil.
func NewTableScan(fs icebergio.IO, files []ScanFile, cols []ScanColumn, rowFilter iceberg.BooleanExpression, stats *ScanStats) Operator {
	fields := make([]arrow.Field, len(cols))
	for i, c := range cols {
		fields[i] = arrow.Field{Name: c.Name, Type: c.Type, Nullable: true}
	}
	if stats == nil {
		stats = &ScanStats{}
	}
	s := &tableScan{
		fs: fs, files: files, cols: cols, stats: stats,
		schema:   arrow.NewSchema(fields, nil),
		workers:  runtime.GOMAXPROCS(0),
		colIndex: map[int]int{},
	}
	for i, c := range slices.Concat(cols, extraColumns(files, cols)) {
		s.colIndex[c.FieldID] = i
		lineage := planner.IsLineageColumn(c.FieldID)
		if planner.IsMetadataColumn(c.FieldID) {
			s.made = append(s.made, madeColumn{at: i, fieldID: c.FieldID, read: lineage})
			if !lineage {
				continue
			}
		}
		s.readCols = append(s.readCols, c.ReadColumn)
	}
	s.setRowFilter(rowFilter)
	return s
}

// setRowFilter sets the bound filter row groups, pages and rows are tested
// against, and the storage predicates derived from it, followed by the key
// sets of keyPreds (whose Col is a field id: IN subqueries' and joins'
// integer keys, too many to list in the filter).
func (s *tableScan) setRowFilter(rowFilter iceberg.BooleanExpression, keyPreds ...storage.ColumnPredicate) {
	s.rowFilter = rowFilter
	s.late = latePredicates(rowFilter, s.readCols)
	s.filterCols = filterColumns(rowFilter, s.cols)
	for _, keys := range keyPreds {
		for i, c := range s.readCols {
			if c.FieldID == keys.Col && storage.FilterableType(c.Type) {
				keys.Col = i
				s.late = append(s.late, keys)
				break
			}
		}
	}
	// Strings are compared only after the cheaper integer comparisons,
	// and only when those left many rows (storage skips them otherwise).
	slices.SortStableFunc(s.late, func(a, b storage.ColumnPredicate) int {
		return cmp.Compare(len(a.Strings), len(b.Strings))
	})
}

func (s *tableScan) Schema() *arrow.Schema { return s.schema }

// rows is how many rows the scan's files hold, by the table's metadata.
func (s *tableScan) rows() int64 {
	n := int64(0)
	for _, f := range s.files {
		n += f.Rows
	}
	return n
}

func (s *tableScan) Open(ctx context.Context) error {
	ctx, s.cancel = context.WithCancel(ctx)
	s.out = make(chan arrow.RecordBatch, 2*s.workers)
	files := make(chan ScanFile)
	tasks := make(chan rowGroupTask, 2*s.workers)
	go s.feedFiles(ctx, files)
	// Openers read footers and hand out row groups; readers decode them. A
	// file with many row groups is thus read by every core, not one.
	var openers sync.WaitGroup
	for range max(1, min(s.workers, len(s.files))) {
		openers.Add(1)
		go func() {
			defer openers.Done()
			for f := range files {
				if err := s.openFile(ctx, f, tasks); err != nil {
					s.fail(err)
				}
			}
		}()
	}
	go func() {
		openers.Wait()
		close(tasks)
	}()
	for range s.workers {
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			for t := range tasks {
				if ctx.Err() == nil {
					if err := s.readRowGroup(ctx, t); err != nil {
						s.fail(err)
					}
				}
				t.file.release()
			}
		}()
	}
	go func() {
		s.wg.Wait()
		close(s.out)
	}()
	return nil
}

// feedFiles queues the files to read, stopping early once a LIMIT above has
// the rows it needs.
func (s *tableScan) feedFiles(ctx context.Context, files chan<- ScanFile) {
	defer close(files)
	for _, f := range s.files {
		if s.rowsNeeded > 0 && s.stats.RowsProduced.Load() >= s.rowsNeeded {
			return
		}
		select {
		case files <- f:
		case <-ctx.Done():
			return
		}
	}
}

// openedFile is a data file whose row groups are being read; the last reader
// to finish closes it.
type openedFile struct {
	ScanFile
	parquet *storage.ParquetFile
	closer  io.Closer
	pending atomic.Int64
}

func (f *openedFile) release() {
	if f.pending.Add(-1) == 0 {
		f.closer.Close()
	}
}

// rowGroupTask is one row group to read; first is the position of its first
// row in the file, which position deletes count from.
type rowGroupTask struct {
	file  *openedFile
	rg    int
	first int64
}

// openFile reads a file's footer and queues the row groups its statistics
// do not rule out.
func (s *tableScan) openFile(ctx context.Context, f ScanFile, tasks chan<- rowGroupTask) error {
	file, err := s.fs.Open(f.Path)
	if err != nil {
		return fmt.Errorf("open data file %s: %w", f.Path, err)
	}
	s.stats.FilesOpened.Add(1)
	pf, err := storage.OpenParquet(file, f.Size, f.Path)
	if err == nil && s.hook != nil {
		err = s.hook.checkFile(f, pf)
	}
	if err != nil {
		file.Close()
		return err
	}
	pf.SetPageCounter(s.stats)
	if n := runtime.GOMAXPROCS(0); len(s.files) < n {
		// Fewer files than cores: idle cores decode this file's columns.
		pf.SetColumnParallelism((n + len(s.files) - 1) / len(s.files))
	}
	var queued []rowGroupTask
	open := &openedFile{ScanFile: f, parquet: pf, closer: file}
	// Position deletes count rows from the start of the file, skipped row
	// groups included.
	var first int64
	for rg := range pf.NumRowGroups() {
		start := first
		first += pf.RowGroupNumRows(rg)
		s.stats.RowGroupsTotal.Add(1)
		if s.rowFilter != nil && !storage.MightMatch(s.rowFilter, s.rowGroupStats(pf, rg)) {
			continue
		}
		queued = append(queued, rowGroupTask{file: open, rg: rg, first: start})
	}
	// One extra hold until every task is queued, so the file cannot close
	// while its row groups are still being handed out.
	open.pending.Store(int64(len(queued)) + 1)
	defer open.release()
	for _, t := range queued {
		select {
		case tasks <- t:
		case <-ctx.Done():
			open.release()
		}
	}
	return nil
}

func (s *tableScan) readRowGroup(ctx context.Context, t rowGroupTask) error {
	pf := t.file.parquet
	var ranges []storage.RowRange
	if s.hook == nil {
		ranges = s.rowRanges(pf, t.rg)
		if ranges != nil && len(ranges) == 0 {
			// The page index rules out every row.
			for _, c := range s.readCols {
				s.stats.CountPages(pf.NumPages(t.rg, c), 0)
			}
			return nil
		}
	}
	s.stats.RowGroupsRead.Add(1)
	s.stats.BytesRead.Add(pf.ColumnBytes(t.rg, s.readCols))
	var it storage.RecordIterator
	var err error
	switch {
	case s.hook == nil && t.file.deletes == nil && !s.needsPositions() && (len(s.late) > 0 || ranges != nil):
		// Page skipping and late materialization: rows dropped here fail
		// the scan's filter, which the plan still applies above. Without
		// deletes, row positions are not needed.
		it, _, err = pf.ReadRowGroupFiltered(ctx, t.rg, s.readCols, ranges, s.late, BatchSize, allocator(ctx))
	case ranges != nil:
		// Deletes count rows from the start of the file: each kept range is
		// read and drained at its own position.
		for _, r := range ranges {
			it, _, err := pf.ReadRowGroupFiltered(ctx, t.rg, s.readCols, []storage.RowRange{r}, nil, BatchSize, allocator(ctx))
			if err != nil {
				return err
			}
			if err := s.drain(ctx, it, t.file, t.first+int64(r.Start)); err != nil {
				return err
			}
		}
		return nil
	default:
		it, err = pf.ReadRowGroup(ctx, t.rg, s.readCols, BatchSize, allocator(ctx))
	}
	if err != nil {
		return err
	}
	if s.hook != nil {
		it = s.hook.extend(ctx, t.file.ScanFile, it)
	}
	return s.drain(ctx, it, t.file, t.first)
}

// fail records the first error and stops the other workers.
func (s *tableScan) fail(err error) {
	s.errMu.Lock()
	defer s.errMu.Unlock()
	if s.err == nil && !errors.Is(err, context.Canceled) {
		s.err = err
	}
	s.cancel()
}

// rowGroupStats exposes a row group's footer statistics to the pruning
// evaluator; columns without usable statistics are unknown.
func (s *tableScan) rowGroupStats(pf *storage.ParquetFile, rg int) func(int) storage.FieldStats {
	return func(fieldID int) storage.FieldStats {
		unknown := storage.FieldStats{Nulls: -1, Values: -1, NaNs: -1}
		for _, c := range s.cols {
			if c.FieldID != fieldID {
				continue
			}
			lo, hi, nulls, ok := pf.ColumnStats(rg, c.ReadColumn)
			st := unknown
			st.Nulls = nulls
			st.Values = pf.RowGroupNumRows(rg)
			if ok {
				st.Lower = statLiteral(lo, c)
				st.Upper = statLiteral(hi, c)
			}
			return st
		}
		return unknown
	}
}

func statLiteral(v any, c ScanColumn) iceberg.Literal {
	lit, ok := planner.IcebergLiteral(v, c.Type)
	if !ok {
		return nil
	}
	conv, err := lit.To(c.IcebergType)
	if err != nil {
		return nil
	}
	return conv
}

// drain sends one row group's batches downstream, without their deleted
// rows; the row group starts at row first of file.
func (s *tableScan) drain(ctx context.Context, it storage.RecordIterator, file *openedFile, first int64) error {
	defer it.Close()
	for {
		batch, err := it.Next()
		if err != nil || batch == nil {
			return err
		}
		n := batch.NumRows()
		batch = s.withMadeColumns(ctx, batch, file.ScanFile, first)
		if batch, err = s.applyDeletes(ctx, batch, first, file.deletes); err != nil {
			return err
		}
		first += n
		if batch.NumRows() == 0 {
			batch.Release()
			continue
		}
		s.stats.RowsProduced.Add(batch.NumRows())
		select {
		case s.out <- batch:
		case <-ctx.Done():
			batch.Release()
			return ctx.Err()
		}
	}
}

func (s *tableScan) Next(ctx context.Context) (arrow.RecordBatch, error) {
	select {
	case batch, ok := <-s.out:
		if ok {
			return batch, nil
		}
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	s.errMu.Lock()
	defer s.errMu.Unlock()
	return nil, s.err
}

// Close stops the workers and drops batches still in flight.
func (s *tableScan) Close() error {
	if s.cancel == nil {
		return nil
	}
	s.cancel()
	for batch := range s.out {
		batch.Release()
	}
	return nil
}
