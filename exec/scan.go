package exec

import (
	"context"
	"errors"
	"fmt"
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
	deletes *deleteFilter // nil: no row of the file is deleted
}

// ScanColumn is a column a scan reads, with its Iceberg type for statistics.
type ScanColumn struct {
	storage.ReadColumn
	IcebergType iceberg.Type
}

// ScanStats counts what a scan actually touched, for EXPLAIN ANALYZE and for
// tests that check pruning against real reads.
type ScanStats struct {
	FilesOpened    atomic.Int64
	RowGroupsTotal atomic.Int64
	RowGroupsRead  atomic.Int64
	BytesRead      atomic.Int64
	RowsProduced   atomic.Int64
}

// tableScan reads data files in parallel, one worker per core. Each worker
// takes whole files from a queue and streams their row groups into a channel
// whose capacity bounds the batches in flight.
type tableScan struct {
	fs        icebergio.IO
	files     []ScanFile
	cols      []ScanColumn
	readCols  []storage.ReadColumn      // cols, then the columns only equality deletes need
	colIndex  map[int]int               // field id → position in readCols
	rowFilter iceberg.BooleanExpression // bound; nil: read every row group
	schema    *arrow.Schema
	stats     *ScanStats
	workers   int
	hook      fileHook // nil for table scans
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
		fs: fs, files: files, cols: cols, rowFilter: rowFilter, stats: stats,
		schema:   arrow.NewSchema(fields, nil),
		workers:  max(1, min(runtime.GOMAXPROCS(0), len(files))),
		colIndex: map[int]int{},
	}
	for _, c := range slices.Concat(cols, extraColumns(files, cols)) {
		s.colIndex[c.FieldID] = len(s.readCols)
		s.readCols = append(s.readCols, c.ReadColumn)
	}
	return s
}

func (s *tableScan) Schema() *arrow.Schema { return s.schema }

func (s *tableScan) Open(ctx context.Context) error {
	ctx, s.cancel = context.WithCancel(ctx)
	s.out = make(chan arrow.RecordBatch, 2*s.workers)
	queue := make(chan ScanFile)
	go func() {
		defer close(queue)
		for _, f := range s.files {
			if s.rowsNeeded > 0 && s.stats.RowsProduced.Load() >= s.rowsNeeded {
				return
			}
			select {
			case queue <- f:
			case <-ctx.Done():
				return
			}
		}
	}()
	for range s.workers {
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			for f := range queue {
				if err := s.readFile(ctx, f); err != nil {
					s.fail(err)
					return
				}
			}
		}()
	}
	go func() {
		s.wg.Wait()
		close(s.out)
	}()
	return nil
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

func (s *tableScan) readFile(ctx context.Context, f ScanFile) error {
	file, err := s.fs.Open(f.Path)
	if err != nil {
		return fmt.Errorf("open data file %s: %w", f.Path, err)
	}
	defer file.Close()
	s.stats.FilesOpened.Add(1)
	pf, err := storage.OpenParquet(file, f.Size, f.Path)
	if err != nil {
		return err
	}
	if s.hook != nil {
		if err := s.hook.checkFile(f, pf); err != nil {
			return err
		}
	}
	mem := allocator(ctx)
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
		s.stats.RowGroupsRead.Add(1)
		s.stats.BytesRead.Add(pf.RowGroupBytes(rg))
		it, err := pf.ReadRowGroup(ctx, rg, s.readCols, BatchSize, mem)
		if err != nil {
			return err
		}
		if s.hook != nil {
			it = s.hook.extend(ctx, f, it)
		}
		if err := s.drain(ctx, it, start, f.deletes); err != nil {
			return err
		}
	}
	return nil
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
// rows; the row group starts at row first of its file.
func (s *tableScan) drain(ctx context.Context, it storage.RecordIterator, first int64, deletes *deleteFilter) error {
	defer it.Close()
	for {
		batch, err := it.Next()
		if err != nil || batch == nil {
			return err
		}
		n := batch.NumRows()
		if batch, err = s.applyDeletes(ctx, batch, first, deletes); err != nil {
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
