package expr

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	computeexec "github.com/apache/arrow-go/v18/arrow/compute/exec"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/arrow/scalar"

	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/storage"
)

// Eval evaluates the bound expression e over every row of batch and returns an
// array of batch.NumRows() values. The caller releases the result. Arrays
// allocated by Eval come from mem.
func Eval(ctx context.Context, e planner.Expr, batch arrow.RecordBatch, mem memory.Allocator) (arrow.Array, error) {
	out, err := newEvaluator(ctx, batch, mem).eval(e)
	return out, asEvalError(err)
}

func newEvaluator(ctx context.Context, batch arrow.RecordBatch, mem memory.Allocator) *evaluator {
	return &evaluator{
		ctx:   computeexec.WithAllocator(ctx, mem),
		batch: batch,
		mem:   mem,
		n:     int(batch.NumRows()),
	}
}

// BatchEvaluator evaluates several expressions over one batch, computing a
// subexpression they share once: TPC-H Q1 sums l_extendedprice * (1 -
// l_discount) and that times (1 + l_tax). Release frees the shared values.
type BatchEvaluator struct{ ev *evaluator }

// NewBatchEvaluator returns an evaluator over batch; arrays come from mem.
func NewBatchEvaluator(ctx context.Context, batch arrow.RecordBatch, mem memory.Allocator) *BatchEvaluator {
	ev := newEvaluator(ctx, batch, mem)
	ev.memo = map[string]arrow.Array{}
	ev.int64Bounds = map[arrow.Array]uint64{}
	return &BatchEvaluator{ev: ev}
}

// Eval evaluates e as Eval does; the caller releases the result. Large
// expressions are evaluated without sharing: their subexpressions' texts,
// the memo's keys, would cost more than they save.
func (b *BatchEvaluator) Eval(e planner.Expr) (arrow.Array, error) {
	ev := b.ev
	if exprSize(e) > maxSharedSize {
		ev = newEvaluator(ev.ctx, ev.batch, ev.mem)
	}
	out, err := ev.eval(e)
	return out, asEvalError(err)
}

func exprSize(e planner.Expr) int {
	n := 0
	planner.Walk(e, func(planner.Expr) { n++ })
	return n
}

// maxSharedSize is the most nodes an expression may have for its
// subexpressions to be shared.
const maxSharedSize = 64

// Release frees the subexpression values kept for sharing.
func (b *BatchEvaluator) Release() {
	for _, a := range b.ev.memo {
		a.Release()
	}
	clear(b.ev.memo)
}

// External is an expression the executor prepares and computes itself —
// a subquery, which it runs once — and the evaluator asks for its values.
type External interface {
	planner.Expr
	EvalBatch(ctx context.Context, batch arrow.RecordBatch, mem memory.Allocator) (arrow.Array, error)
}

// evaluator evaluates expressions over one batch.
type evaluator struct {
	ctx   context.Context // carries mem for arrow compute kernels
	batch arrow.RecordBatch
	mem   memory.Allocator
	n     int
	// memo, when set, holds the values of the calls and casts evaluated so
	// far over batch, by their text and type (BatchEvaluator).
	memo map[string]arrow.Array
	// int64Bounds, kept beside memo, holds the largest magnitude of the
	// DECIMAL arrays seen so far whose values all fit in 64 bits
	// (eval_decimal64.go).
	int64Bounds map[arrow.Array]uint64
}

func (ev *evaluator) eval(e planner.Expr) (arrow.Array, error) {
	if err := ev.ctx.Err(); err != nil {
		return nil, err
	}
	if ev.memo == nil {
		return ev.evalNode(e)
	}
	switch e.(type) {
	case *planner.Call, *planner.Cast:
		if planner.IsVolatile(e) {
			return ev.evalNode(e)
		}
		key := memoKey(e)
		if a, ok := ev.memo[key]; ok {
			a.Retain()
			return a, nil
		}
		a, err := ev.evalNode(e)
		if err == nil {
			a.Retain()
			ev.memo[key] = a
		}
		return a, err
	}
	return ev.evalNode(e)
}

