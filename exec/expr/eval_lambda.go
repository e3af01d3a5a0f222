package expr

import (
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakesql/lakesql/planner"
)

// lambdaCall evaluates list_transform or list_filter: the lambda's body
// runs once over all the elements of the batch's lists, as one batch whose
// rows are the elements (with their index and the enclosing row's values
// the body reads, repeated for each element of the row's list).
func (ev *evaluator) lambdaCall(c *planner.Call) (arrow.Array, error) {
	lambda := c.Args[len(c.Args)-1].(*planner.Lambda)
	listArr, err := ev.eval(c.Args[0])
	if err != nil {
		return nil, err
	}
	defer listArr.Release()
	list, ok := listArr.(*array.List)
	if !ok { // a NULL constant
		return array.MakeArrayOfNull(ev.mem, c.T, ev.n), nil
	}
	// The elements of the non-NULL lists, the row each belongs to, its
	// index, and where each row's elements start among them.
	var elems, parents []int32
	var index []int64
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
	if c.Fn == planner.FnListFilter {
		return ev.keepTrue(c.T, validity, starts, values, body.(*array.Boolean))
	}
	offsets := NewBuffer(ev.mem, (ev.n+1)*arrow.Int32SizeBytes)
	copy(arrow.Int32Traits.CastFromBytes(offsets.Bytes()), starts)
	return nestedArray(c.T, ev.n, validity, offsets, body.Data()), nil
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
	fields := make([]arrow.Field, len(cols))
	for i, col := range cols {
		fields[i] = arrow.Field{Name: "c" + strconv.Itoa(i), Type: col.DataType(), Nullable: true}
	}
	batch := array.NewRecordBatch(arrow.NewSchema(fields, nil), cols, int64(len(parents)))
	defer batch.Release()
	return newEvaluator(ev.ctx, batch, ev.mem).eval(lambda.Body)
}

// keepTrue is list_filter's result: of each row's elements (values from
// starts[r] to starts[r+1]), those where keep is TRUE.
func (ev *evaluator) keepTrue(t arrow.DataType, validity *memory.Buffer, starts []int32, values arrow.Array, keep *array.Boolean) (arrow.Array, error) {
	offsets := NewBuffer(ev.mem, (ev.n+1)*arrow.Int32SizeBytes)
	offs := arrow.Int32Traits.CastFromBytes(offsets.Bytes())
	var kept []int32
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
