package exec

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakesql/lakesql/planner"
)

// DISTINCT is a grouping without aggregates, and spills as GROUP BY does
// (hash_aggregate_spill.go), through the same aggregation states: when
// memory runs short, the rows seen so far become a closed state over every
// column. Rows of keys it holds were emitted already and are dropped;
// rows of new keys are written to hash partitions. After the input, each
// partition is deduplicated on its own (spilling again into the next hash
// bits if it does not fit) and its distinct rows are emitted; the closed
// state's rows, emitted as they came, are not emitted again.
type distinctSpill struct {
	closed  *aggState         // the rows seen before memory ran short; nil until then
	spilled *spilled          // the partitions still to deduplicate, after the input
	out     arrow.RecordBatch // one partition's rows, emitted in BatchSize slices
	pos     int64
}

// closeIfFull closes d's seen rows into a GROUP BY state over every column
// once memory is short.
func (s *distinctSpill) closeIfFull(ctx context.Context, d *distinct) error {
	if d.seen.len() < minGroupsBeforeClosing || !memoryPressure(ctx) {
		return nil
	}
	fields := d.input.Schema().Fields()
	shape := &hashAggregate{schema: d.input.Schema(), what: "DISTINCT"}
	for i, f := range fields {
		shape.groupBy = append(shape.groupBy, &planner.ColumnRef{Index: i, Name: f.Name, T: f.Type})
	}
	s.closed = &aggState{h: shape, keys: d.seen, groups: d.seen.len()}
	s.closed.spill = &aggSpill{schema: shape.spillSchema(), what: shape.name()}
	d.seen = nil
	return nil
}

// add drops the rows of batch the closed state holds and spills the others.
func (s *distinctSpill) add(ctx context.Context, batch arrow.RecordBatch) error {
	return s.closed.addClosed(ctx, batch, allocator(ctx))
}

// finish starts deduplicating the spilled partitions, if any.
func (s *distinctSpill) finish(ctx context.Context) error {
	if s.closed == nil {
		return nil
	}
	sp, err := s.closed.h.startSpilled(ctx, []*aggState{s.closed}, allocator(ctx))
	if err != nil {
		return err
	}
	sp.main = nil // its rows were emitted as they came
	s.spilled, s.closed = sp, nil
	return nil
}

// draining reports whether the input is done and spilled rows remain.
func (s *distinctSpill) draining() bool { return s.spilled != nil }

// next returns the next slice of a deduplicated partition; nil at the end.
func (s *distinctSpill) next(ctx context.Context) (arrow.RecordBatch, error) {
	for {
		if s.out != nil && s.pos < s.out.NumRows() {
			end := min(s.pos+BatchSize, s.out.NumRows())
			batch := s.out.NewSlice(s.pos, end)
			s.pos = end
			return batch, nil
		}
		if s.out != nil {
			s.out.Release()
			s.out, s.pos = nil, 0
		}
		out, err := s.spilled.next(ctx, allocator(ctx))
		if err != nil || out == nil {
			return nil, err
		}
		s.out = out
	}
}

// release drops the spill's files and rows.
func (s *distinctSpill) release() {
	if s.out != nil {
		s.out.Release()
	}
	if s.closed != nil {
		s.closed.spill.close()
	}
	if s.spilled != nil {
		s.spilled.close()
	}
	*s = distinctSpill{}
}
