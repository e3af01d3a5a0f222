package engine

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakesql/lakesql/exec"
)

// Message is the result of a statement that returns no rows.
func Message(text string) *Result { return &Result{Message: text} }

// TextRows is a small result of string columns (SHOW, DESCRIBE, EXPLAIN).
func TextRows(names []string, rows [][]string) *Result {
	fields := make([]arrow.Field, len(names))
	for i, n := range names {
		fields[i] = arrow.Field{Name: n, Type: arrow.BinaryTypes.String, Nullable: true}
	}
	schema := arrow.NewSchema(fields, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	for _, row := range rows {
		for i, v := range row {
			b.Field(i).(*array.StringBuilder).Append(v)
		}
	}
	batch := b.NewRecordBatch()
	defer batch.Release()
	return BatchResult(schema, batch)
}

// BatchResult is the result of rows already in memory.
func BatchResult(schema *arrow.Schema, batches ...arrow.RecordBatch) *Result {
	return &Result{Schema: schema, rows: exec.NewBatches(schema, batches)}
}

// RowCount is the message of a statement that changed n rows: "1 row
// inserted", "3 rows deleted".
func RowCount(n int64, verb string) *Result {
	noun := "rows"
	if n == 1 {
		noun = "row"
	}
	return Message(fmt.Sprintf("%d %s %s", n, noun, verb))
}
