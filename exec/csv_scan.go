package exec

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	icebergio "github.com/apache/iceberg-go/io"

	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/storage"
)

// csvScan streams the files of read_csv or read_json one after the other.
// Neither format has a columnar layout to skip, so every field is parsed; the
// batches then keep only the columns the query uses.
type csvScan struct {
	fs      icebergio.IO
	scan    *planner.FileScan
	files   []planner.FileRef
	schema  *arrow.Schema
	fields  []arrow.Field // every column of the files
	project []int         // for each file column of the output, its position in fields

	next   int // the next file to open
	file   icebergio.File
	reader textReader
}

// textReader reads a CSV or JSON file as batches of every file column.
type textReader interface {
	Next() (arrow.RecordBatch, error)
	Release()
}

func newCSVScan(fs icebergio.IO, p *planner.FileScan, files []planner.FileRef) Operator {
	s := &csvScan{fs: fs, scan: p, files: files, schema: ArrowSchema(p.Schema())}
	position := map[string]int{}
	for i, c := range p.FileSchema {
		s.fields = append(s.fields, arrow.Field{Name: c.Name, Type: c.Type, Nullable: true})
		if _, dup := position[c.Name]; !dup {
			position[c.Name] = i
		}
	}
	for _, c := range p.Columns {
		if c.Hive < 0 {
			s.project = append(s.project, position[c.Name])
		}
	}
	return s
}

func (s *csvScan) Schema() *arrow.Schema { return s.schema }

func (s *csvScan) Open(context.Context) error {
	s.next = 0
	return nil
}

func (s *csvScan) Next(ctx context.Context) (arrow.RecordBatch, error) {
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if s.reader == nil {
			if s.next == len(s.files) {
				return nil, nil
			}
			if err := s.openFile(ctx, s.files[s.next]); err != nil {
				return nil, err
			}
		}
		batch, err := s.reader.Next()
		if err != nil {
			return nil, err
		}
		if batch != nil {
			out, err := s.output(ctx, batch)
			batch.Release()
			return out, err
		}
		s.closeFile()
		s.next++
	}
}

func (s *csvScan) openFile(ctx context.Context, f planner.FileRef) error {
	file, err := s.fs.Open(f.Path)
	if err != nil {
		return fmt.Errorf("%s: open %s: %w", s.scan.Func, f.Path, err)
	}
	s.file = file
	if s.scan.Format == planner.FormatJSON {
		s.reader = storage.NewJSONReader(file, f.Path, s.fields, BatchSize, allocator(ctx))
	} else {
		s.reader = storage.NewCSVReader(file, f.Path, csvOptions(s.scan.CSV), s.fields, BatchSize, allocator(ctx))
	}
	return nil
}

// output keeps the used columns of a batch of every file column and adds
// the hive partition columns.
func (s *csvScan) output(ctx context.Context, batch arrow.RecordBatch) (arrow.RecordBatch, error) {
	cols := make([]arrow.Array, len(s.project))
	fields := make([]arrow.Field, len(s.project))
	for i, pos := range s.project {
		cols[i], fields[i] = batch.Column(pos), s.fields[pos]
	}
	used := array.NewRecordBatch(arrow.NewSchema(fields, nil), cols, batch.NumRows())
	defer used.Release()
	return withHiveColumns(s.scan, s.schema, s.files[s.next], used, allocator(ctx))
}

func (s *csvScan) closeFile() {
	if s.reader != nil {
		s.reader.Release()
		s.file.Close()
		s.reader, s.file = nil, nil
	}
}

func (s *csvScan) Close() error {
	s.closeFile()
	return nil
}
