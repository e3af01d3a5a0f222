package expr

import (
	"fmt"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakesql/lakesql/planner"
)

// lambdaCall evaluates list_transform, list_filter, exists or forall: the
// lambda's body runs once over all the elements of the batch's lists, as one batch whose
// rows are the elements (with their index and the enclosing row's values
// the body reads, repeated for each element of the row's list).
func (ev *evaluator) lambdaCall(c *planner.Call) (arrow.Array, error) {
	lambda, list, err := ev.lambdaList(c)
	if err != nil || list == nil {
		return ev.nullUnlessErr(c.T, err)
	}
	defer list.Release()
	// The elements of the non-NULL lists, the row each belongs to, its
	// index, and where each row's elements start among them.
	total := 0
	if ev.n > 0 {
		first, _ := list.ValueOffsets(0)
		_, last := list.ValueOffsets(ev.n - 1)
		total = int(last - first)
	}
	elems, parents, index := make([]int32, 0, total), make([]int32, 0, total), make([]int64, 0, total)
	starts := make([]int32, ev.n+1)
	validity := ev.newBitmap()
	for r := range ev.n {
		starts[r] = int32(len(elems))
		if list.IsNull(r) {
			continue
		}
		bitutil.SetBit(validity.Bytes(), r)
		start, end := list.ValueOffsets(r)
		for j := start; j < end; j++ {
			elems = append(elems, int32(j))
			parents = append(parents, int32(r))
			index = append(index, j-start+lambda.IndexBase)
		}
	}
	starts[ev.n] = int32(len(elems))
	values, err := Take(ev.ctx, ev.mem, list.ListValues(), elems)
	if err != nil {
		validity.Release()
		return nil, err
	}
	defer values.Release()
	body, err := ev.lambdaBody(c, lambda, values, parents, index)
	if err != nil {
		validity.Release()
		return nil, err
	}
	defer body.Release()
	switch c.Fn {
	case planner.FnListFilter:
		return ev.keepTrue(c.T, validity, starts, values, body.(*array.Boolean))
	case planner.FnListExists, planner.FnListForall:
		return ev.quantify(c.Fn == planner.FnListExists, validity, starts, body.(*array.Boolean)), nil
	}
	offsets := NewBuffer(ev.mem, (ev.n+1)*arrow.Int32SizeBytes)
	copy(arrow.Int32Traits.CastFromBytes(offsets.Bytes()), starts)
	return nestedArray(c.T, ev.n, validity, offsets, body.Data()), nil
}

// lambdaList returns the lambda of c, a lambda function, and the list it
// applies to; the list is nil for a NULL constant, whose result is NULL.
func (ev *evaluator) lambdaList(c *planner.Call) (*planner.Lambda, *array.List, error) {
	lambda := c.Args[len(c.Args)-1].(*planner.Lambda)
	arr, err := ev.eval(c.Args[0])
	if err != nil {
		return nil, nil, err
	}
	list, ok := arr.(*array.List)
	if !ok {
		arr.Release()
		return lambda, nil, nil
	}
	return lambda, list, nil
}

// nullUnlessErr is err, or a column of NULLs of type t without one.
func (ev *evaluator) nullUnlessErr(t arrow.DataType, err error) (arrow.Array, error) {
	if err != nil {
		return nil, err
	}
	return NullArray(ev.mem, t, ev.n), nil
}

// lambdaBody evaluates the lambda's body over the elements values, of rows
// parents at positions index.
func (ev *evaluator) lambdaBody(c *planner.Call, lambda *planner.Lambda, values arrow.Array, parents []int32, index []int64) (arrow.Array, error) {
	cols := []arrow.Array{values}
	defer func() {
		for _, col := range cols[1:] {
			col.Release()
		}
	}()
	if len(lambda.Params) > 1 {
		cols = append(cols, array.NewInt64Data(array.NewData(arrow.PrimitiveTypes.Int64, len(index),
			[]*memory.Buffer{nil, memory.NewBufferBytes(arrow.Int64Traits.CastToBytes(index))}, nil, 0, 0)))
	}
	for _, outer := range c.Args[1 : len(c.Args)-1] {
		v, err := ev.eval(outer)
		if err != nil {
			return nil, err
		}
		repeated, err := Take(ev.ctx, ev.mem, v, parents)
		v.Release()
		if err != nil {
			return nil, err
		}
		cols = append(cols, repeated)
	}
	return evalOver(ev, lambda.Body, cols)
}

