package dml

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	icebergio "github.com/apache/iceberg-go/io"

	"github.com/lakesql/lakesql/exec"
)

// positionedScan reads data files one after the other — the columns asked
// for, then each row's position in its file (exec.RowPositionColumn) — and
// adds the file's index in files (INT). The two numbers name a row: MERGE
// uses them to know which files hold changed rows and whether a target row
// matched twice, and merge-on-read writes them into position delete files.
type positionedScan struct {
	fs     icebergio.IO
	files  []exec.ScanFile
	cols   []exec.ScanColumn // the columns asked for, then the row position
	schema *arrow.Schema

	file int           // index of the file being read
	scan exec.Operator // over files[file]; nil between files
}

func newPositionedScan(fs icebergio.IO, files []exec.ScanFile, cols []exec.ScanColumn) *positionedScan {
	cols = append(append([]exec.ScanColumn(nil), cols...), exec.RowPositionColumn())
	fields := append([]arrow.Field(nil), exec.NewTableScan(fs, nil, cols, nil, nil).Schema().Fields()...)
	fields = append(fields, arrow.Field{Name: "#file", Type: arrow.PrimitiveTypes.Int32, Nullable: true})
	return &positionedScan{fs: fs, files: files, cols: cols, schema: arrow.NewSchema(fields, nil), file: -1}
}

func (n *positionedScan) Schema() *arrow.Schema { return n.schema }

func (n *positionedScan) Open(context.Context) error { return nil }

func (n *positionedScan) Next(ctx context.Context) (arrow.RecordBatch, error) {
	for {
		if n.scan == nil {
			if n.file+1 >= len(n.files) {
				return nil, nil
			}
			n.file++
			n.scan = exec.NewTableScan(n.fs, n.files[n.file:n.file+1], n.cols, nil, nil)
			if err := n.scan.Open(ctx); err != nil {
				return nil, err
			}
		}
		batch, err := n.scan.Next(ctx)
		if err != nil {
			return nil, err
		}
		if batch == nil {
			err := n.scan.Close()
			n.scan = nil
			if err != nil {
				return nil, err
			}
			continue
		}
		return n.withFile(batch), nil
	}
}

// withFile returns batch with the file column added; it takes over batch.
func (n *positionedScan) withFile(batch arrow.RecordBatch) arrow.RecordBatch {
	defer batch.Release()
	rows := int(batch.NumRows())
	files := array.NewInt32Builder(memory.DefaultAllocator)
	defer files.Release()
	files.Reserve(rows)
	for range rows {
		files.UnsafeAppend(int32(n.file))
	}
	fileArr := files.NewArray()
	defer fileArr.Release()
	cols := append(append([]arrow.Array(nil), batch.Columns()...), fileArr)
	return array.NewRecordBatch(n.schema, cols, int64(rows))
}

func (n *positionedScan) Close() error {
	if n.scan == nil {
		return nil
	}
	err := n.scan.Close()
	n.scan = nil
	return err
}
