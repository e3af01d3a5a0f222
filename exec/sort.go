package exec

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakesql/lakesql/planner"
)

// sortOp materializes its input, sorts a permutation of the rows with typed
// comparators and emits the rows in that order, BatchSize at a time.
type sortOp struct {
	input Operator
	keys  []planner.SortKey

	all     arrow.RecordBatch // the whole input; nil until sorted
	perm    []int32
	emitted int
}

// NewSort returns an operator producing the rows of input ordered by keys;
// rows with equal keys keep their input order.
func NewSort(input Operator, keys []planner.SortKey) Operator {
	return &sortOp{input: input, keys: keys}
}

func (s *sortOp) Schema() *arrow.Schema { return s.input.Schema() }

func (s *sortOp) Open(ctx context.Context) error {
	s.release()
	return s.input.Open(ctx)
}

func (s *sortOp) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if s.all == nil {
		if err := s.sort(ctx); err != nil {
			return nil, err
		}
	}
	if s.emitted >= len(s.perm) {
		return nil, nil
	}
	end := min(s.emitted+BatchSize, len(s.perm))
	out, err := gatherRows(WithAllocator(ctx, allocator(ctx)), s.all, s.perm[s.emitted:end])
	s.emitted = end
	return out, err
}

// sort reads the whole input and computes the sorted permutation.
func (s *sortOp) sort(ctx context.Context) error {
	mem := allocator(ctx)
	var batches []arrow.RecordBatch
	defer func() { releaseBatches(batches) }()
	for {
		b, err := s.input.Next(ctx)
		if err != nil {
			return err
		}
		if b == nil {
			break
		}
		batches = append(batches, b)
	}
	all, err := concatBatches(mem, s.input.Schema(), batches)
	if err != nil {
		return err
	}
	s.all = all
	s.perm, err = sortedRows(ctx, s.keys, all, mem)
	return err
}

func (s *sortOp) release() {
	if s.all != nil {
		s.all.Release()
		s.all = nil
	}
	s.perm, s.emitted = nil, 0
}

func (s *sortOp) Close() error {
	s.release()
	return s.input.Close()
}
