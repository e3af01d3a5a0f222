package dml

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	icebergio "github.com/apache/iceberg-go/io"

	"github.com/lakesql/lakesql/exec"
)

// numberedScan reads data files one after the other and adds two columns to
// their rows: the file's index in files (INT) and a number that tells the
// file's rows apart (BIGINT). MERGE joins these rows with its source and
// uses the two numbers to know which files hold changed rows and whether a
// target row matched twice.
type numberedScan struct {
	fs     icebergio.IO
	files  []exec.ScanFile
	cols   []exec.ScanColumn
	schema *arrow.Schema

	file int           // index of the file being read
	row  int64         // rows of it read so far
	scan exec.Operator // over files[file]; nil before the first
}

func newNumberedScan(fs icebergio.IO, files []exec.ScanFile, cols []exec.ScanColumn) *numberedScan {
	fields := append([]arrow.Field(nil), exec.NewTableScan(fs, nil, cols, nil, nil).Schema().Fields()...)
	fields = append(fields,
		arrow.Field{Name: "#file", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		arrow.Field{Name: "#row", Type: arrow.PrimitiveTypes.Int64, Nullable: true})
	return &numberedScan{fs: fs, files: files, cols: cols, schema: arrow.NewSchema(fields, nil), file: -1}
}

func (n *numberedScan) Schema() *arrow.Schema { return n.schema }

func (n *numberedScan) Open(context.Context) error { return nil }

func (n *numberedScan) Next(ctx context.Context) (arrow.RecordBatch, error) {
	for {
		if n.scan == nil {
			if n.file+1 >= len(n.files) {
				return nil, nil
			}
			n.file++
			n.row = 0
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
		return n.number(batch), nil
	}
}

// number returns batch with the file and row columns added; it takes over
// batch's reference.
func (n *numberedScan) number(batch arrow.RecordBatch) arrow.RecordBatch {
	defer batch.Release()
	rows := int(batch.NumRows())
	files := array.NewInt32Builder(memory.DefaultAllocator)
	defer files.Release()
	numbers := array.NewInt64Builder(memory.DefaultAllocator)
	defer numbers.Release()
	files.Reserve(rows)
	numbers.Reserve(rows)
	for i := range rows {
		files.UnsafeAppend(int32(n.file))
		numbers.UnsafeAppend(n.row + int64(i))
	}
	n.row += int64(rows)
	fileArr, numberArr := files.NewArray(), numbers.NewArray()
	defer fileArr.Release()
	defer numberArr.Release()
	cols := append(append([]arrow.Array(nil), batch.Columns()...), fileArr, numberArr)
	return array.NewRecordBatch(n.schema, cols, int64(rows))
}

func (n *numberedScan) Close() error {
	if n.scan == nil {
		return nil
	}
	err := n.scan.Close()
	n.scan = nil
	return err
}
