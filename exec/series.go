package exec

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakesql/lakesql/exec/expr"
	"github.com/lakesql/lakesql/planner"
)

// series produces the integers of a planner.Series, a batch at a time, so
// that range(1e9) under a LIMIT makes only what is read.
type series struct {
	p      *planner.Series
	schema *arrow.Schema
	next   int64
	done   bool
}

func newSeries(p *planner.Series) *series {
	return &series{p: p, schema: ArrowSchema(p.Schema())}
}

func (s *series) Schema() *arrow.Schema { return s.schema }

func (s *series) Open(context.Context) error {
	s.next, s.done = s.p.Start, s.p.Empty
	return nil
}

// more reports whether v is still in the series.
func (s *series) more(v int64) bool {
	switch {
	case !s.p.Descending && s.p.Inclusive:
		return v <= s.p.Stop
	case !s.p.Descending:
		return v < s.p.Stop
	case s.p.Inclusive:
		return v >= s.p.Stop
	}
	return v > s.p.Stop
}

// step is the value after v; ok is false past the type's range.
func (s *series) step(v int64) (int64, bool) {
	if s.p.T.ID() == arrow.TIMESTAMP {
		next, o := expr.AddIntervalIn(v, s.p.Interval, s.p.Zone)
		return next, o == expr.ValueOK
	}
	next, o := expr.IntAdd(v, s.p.Step)
	return next, o == expr.ValueOK
}

func (s *series) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if s.done || !s.more(s.next) {
		return nil, nil
	}
	vals := make([]int64, 0, BatchSize)
	for len(vals) < BatchSize && s.more(s.next) {
		vals = append(vals, s.next)
		// The series ends where the next value would overflow.
		next, ok := s.step(s.next)
		if !ok {
			s.done = true
			break
		}
		s.next = next
	}
	col := expr.MakeArray(s.p.T, len(vals), nil, memory.NewBufferBytes(arrow.Int64Traits.CastToBytes(vals)))
	defer col.Release()
	return array.NewRecordBatch(s.schema, []arrow.Array{col}, int64(len(vals))), nil
}

func (s *series) Close() error { return nil }
