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

// showIn labels the TIMESTAMPTZ columns of the result, and TIMESTAMPTZ
// values nested in lists, maps and structs, with time zone loc, so that
// they render in it; the values stay the same instants.
func (r *Result) showIn(loc *time.Location) {
	fields := r.Schema.Fields()
	changed := false
	for i, f := range fields {
		if t, ok := zonedType(f.Type, loc); ok {
			fields[i].Type = t
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
			data := relabeled(b.Column(i).Data(), schema.Field(i).Type)
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

// zonedType is t with every TIMESTAMPTZ in it, at any depth, in zone loc;
// false when t holds none.
func zonedType(t arrow.DataType, loc *time.Location) (arrow.DataType, bool) {
	switch t := t.(type) {
	case *arrow.TimestampType:
		if t.TimeZone == "" {
			return t, false
		}
		return &arrow.TimestampType{Unit: t.Unit, TimeZone: loc.String()}, true
	case *arrow.MapType:
		key, keyChanged := zonedField(t.KeyField(), loc)
		item, itemChanged := zonedField(t.ItemField(), loc)
		if !keyChanged && !itemChanged {
			return t, false
		}
		m := arrow.MapOfFields(key, item)
		m.KeysSorted = t.KeysSorted
		return m, true
	case *arrow.ListType:
		elem, changed := zonedField(t.ElemField(), loc)
		if !changed {
			return t, false
		}
		return arrow.ListOfField(elem), true
	case *arrow.StructType:
		fields := t.Fields()
		changed := false
		for i, f := range fields {
			var c bool
			fields[i], c = zonedField(f, loc)
			changed = changed || c
		}
		if !changed {
			return t, false
		}
		return arrow.StructOf(fields...), true
	}
	return t, false
}

func zonedField(f arrow.Field, loc *time.Location) (arrow.Field, bool) {
	t, changed := zonedType(f.Type, loc)
	f.Type = t
	return f, changed
}

// relabeled is d's buffers under type t, which differs from d's only in
// time zone labels (zonedType); the caller releases it.
func relabeled(d arrow.ArrayData, t arrow.DataType) arrow.ArrayData {
	children := make([]arrow.ArrayData, len(d.Children()))
	for i, c := range d.Children() {
		children[i] = relabeled(c, childType(t, i))
	}
	out := array.NewData(t, d.Len(), d.Buffers(), children, d.NullN(), d.Offset())
	for _, c := range children {
		c.Release()
	}
	return out
}

// childType is the type of child i of an array of nested type t: a list's
// or map's entries, a struct's field.
func childType(t arrow.DataType, i int) arrow.DataType {
	switch t := t.(type) {
	case arrow.ListLikeType:
		return t.Elem()
	case *arrow.StructType:
		return t.Field(i).Type
	}
	return nil
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
