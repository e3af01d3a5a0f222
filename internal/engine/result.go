package engine

import (
	"context"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/lakesql/lakesql/exec"
)

// Result is what one statement returns: a stream of record batches with a
// schema. Statements that return no rows have a nil Schema and a Message.
// The root package's lakesql.Result is this type.
type Result struct {
	Schema  *arrow.Schema
	Message string
	rows    exec.Operator
	// zoned relabels TIMESTAMPTZ columns with the session time zone
	// (showIn), nil when there are none.
	zoned func(arrow.RecordBatch) arrow.RecordBatch
	// stmtCtx carries the statement's deadline (statement_timeout), which
	// Next applies to its caller's context; release frees it on Close.
	stmtCtx context.Context
	release context.CancelFunc
	session *Session
	// memoryLimit is the session's own memory limit (0: the process's),
	// which Next applies to its caller's context as it does the deadline.
	memoryLimit int64
}

// showIn labels the TIMESTAMPTZ columns of the result with time zone loc,
// so that they render in it; the values stay the same instants.
func (r *Result) showIn(loc *time.Location) {
	fields := r.Schema.Fields()
	changed := false
	for i, f := range fields {
		if ts, ok := f.Type.(*arrow.TimestampType); ok && ts.TimeZone != "" {
			fields[i].Type = &arrow.TimestampType{Unit: ts.Unit, TimeZone: loc.String()}
			changed = true
		}
	}
	if !changed {
		return
	}
	md := r.Schema.Metadata()
	r.Schema = arrow.NewSchema(fields, &md)
	schema := r.Schema
	r.zoned = func(b arrow.RecordBatch) arrow.RecordBatch {
		cols := make([]arrow.Array, b.NumCols())
		for i := range cols {
			d := b.Column(i).Data()
			data := array.NewData(schema.Field(i).Type, d.Len(), d.Buffers(), d.Children(), d.NullN(), d.Offset())
			cols[i] = array.MakeFromData(data)
			data.Release()
		}
		out := array.NewRecordBatch(schema, cols, b.NumRows())
		for _, c := range cols {
			c.Release()
		}
		b.Release()
		return out
	}
}

// Next returns the next batch of rows, or nil at the end. The caller must
// Release each batch, and must not use its values after that: its memory
// goes back to the query buffer pool, and strings from a column's Value
// point into it (copy them, as strings.Clone does, to keep them).
func (r *Result) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if r.rows == nil {
		return nil, nil
	}
	if r.memoryLimit > 0 {
		ctx = exec.WithMemoryLimit(ctx, r.memoryLimit)
	}
	if r.stmtCtx != nil {
		if deadline, ok := r.stmtCtx.Deadline(); ok {
			var cancel context.CancelFunc
			ctx, cancel = context.WithDeadline(ctx, deadline)
			defer cancel()
		}
	}
	b, err := r.rows.Next(ctx)
	if err != nil && r.session != nil {
		err = r.session.TimeoutError(ctx, err)
	}
	if b == nil || err != nil || r.zoned == nil {
		return b, err
	}
	return r.zoned(b), nil
}

// Close stops the statement and releases its resources.
func (r *Result) Close() error {
	if r.release != nil {
		defer r.release()
	}
	if r.rows == nil {
		return nil
	}
	return r.rows.Close()
}
