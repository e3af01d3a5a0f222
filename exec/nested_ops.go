package exec

import (
	"bytes"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakesql/lakesql/exec/expr"
)

// nestedOps group, sort and pick structs, arrays and maps by their keys
// (expr.NestedKeys): byte strings that order and equal as the values do,
// and decode back into the values for the output.
var nestedOps = opsFor(elem[[]byte]{nestedValues, bytes.Compare, hashBytes, bytes.Clone, buildNested})

func nestedValues(dst [][]byte, arr arrow.Array) [][]byte { return expr.NestedKeys(dst, arr) }

func buildNested(mem memory.Allocator, t arrow.DataType, vals [][]byte, valid []bool) arrow.Array {
	return expr.BuildNested(mem, t, vals, valid)
}

// nestedKeyColumns replaces the struct, array and map columns of cols by
// BINARY columns of their keys, NULL where they are, so that row keys of
// joins and set operations encode them as byte strings. release frees the
// columns it made.
func nestedKeyColumns(cols []arrow.Array) (_ []arrow.Array, release func(), err error) {
	var made []arrow.Array
	release = func() {
		for _, a := range made {
			a.Release()
		}
	}
	out := cols
	for i, c := range cols {
		if !expr.IsNestedType(c.DataType()) {
			continue
		}
		if err := expr.NestedComparable(c.DataType()); err != nil {
			release()
			return nil, nil, err
		}
		if len(made) == 0 {
			out = slices.Clone(cols)
		}
		b := array.NewBinaryBuilder(memory.DefaultAllocator, arrow.BinaryTypes.Binary)
		for j, k := range expr.NestedKeys(nil, c) {
			if c.IsNull(j) {
				b.AppendNull()
			} else {
				b.Append(k)
			}
		}
		out[i] = b.NewArray()
		b.Release()
		made = append(made, out[i])
	}
	return out, release, nil
}
