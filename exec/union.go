package exec

import (
	"context"
	"errors"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// union passes on the rows of its inputs, one input after the other. For
// UNION (distinct) it remembers every row it passed on and drops repeats, so
// it streams and holds only the distinct rows' keys.
type union struct {
	inputs []Operator
	cur    int
	seen   *keyTable // nil for UNION ALL
	schema *arrow.Schema
}

// NewUnion returns the rows of inputs, which produce schema's types, under
// schema's names; without all, each distinct row once (NULLs equal).
func NewUnion(schema *arrow.Schema, all bool, inputs ...Operator) Operator {
	u := &union{inputs: inputs, schema: schema}
	if !all {
		u.seen = newKeyTable()
	}
	return u
}

func (u *union) Schema() *arrow.Schema { return u.schema }

func (u *union) Open(ctx context.Context) error {
	for _, in := range u.inputs {
		if err := in.Open(ctx); err != nil {
			return err
		}
	}
	return nil
}

func (u *union) Next(ctx context.Context) (arrow.RecordBatch, error) {
	for u.cur < len(u.inputs) {
		batch, err := u.inputs[u.cur].Next(ctx)
		if err != nil {
			return nil, err
		}
		if batch == nil {
			u.cur++
			continue
		}
		// Inputs name their columns their own way; the union's names win.
		renamed := array.NewRecordBatch(u.schema, batch.Columns(), batch.NumRows())
		batch.Release()
		if u.seen == nil {
			return renamed, nil
		}
		out, err := u.newRows(ctx, renamed)
		renamed.Release()
		if err != nil || out != nil {
			return out, err
		}
	}
	return nil, nil
}

// newRows keeps the rows of batch not seen before; nil when there are none.
func (u *union) newRows(ctx context.Context, batch arrow.RecordBatch) (arrow.RecordBatch, error) {
	keys, err := encodeKeys(batch.Columns(), int(batch.NumRows()))
	if err != nil {
		return nil, err
	}
	var keep []int32
	for r := range keys.hasNull {
		if _, added := u.seen.insert(keys.key(r)); added {
			keep = append(keep, int32(r))
		}
	}
	return selectRows(ctx, batch, keep)
}

func (u *union) Close() error {
	errs := make([]error, len(u.inputs))
	for i, in := range u.inputs {
		errs[i] = in.Close()
	}
	return errors.Join(errs...)
}