// evalOver evaluates a lambda's body over its rows, whose columns are cols.
func evalOver(ev *evaluator, body planner.Expr, cols []arrow.Array) (arrow.Array, error) {
	fields := make([]arrow.Field, len(cols))
	for i, col := range cols {
		fields[i] = arrow.Field{Name: "c" + strconv.Itoa(i), Type: col.DataType(), Nullable: true}
	}
	batch := array.NewRecordBatch(arrow.NewSchema(fields, nil), cols, int64(cols[0].Len()))
	defer batch.Release()
	return newEvaluator(ev.ctx, batch, ev.mem).eval(body)
}

// quantify is exists or forall over each row's conditions
// from starts[r] to starts[r+1], with three-valued logic: the deciding
// value (TRUE for exists, FALSE for forall) wins, else a NULL makes the
// row NULL, else the other value. validity marks the rows with a list.
func (ev *evaluator) quantify(exists bool, validity *memory.Buffer, starts []int32, conds *array.Boolean) arrow.Array {
	values := ev.newBitmap()
	for r := range ev.n {
		if !bitutil.BitIsSet(validity.Bytes(), r) {
			continue
		}
		decided, unknown := false, false
		for j := starts[r]; j < starts[r+1] && !decided; j++ {
			switch {
			case conds.IsNull(int(j)):
				unknown = true
			case conds.Value(int(j)) == exists:
				decided = true
			}
		}
		switch {
		case decided:
			bitutil.SetBitTo(values.Bytes(), r, exists)
		case unknown:
			bitutil.ClearBit(validity.Bytes(), r)
		default:
			bitutil.SetBitTo(values.Bytes(), r, !exists)
		}
	}
	return MakeArray(planner.TypeBoolean, ev.n, validity, values)
}

// keepTrue is list_filter's result: of each row's elements (values from
// starts[r] to starts[r+1]), those where keep is TRUE.
func (ev *evaluator) keepTrue(t arrow.DataType, validity *memory.Buffer, starts []int32, values arrow.Array, keep *array.Boolean) (arrow.Array, error) {
	offsets := NewBuffer(ev.mem, (ev.n+1)*arrow.Int32SizeBytes)
	offs := arrow.Int32Traits.CastFromBytes(offsets.Bytes())
	kept := make([]int32, 0, keep.Len())
	for r := range ev.n {
		offs[r] = int32(len(kept))
		for j := starts[r]; j < starts[r+1]; j++ {
			if keep.IsValid(int(j)) && keep.Value(int(j)) {
				kept = append(kept, j)
			}
		}
	}
	offs[ev.n] = int32(len(kept))
	taken, err := Take(ev.ctx, ev.mem, values, kept)
	if err != nil {
		offsets.Release()
		validity.Release()
		return nil, err
	}
	defer taken.Release()
	return nestedArray(t, ev.n, validity, offsets, taken.Data()), nil
}

// reduce evaluates list_reduce: the accumulator of each row with a list
// starts as the initial value or the list's first element, then takes the
// body's value over it and each following element in turn. Step k runs the
// body once, as one batch, over the rows whose list has a k-th element,
// holding their accumulators packed; a row whose list ends keeps its
// accumulator aside, so the work is that of the elements. A NULL list
// gives NULL.
func (ev *evaluator) reduce(c *planner.Call) (arrow.Array, error) {
	lambda, list, err := ev.lambdaList(c)
	if err != nil || list == nil {
		return ev.nullUnlessErr(c.T, err)
	}
	defer list.Release()
	f := &fold{ev: ev, lambda: lambda, list: list}
	defer f.release()
	var active []int32 // the rows with a list
	for r := range ev.n {
		if !list.IsNull(r) {
			active = append(active, int32(r))
		}
	}
	outerFrom, first := 1, 0 // first: the element the body first folds in
	var acc arrow.Array
	if lambda.Initial {
		outerFrom = 2
		if acc, err = ev.evalTaken(c.Args[1], active); err != nil {
			return nil, err
		}
	} else {
		first = 1
		elems := make([]int32, len(active))
		for i, r := range active {
			start, end := list.ValueOffsets(int(r))
			if start == end {
				return nil, fmt.Errorf("%s of an empty list needs an initial value: list_reduce(list, (acc, x) -> …, initial)", c.Fn)
			}
			elems[i] = int32(start)
		}
		firsts, err := Take(ev.ctx, ev.mem, list.ListValues(), elems)
		if err != nil {
			return nil, err
		}
		// The accumulator may be wider than the elements (BIGINT of INTs).
		acc, err = newEvaluator(ev.ctx, array.NewRecordBatch(arrow.NewSchema(nil, nil), nil, int64(len(elems))), ev.mem).castArray(firsts, c.T, false)
		firsts.Release()
		if err != nil {
			return nil, err
		}
	}
	for _, o := range c.Args[outerFrom : len(c.Args)-1] {
		v, err := ev.eval(o)
		if err != nil {
			acc.Release()
			return nil, err
		}
		f.outer = append(f.outer, v)
	}
	for k := first; len(active) > 0; k++ {
		if active, acc, err = f.step(k, active, acc); err != nil {
			return nil, err
		}
	}
	return f.result(c.T)
}

