package exec

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakesql/lakesql/planner"
)

// sortOp materializes its input, sorts a permutation of the rows with typed
// comparators and emits the rows in that order, BatchSize at a time. An
// input larger than its share of the memory limit is sorted in runs on disk
// and merged (sort_merge.go).
type sortOp struct {
	input Operator
	keys  []planner.SortKey

	all     arrow.RecordBatch // the whole input; nil until sorted
	perm    []int32
	emitted int
	merge   *runMerge // set instead of all when the input was spilled
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
	if s.all == nil && s.merge == nil {
		if err := s.sort(ctx); err != nil {
			return nil, err
		}
	}
	if s.merge != nil {
		return s.merge.next(ctx)
	}
	if s.emitted >= len(s.perm) {
		return nil, nil
	}
	end := min(s.emitted+BatchSize, len(s.perm))
	out, err := gatherRows(WithAllocator(ctx, allocator(ctx)), s.all, s.perm[s.emitted:end])
	s.emitted = end
	return out, err
}

// sort reads the whole input and computes the sorted permutation, or
// writes it in sorted runs and starts merging them.
func (s *sortOp) sort(ctx context.Context) error {
	var batches []arrow.RecordBatch
	defer func() { releaseBatches(batches) }()
	var runs []*spillFile
	defer func() {
		if s.merge == nil {
			for _, r := range runs {
				r.close()
			}
		}
	}()
	threshold, held := spillThreshold(ctx), int64(0)
	// spill writes the batches held as one more sorted run.
	spill := func() error {
		run, err := s.spillRun(ctx, batches)
		if err != nil {
			return err
		}
		runs = append(runs, run)
		releaseBatches(batches)
		batches, held = nil, 0
		return nil
	}
	for {
		b, err := s.input.Next(ctx)
		if err != nil {
			return err
		}
		if b == nil {
			break
		}
		batches = append(batches, b)
		if held += batchBytes(b); threshold > 0 && held > threshold {
			if err := spill(); err != nil {
				return err
			}
		}
	}
	if len(runs) > 0 {
		if len(batches) > 0 {
			if err := spill(); err != nil {
				return err
			}
		}
		m, err := newRunMerge(ctx, s.keys, runs)
		s.merge = m
		return err
	}
	var err error
	s.all, s.perm, err = s.sorted(ctx, batches)
	return err
}

// sorted concatenates batches and sorts a permutation of the rows.
func (s *sortOp) sorted(ctx context.Context, batches []arrow.RecordBatch) (arrow.RecordBatch, []int32, error) {
	mem := allocator(ctx)
	all, err := concatBatches(mem, s.input.Schema(), batches)
	if err != nil {
		return nil, nil, err
	}
	perm, err := sortedRows(ctx, s.keys, all, mem)
	if err != nil {
		all.Release()
		return nil, nil, err
	}
	return all, perm, nil
}

// spillRun sorts batches and writes them to a spill file.
func (s *sortOp) spillRun(ctx context.Context, batches []arrow.RecordBatch) (*spillFile, error) {
	mem := allocator(ctx)
	all, perm, err := s.sorted(ctx, batches)
	if err != nil {
		return nil, err
	}
	defer all.Release()
	f, err := newSpillFile(all.Schema(), mem, "ORDER BY")
	if err != nil {
		return nil, err
	}
	for start := 0; start < len(perm); start += BatchSize {
		out, err := gatherRows(WithAllocator(ctx, mem), all, perm[start:min(start+BatchSize, len(perm))])
		if err == nil {
			err = f.write(out)
			out.Release()
		}
		if err != nil {
			f.close()
			return nil, err
		}
	}
	return f, nil
}

func (s *sortOp) release() {
	if s.all != nil {
		s.all.Release()
		s.all = nil
	}
	if s.merge != nil {
		s.merge.close()
		s.merge = nil
	}
	s.perm, s.emitted = nil, 0
}

func (s *sortOp) Close() error {
	s.release()
	return s.input.Close()
}
