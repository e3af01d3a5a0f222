// Package lakesql glues a session together: parse, plan, optimize and execute
// SQL statements against an Iceberg warehouse. cmd/lakesql is a thin front end
// over it, and other Go programs can embed it the same way.
package lakesql

import (
	"context"
	"io"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakesql/lakesql/exec"
	"github.com/lakesql/lakesql/storage"
)

// Options configure a session.
type Options struct {
	// Warehouse is the warehouse folder.
	Warehouse string
	// Catalog is the name the warehouse's catalog answers to in three-part
	// names (catalog.namespace.table); default "lakesql".
	Catalog string
	// Remaps map table locations to local folders for this session, in
	// addition to those the warehouse records (see CALL system.register_table).
	Remaps []storage.Remap
	// Progress, when set, receives progress lines of long statements
	// (rewrite_data_files, OPTIMIZE); cmd/lakesql passes a terminal's stderr.
	Progress io.Writer
}

// Result is what one statement returns: a stream of record batches with a
// schema. Statements that return no rows have a nil Schema and a Message.
type Result struct {
	Schema  *arrow.Schema
	Message string
	rows    exec.Operator
}

// Next returns the next batch of rows, or nil at the end. The caller must
// Release each batch.
func (r *Result) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if r.rows == nil {
		return nil, nil
	}
	return r.rows.Next(ctx)
}

// Close stops the statement and releases its resources.
func (r *Result) Close() error {
	if r.rows == nil {
		return nil
	}
	return r.rows.Close()
}