// memoKey tells apart the expressions evaluated over one batch: their text
// and what it leaves out — their type, the column each column reference
// reads (the two sides of a join may have columns of one name), the type
// of each literal (-1 as INT and as TINYINT print alike) and which
// subquery each subquery is (they all print as <subquery>).
func memoKey(e planner.Expr) string {
	var b strings.Builder
	b.WriteString(e.String())
	b.WriteByte(0)
	b.WriteString(e.Type().String())
	planner.Walk(e, func(x planner.Expr) {
		switch x := x.(type) {
		case *planner.ColumnRef:
			b.WriteString("\x00#")
			b.WriteString(strconv.Itoa(x.Index))
		case *planner.Literal:
			b.WriteString("\x00")
			b.WriteString(x.T.String())
		case *planner.Subquery, External:
			fmt.Fprintf(&b, "\x00%p", x)
		}
	})
	return b.String()
}

// evalNode evaluates e itself, its operands through eval.
func (ev *evaluator) evalNode(e planner.Expr) (arrow.Array, error) {
	switch e := e.(type) {
	case *planner.ColumnRef:
		if e.Index < 0 || e.Index >= int(ev.batch.NumCols()) {
			return nil, fmt.Errorf("column %s: index %d out of range for a batch of %d columns", e.Name, e.Index, ev.batch.NumCols())
		}
		col := ev.batch.Column(e.Index)
		col.Retain()
		return col, nil
	case *planner.Literal:
		return ev.constant(e)
	case *planner.Call:
		return ev.call(e)
	case *planner.Cast:
		return ev.cast(e)
	case *planner.Case:
		return ev.caseWhen(e)
	case External:
		return e.EvalBatch(ev.ctx, ev.batch, ev.mem)
	case *planner.OuterRef:
		return nil, e.Unsupported()
	}
	return nil, fmt.Errorf("cannot evaluate expression %s of type %T", e, e)
}

// constant materializes a literal as an array of n equal values.
func (ev *evaluator) constant(l *planner.Literal) (arrow.Array, error) {
	if l.Value == nil {
		return NullArray(ev.mem, l.T, ev.n), nil
	}
	sc, err := LiteralScalar(l)
	if err != nil {
		return nil, err
	}
	ext, isExt := sc.(*scalar.Extension)
	if isExt {
		// Arrow repeats only plain scalars: repeat the storage value (UUID's
		// 16 bytes) and wrap it.
		sc = ext.Value
	}
	arr, err := scalar.MakeArrayFromScalar(sc, ev.n, ev.mem)
	if err != nil {
		return nil, fmt.Errorf("literal %s: %w", l, err)
	}
	if isExt {
		defer arr.Release()
		return array.NewExtensionArrayWithStorage(ext.Type.(arrow.ExtensionType), arr), nil
	}
	return arr, nil
}

// literalScalar converts a non-NULL literal to an arrow scalar.
func LiteralScalar(l *planner.Literal) (scalar.Scalar, error) {
	if ext, ok := l.T.(arrow.ExtensionType); ok {
		storage, err := LiteralScalar(&planner.Literal{Value: l.Value, T: ext.StorageType()})
		if err != nil {
			return nil, err
		}
		return scalar.NewExtensionScalar(storage, ext), nil
	}
	var sc scalar.Scalar
	switch v := l.Value.(type) {
	case int32:
		switch l.T.ID() {
		case arrow.DATE32:
			sc = scalar.NewDate32Scalar(arrow.Date32(v))
		default:
			sc = scalar.NewInt32Scalar(v)
		}
	case int64:
		switch t := l.T.(type) {
		case *arrow.TimestampType:
			sc = scalar.NewTimestampScalar(arrow.Timestamp(v), t)
		case *arrow.Time64Type:
			sc = scalar.NewTime64Scalar(arrow.Time64(v), t)
		default:
			sc = scalar.NewInt64Scalar(v)
		}
	default:
		var err error
		if sc, err = scalar.MakeScalarParam(l.Value, l.T); err != nil {
			return nil, fmt.Errorf("literal %s: %w", l, err)
		}
	}
	if !arrow.TypeEqual(sc.DataType(), l.T) {
		return nil, fmt.Errorf("literal %s: Go value %T does not match type %s", l, l.Value, planner.TypeString(l.T))
	}
	return sc, nil
}

