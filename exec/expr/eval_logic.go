package expr

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakesql/lakesql/planner"
)

// logic evaluates AND / OR over two or more BOOLEAN arguments.
func (ev *evaluator) logic(c *planner.Call) (arrow.Array, error) {
	if len(c.Args) < 2 {
		return nil, fmt.Errorf("%s: needs at least two arguments", c)
	}
	ops, err := ev.operands(c.Args)
	if err != nil {
		return nil, err
	}
	defer releaseOperands(ops)
	return ev.logicFold(c.Fn == planner.FnAnd, ops), nil
}

// logicFold combines BOOLEAN operands with three-valued AND (and=true) or OR,
// a byte of eight rows at a time:
//
//	AND is FALSE if any side is FALSE, TRUE if both are TRUE, else NULL;
//	OR  is TRUE if any side is TRUE, FALSE if both are FALSE, else NULL.
func (ev *evaluator) logicFold(and bool, ops []operand) arrow.Array {
	validBuf, dataBuf := ev.newBitmap(), ev.newBitmap()
	valid, data := validBuf.Bytes(), dataBuf.Bytes()
	v0, d0 := ev.boolBits(ops[0])
	copy(data, d0)
	for j := range valid {
		valid[j] = byteAt(v0, j)
	}
	for _, o := range ops[1:] {
		ov, od := ev.boolBits(o)
		for j := range data {
			v1, d1, v2, d2 := valid[j], data[j], byteAt(ov, j), od[j]
			if and {
				data[j] = d1 & d2
				valid[j] = (v1 & v2) | (v1 &^ d1) | (v2 &^ d2)
			} else {
				data[j] = (d1 & v1) | (d2 & v2)
				valid[j] = (v1 & v2) | (v1 & d1) | (v2 & d2)
			}
		}
	}
	return MakeArray(planner.TypeBoolean, ev.n, validBuf, dataBuf)
}

// not negates a BOOLEAN; NOT NULL is NULL.
func (ev *evaluator) not(a operand) (arrow.Array, error) {
	if a.isNullLiteral() {
		return ev.allNull(planner.TypeBoolean), nil
	}
	_, d := ev.boolBits(a)
	out := ev.newBitmap()
	for j, b := range d {
		out.Bytes()[j] = ^b
	}
	return MakeArray(planner.TypeBoolean, ev.n, ev.validity(a), out), nil
}

// isNull evaluates IS NULL (null=true) or IS NOT NULL; never NULL.
func (ev *evaluator) isNull(null bool, a operand) (arrow.Array, error) {
	return ev.boolFromBits(ev.validBits(a), func(valid, _ byte) byte {
		if null {
			return ^valid
		}
		return valid
	}, nil), nil
}

// isBool evaluates IS TRUE (want=true) or IS FALSE; never NULL.
func (ev *evaluator) isBool(want bool, a operand) (arrow.Array, error) {
	var data []byte
	if !a.isNullLiteral() {
		_, data = ev.boolBits(a)
	}
	return ev.boolFromBits(ev.validBits(a), func(valid, d byte) byte {
		if want {
			return valid & d
		}
		return valid &^ d
	}, data), nil
}

// boolFromBits builds a BOOLEAN array without NULLs whose bytes are
// f(valid byte, data byte); nil bitmaps read as all ones and all zeros.
func (ev *evaluator) boolFromBits(valid []byte, f func(valid, data byte) byte, data []byte) arrow.Array {
	out := ev.newBitmap()
	for j := range out.Bytes() {
		var d byte
		if data != nil {
			d = data[j]
		}
		out.Bytes()[j] = f(byteAt(valid, j), d)
	}
	return MakeArray(planner.TypeBoolean, ev.n, nil, out)
}

// nullIf evaluates NULLIF(a, b): a, except NULL where a = b.
func (ev *evaluator) nullIf(a, b operand) (arrow.Array, error) {
	if a.isNullLiteral() || b.isNullLiteral() {
		return ev.materialize(a)
	}
	eq, err := ev.compareBits(planner.FnEq, a, b)
	if err != nil {
		return nil, err
	}
	defer eq.Release()
	keep := make([]byte, len(eq.Bytes()))
	va, vb := ev.validBits(a), ev.validBits(b)
	for j, e := range eq.Bytes() {
		keep[j] = byteAt(va, j) &^ (byteAt(vb, j) & e)
	}
	arr, err := ev.materialize(a)
	if err != nil {
		return nil, err
	}
	defer arr.Release()
	return ev.withValidity(arr, keep), nil
}

// withValidity returns arr with its validity replaced by valid (n bits from
// bit 0), sharing arr's value buffers.
func (ev *evaluator) withValidity(arr arrow.Array, valid []byte) arrow.Array {
	return WithValidity(ev.mem, arr, valid)
}

// WithValidity returns arr with its validity replaced by valid (arr.Len()
// bits from bit 0), sharing arr's value buffers (and dictionary).
func WithValidity(mem memory.Allocator, arr arrow.Array, valid []byte) arrow.Array {
	d := arr.Data()
	n, off := d.Len(), d.Offset()
	bm := NewBuffer(mem, int(bitutil.BytesForBits(int64(off+n))))
	defer bm.Release()
	bitutil.CopyBitmap(valid, 0, n, bm.Bytes(), off)
	data := array.NewData(d.DataType(), n, append(
		[]*memory.Buffer{bm}, d.Buffers()[1:]...), d.Children(), array.UnknownNullCount, off)
	defer data.Release()
	if dict := d.Dictionary(); dict != nil {
		data.SetDictionary(dict)
	}
	return array.MakeFromData(data)
}
