package exec

import (
	"context"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/lakesql/lakesql/planner"
)

// limit passes on rows offset … offset+limit-1 of its input.
type limit struct {
	input        Operator
	skip, remain int64
	inputClosed  bool
}

// NewLimit returns an operator that skips offset rows of input and then
// passes on at most limitRows rows (all of them when limitRows < 0, as for
// OFFSET without LIMIT). Once it has them it closes its input, so upstream
// work (scans) stops early.
func NewLimit(input Operator, limitRows, offset int64) Operator {
	if limitRows < 0 {
		limitRows = math.MaxInt64
	}
	return &limit{input: input, skip: offset, remain: limitRows}
}

func (l *limit) Schema() *arrow.Schema { return l.input.Schema() }

func (l *limit) Open(ctx context.Context) error { return l.input.Open(ctx) }

func (l *limit) Next(ctx context.Context) (arrow.RecordBatch, error) {
	for l.remain > 0 {
		batch, err := l.input.Next(ctx)
		if err != nil || batch == nil {
			return nil, err
		}
		n := batch.NumRows()
		if l.skip >= n {
			l.skip -= n
			batch.Release()
			continue
		}
		end := min(n, planner.RowsThrough(l.remain, l.skip))
		out := batch
		if l.skip > 0 || end < n {
			out = batch.NewSlice(l.skip, end)
			batch.Release()
		}
		l.remain -= end - l.skip
		l.skip = 0
		return out, nil
	}
	return nil, l.closeInput()
}

// closeInput closes the input once, as soon as no more rows are needed.
func (l *limit) closeInput() error {
	if l.inputClosed {
		return nil
	}
	l.inputClosed = true
	return l.input.Close()
}

func (l *limit) Close() error { return l.closeInput() }