// operand is an evaluated argument: an array of n values, or a literal kept
// as a single value so that kernels can treat `column <op> constant` without
// materializing the constant.
type operand struct {
	arr arrow.Array      // nil for a literal
	lit *planner.Literal // non-nil for a literal
	t   arrow.DataType   // the operand's type
}

func (o operand) isNullLiteral() bool { return o.lit != nil && o.lit.Value == nil }

func (o operand) release() {
	if o.arr != nil {
		o.arr.Release()
	}
}

// operand evaluates e, keeping a literal unmaterialized.
func (ev *evaluator) operand(e planner.Expr) (operand, error) {
	if l, ok := e.(*planner.Literal); ok {
		return operand{lit: l, t: l.T}, nil
	}
	arr, err := ev.eval(e)
	if err != nil {
		return operand{}, err
	}
	return operand{arr: arr, t: e.Type()}, nil
}

// operands evaluates all args; on error it releases what it evaluated.
func (ev *evaluator) operands(args []planner.Expr) ([]operand, error) {
	ops := make([]operand, 0, len(args))
	for _, a := range args {
		op, err := ev.operand(a)
		if err != nil {
			releaseOperands(ops)
			return nil, err
		}
		ops = append(ops, op)
	}
	return ops, nil
}

func releaseOperands(ops []operand) {
	for _, o := range ops {
		o.release()
	}
}

// materialize returns o as an array of n values; the caller releases it.
func (ev *evaluator) materialize(o operand) (arrow.Array, error) {
	if o.arr != nil {
		o.arr.Retain()
		return o.arr, nil
	}
	return ev.constant(o.lit)
}

// validity returns the AND of the operands' validity bitmaps as a new buffer
// of n bits at offset 0, or nil when no operand has NULLs. Operands must not
// be NULL literals (strict functions handle those up front).
func (ev *evaluator) validity(ops ...operand) *memory.Buffer {
	var out *memory.Buffer
	for _, o := range ops {
		if o.arr == nil || o.arr.NullN() == 0 {
			continue
		}
		bm, off := o.arr.NullBitmapBytes(), int64(o.arr.Data().Offset())
		if out == nil {
			out = ev.newBitmap()
			bitutil.CopyBitmap(bm, int(off), ev.n, out.Bytes(), 0)
			continue
		}
		bitutil.BitmapAnd(out.Bytes(), bm, 0, off, out.Bytes(), 0, int64(ev.n))
	}
	return out
}

// newBitmap allocates a zeroed bitmap of n bits.
func (ev *evaluator) newBitmap() *memory.Buffer {
	return NewBuffer(ev.mem, int(bitutil.BytesForBits(int64(ev.n))))
}

// newBuffer allocates a zeroed buffer of size bytes.
func NewBuffer(mem memory.Allocator, size int) *memory.Buffer {
	buf := memory.NewResizableBuffer(mem)
	buf.Resize(size)
	if !storage.AllocatesZeroed(mem) {
		clear(buf.Bytes())
	}
	return buf
}

// makeArray wraps buffers into an array of type t and length n and releases
// the caller's references to them; validity may be nil (no NULLs).
func MakeArray(t arrow.DataType, n int, validity *memory.Buffer, buffers ...*memory.Buffer) arrow.Array {
	nulls := 0
	if validity != nil {
		nulls = array.UnknownNullCount
	}
	data := array.NewData(t, n, append([]*memory.Buffer{validity}, buffers...), nil, nulls, 0)
	defer data.Release()
	for _, b := range append(buffers, validity) {
		if b != nil {
			b.Release()
		}
	}
	return array.MakeFromData(data)
}

// allNull returns an array of n NULLs of type t.
func (ev *evaluator) allNull(t arrow.DataType) arrow.Array {
	return NullArray(ev.mem, t, ev.n)
}

// extensionStorage unwraps extension arrays (such as UUID) to their storage
// array, which is what kernels compute on.
func ExtensionStorage(arr arrow.Array) arrow.Array {
	if ext, ok := arr.(array.ExtensionArray); ok {
		return ext.Storage()
	}
	return arr
}

// storageTypeOf unwraps extension types to their storage type.
func StorageTypeOf(t arrow.DataType) arrow.DataType {
	if ext, ok := t.(arrow.ExtensionType); ok {
		return ext.StorageType()
	}
	return t
}
