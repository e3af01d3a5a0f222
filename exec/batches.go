package exec

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
)

// batches replays record batches held in memory.
type batches struct {
	schema  *arrow.Schema
	batches []arrow.RecordBatch
	next    int
}

// NewBatches returns an operator producing the given batches in order. It
// retains them until Close; each Next returns a new reference.
func NewBatches(schema *arrow.Schema, recs []arrow.RecordBatch) Operator {
	for _, b := range recs {
		b.Retain()
	}
	return &batches{schema: schema, batches: recs}
}

func (b *batches) Schema() *arrow.Schema { return b.schema }

func (b *batches) Open(context.Context) error {
	b.next = 0
	return nil
}

func (b *batches) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if b.next >= len(b.batches) {
		return nil, nil
	}
	batch := b.batches[b.next]
	b.next++
	batch.Retain()
	return batch, nil
}

func (b *batches) Close() error {
	for _, batch := range b.batches {
		batch.Release()
	}
	b.batches = nil
	return nil
}
