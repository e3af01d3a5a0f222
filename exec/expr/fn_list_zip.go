package expr

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakesql/lakesql/planner"
)

func init() {
	scalarFns[planner.FnListZip] = scalarFn{1, -1, true, zipKernel}
	scalarFns[planner.FnArraysZip] = scalarFn{1, -1, false, zipKernel}
}

// zipKernel pairs the arrays' elements position by position into structs
// (list_zip, arrays_zip): each array's elements are gathered with -1, a
// NULL, past its end.
func zipKernel(ev *evaluator, c *planner.Call, ops []operand) (arrow.Array, error) {
	lists := make([]*array.List, len(ops))
	defer func() {
		for _, l := range lists {
			if l != nil {
				l.Release()
			}
		}
	}()
	for k, o := range ops {
		a, err := ev.materialize(o)
		if err != nil {
			return nil, err
		}
		lists[k] = a.(*array.List)
	}
	var validity *memory.Buffer
	if c.Fn == planner.FnArraysZip {
		validity = ev.validity(ops...)
	}
	offsets := NewBuffer(ev.mem, (ev.n+1)*arrow.Int32SizeBytes)
	offs := arrow.Int32Traits.CastFromBytes(offsets.Bytes())
	rows := make([][]int32, len(ops))
	for i := range ev.n {
		offs[i] = int32(len(rows[0]))
		if validity != nil && !bitutil.BitIsSet(validity.Bytes(), i) {
			continue
		}
		longest := int64(0)
		for _, l := range lists {
			if start, end := l.ValueOffsets(i); l.IsValid(i) {
				longest = max(longest, end-start)
			}
		}
		for k, l := range lists {
			start, end := l.ValueOffsets(i)
			for p := range longest {
				j := int32(-1)
				if l.IsValid(i) && start+p < end {
					j = int32(start + p)
				}
				rows[k] = append(rows[k], j)
			}
		}
	}
	offs[ev.n] = int32(len(rows[0]))
	fields := make([]arrow.ArrayData, len(ops))
	defer func() {
		for _, f := range fields {
			if f != nil {
				f.Release()
			}
		}
	}()
	for k, l := range lists {
		taken, err := Take(ev.ctx, ev.mem, l.ListValues(), rows[k])
		if err != nil {
			offsets.Release()
			if validity != nil {
				validity.Release()
			}
			return nil, err
		}
		fields[k] = taken.Data()
		fields[k].Retain()
		taken.Release()
	}
	st := c.T.(*arrow.ListType).Elem()
	structs := nestedArray(st, len(rows[0]), nil, nil, fields...)
	defer structs.Release()
	return nestedArray(c.T, ev.n, validity, offsets, structs.Data()), nil
}
