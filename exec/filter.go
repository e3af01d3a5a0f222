package exec

import (
	"context"
	"fmt"
	mathbits "math/bits"
	"slices"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"

	"github.com/lakesql/lakesql/exec/expr"
	"github.com/lakesql/lakesql/planner"
)

// filter keeps the rows for which a predicate is TRUE (not FALSE or NULL).
type filter struct {
	input Operator
	pred  planner.Expr
}

// NewFilter returns an operator passing on the rows of input where pred is
// TRUE. Batches where no row passes are skipped; batches where all pass are
// passed on unchanged.
func NewFilter(input Operator, pred planner.Expr) Operator {
	return &filter{input: input, pred: pred}
}

func (f *filter) Schema() *arrow.Schema { return f.input.Schema() }

func (f *filter) Open(ctx context.Context) error { return f.input.Open(ctx) }

func (f *filter) Next(ctx context.Context) (arrow.RecordBatch, error) {
	for {
		batch, err := f.input.Next(ctx)
		if err != nil || batch == nil {
			return nil, err
		}
		out, err := f.apply(ctx, batch)
		batch.Release()
		if err != nil || out != nil {
			return out, err
		}
	}
}

// run is apply as a row stage.
func (f *filter) run(ctx context.Context, batch arrow.RecordBatch, emit func(arrow.RecordBatch) error) error {
	out, err := f.apply(ctx, batch)
	return emitOne(out, err, emit)
}

// apply filters one batch; it returns nil when no row passes.
func (f *filter) apply(ctx context.Context, batch arrow.RecordBatch) (arrow.RecordBatch, error) {
	bools, bits, kept, err := evalPredicate(ctx, f.pred, batch)
	if bools != nil {
		defer bools.Release()
	}
	// Counting first spares listing the rows when the scan below already
	// dropped those that fail (storage tests the predicate's columns).
	switch {
	case err != nil || kept == 0:
		return nil, err
	case kept == int(batch.NumRows()):
		batch.Retain()
		return batch, nil
	}
	// Gathering by row number uses the typed loops of expr.Take, several
	// times faster than Arrow's filter kernel on strings and decimals. The
	// row list is scratch, reused: a fresh one per batch cost more in
	// first touches of new memory than listing the rows.
	buf := rowLists.Get().(*[]int32)
	*buf = appendSetRows((*buf)[:0], bits, bools.Len())
	out, err := gatherRows(ctx, batch, *buf)
	rowLists.Put(buf)
	return out, err
}

// evalPredicate evaluates a WHERE predicate over batch: the mask (nil when
// the predicate is the NULL literal; the caller releases it), a bitmap of
// its valid and TRUE rows and their number.
func evalPredicate(ctx context.Context, pred planner.Expr, batch arrow.RecordBatch) (mask *array.Boolean, pass []byte, kept int, err error) {
	arr, err := expr.Eval(ctx, pred, batch, allocator(ctx))
	if err != nil {
		return nil, nil, 0, fmt.Errorf("WHERE %s: %w", pred, err)
	}
	mask, ok := arr.(*array.Boolean)
	if !ok {
		t := arr.DataType()
		arr.Release()
		if t.ID() == arrow.NULL {
			return nil, nil, 0, nil
		}
		return nil, nil, 0, fmt.Errorf("WHERE %s: predicate is %s, not BOOLEAN", pred, planner.TypeString(t))
	}
	pass = trueBits(mask)
	return mask, pass, bitutil.CountSetBits(pass, 0, mask.Len()), nil
}

// rowLists holds filters' scratch row lists (*[]int32).
var rowLists = sync.Pool{New: func() any { return new([]int32) }}

// countTrue counts the rows that are valid and TRUE.
func countTrue(b *array.Boolean) int {
	return bitutil.CountSetBits(trueBits(b), 0, b.Len())
}

// appendSetRows appends to rows the set bits among the first n of bits.
func appendSetRows(rows []int32, bits []byte, n int) []int32 {
	rows = slices.Grow(rows, bitutil.CountSetBits(bits, 0, n))
	for j, byt := range bits {
		for byt != 0 {
			i := j*8 + mathbits.TrailingZeros8(byt)
			if i >= n {
				break
			}
			rows = append(rows, int32(i))
			byt &= byt - 1
		}
	}
	return rows
}

// trueBits is a bitmap, from bit 0, of the rows of b that are valid and
// TRUE; bits past b.Len() in its last byte are undefined.
func trueBits(b *array.Boolean) []byte {
	d := b.Data()
	bits := expr.AlignedBits(d.Buffers()[1].Bytes(), d.Offset(), d.Len())
	if b.NullN() == 0 {
		return bits
	}
	valid := expr.AlignedBits(d.Buffers()[0].Bytes(), d.Offset(), d.Len())
	both := make([]byte, len(bits))
	for j := range both {
		both[j] = valid[j] & bits[j]
	}
	return both
}

func (f *filter) source() Operator { return f.input }

func (f *filter) pending() bool { return false }

func (f *filter) fork() rowStage { return f }

func (f *filter) concurrent() bool { return !planner.HasSubquery(f.pred) }

func (f *filter) Close() error { return f.input.Close() }