// fold is the state of a list_reduce over one batch.
type fold struct {
	ev     *evaluator
	lambda *planner.Lambda
	list   *array.List
	outer  []arrow.Array // the enclosing row's values the body reads, per row
	// The accumulators of the rows whose lists have ended, and their rows.
	done     []arrow.Array
	doneRows [][]int32
}

// step folds element k of the active rows' lists into their accumulators
// acc (packed in the order of active); the rows whose lists have no
// element k are done. It returns the rows still active and theirs.
func (f *fold) step(k int, active []int32, acc arrow.Array) ([]int32, arrow.Array, error) {
	next, kept, elems := make([]int32, 0, len(active)), make([]int32, 0, len(active)), make([]int32, 0, len(active))
	var ended, endedAt []int32
	for i, r := range active {
		start, end := f.list.ValueOffsets(int(r))
		if int64(k) < end-start {
			next, kept, elems = append(next, r), append(kept, int32(i)), append(elems, int32(start)+int32(k))
		} else {
			ended, endedAt = append(ended, r), append(endedAt, int32(i))
		}
	}
	defer acc.Release()
	if len(ended) > 0 {
		finished, err := Take(f.ev.ctx, f.ev.mem, acc, endedAt)
		if err != nil {
			return nil, nil, err
		}
		f.done, f.doneRows = append(f.done, finished), append(f.doneRows, ended)
	}
	if len(next) == 0 {
		return nil, nil, nil
	}
	cols := make([]arrow.Array, 0, 3+len(f.outer))
	defer func() {
		for _, col := range cols {
			col.Release()
		}
	}()
	for _, src := range []struct {
		arr  arrow.Array
		rows []int32
	}{{acc, kept}, {f.list.ListValues(), elems}} {
		taken, err := Take(f.ev.ctx, f.ev.mem, src.arr, src.rows)
		if err != nil {
			return nil, nil, err
		}
		cols = append(cols, taken)
	}
	if len(f.lambda.Params) > 2 {
		b := array.NewInt64Builder(f.ev.mem)
		for range next {
			b.Append(int64(k) + f.lambda.IndexBase)
		}
		cols = append(cols, b.NewArray())
	}
	for _, o := range f.outer {
		taken, err := Take(f.ev.ctx, f.ev.mem, o, next)
		if err != nil {
			return nil, nil, err
		}
		cols = append(cols, taken)
	}
	folded, err := evalOver(f.ev, f.lambda.Body, cols)
	return next, folded, err
}

// result puts each row's final accumulator in its place; rows without a
// list are NULL.
func (f *fold) result(t arrow.DataType) (arrow.Array, error) {
	if len(f.done) == 0 {
		return NullArray(f.ev.mem, t, f.ev.n), nil
	}
	all, err := array.Concatenate(f.done, f.ev.mem)
	if err != nil {
		return nil, err
	}
	defer all.Release()
	pick := make([]int32, f.ev.n)
	for r := range pick {
		pick[r] = -1
	}
	at := int32(0)
	for _, rows := range f.doneRows {
		for _, r := range rows {
			pick[r] = at
			at++
		}
	}
	return Take(f.ev.ctx, f.ev.mem, all, pick)
}

func (f *fold) release() {
	for _, a := range append(f.outer, f.done...) {
		a.Release()
	}
}

// evalTaken evaluates e over the batch and keeps rows.
func (ev *evaluator) evalTaken(e planner.Expr, rows []int32) (arrow.Array, error) {
	v, err := ev.eval(e)
	if err != nil {
		return nil, err
	}
	defer v.Release()
	return Take(ev.ctx, ev.mem, v, rows)
}
