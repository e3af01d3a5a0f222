package exec

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
)

// distinct passes on the first occurrence of every distinct row. It streams:
// a row is emitted as soon as it is first seen, so only the distinct rows'
// keys are held in memory, and a LIMIT above stops it early. When those
// keys fill memory, the rest of the input spills (distinct_spill.go).
type distinct struct {
	input Operator
	seen  *groupTable
	gids  []int32
	// spill takes over when memory runs short (distinct_spill.go).
	spill distinctSpill
}

// NewDistinct returns an operator removing duplicate rows of input (NULLs
// equal each other).
func NewDistinct(input Operator) Operator {
	return &distinct{input: input}
}

func (d *distinct) Schema() *arrow.Schema { return d.input.Schema() }

func (d *distinct) Open(ctx context.Context) error {
	types := make([]arrow.DataType, d.input.Schema().NumFields())
	for i, f := range d.input.Schema().Fields() {
		types[i] = f.Type
	}
	seen, err := newGroupTable(types)
	if err != nil {
		return fmt.Errorf("DISTINCT: %w", err)
	}
	d.seen = seen
	d.spill.release()
	return d.input.Open(ctx)
}

func (d *distinct) Next(ctx context.Context) (arrow.RecordBatch, error) {
	for {
		if d.spill.draining() {
			return d.spill.next(ctx)
		}
		batch, err := d.input.Next(ctx)
		if err != nil {
			return nil, err
		}
		if batch == nil {
			if err := d.spill.finish(ctx); err != nil || !d.spill.draining() {
				return nil, err
			}
			continue
		}
		var out arrow.RecordBatch
		if d.spill.closed != nil {
			err = d.spill.add(ctx, batch)
		} else if out, err = d.firstOccurrences(ctx, batch); err == nil {
			err = d.spill.closeIfFull(ctx, d)
		}
		batch.Release()
		if err != nil {
			if out != nil {
				out.Release()
			}
			return nil, err
		}
		if out != nil {
			return out, nil
		}
	}
}

// firstOccurrences returns the rows of batch not seen before, or nil if none.
func (d *distinct) firstOccurrences(ctx context.Context, batch arrow.RecordBatch) (arrow.RecordBatch, error) {
	if batch.NumCols() == 0 || batch.NumRows() == 0 {
		return nil, nil
	}
	before := d.seen.len()
	d.gids = d.seen.insert(batch.Columns(), d.gids)
	// New groups are numbered in order of their first row.
	var rows []int32
	next := int32(before)
	for i, g := range d.gids {
		if g == next {
			rows = append(rows, int32(i))
			next++
		}
	}
	switch len(rows) {
	case 0:
		return nil, nil
	case int(batch.NumRows()):
		batch.Retain()
		return batch, nil
	}
	return gatherRows(WithAllocator(ctx, allocator(ctx)), batch, rows)
}

func (d *distinct) Close() error {
	d.spill.release()
	return d.input.Close()
}
