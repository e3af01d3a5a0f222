package exec

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/lakesql/lakesql/exec/expr"
	"github.com/lakesql/lakesql/planner"
)

// orderKeys are the ORDER BY keys of a batch's rows for an aggregate that
// orders its values (string_agg, array_agg, first, last): its argument is
// a struct of the value and the keys, one field each.
type orderKeys struct {
	order []planner.AggOrder
	keys  [][][]byte // keys[k][i]: key k of row i, as expr.NestedKeys encodes it
}

func newOrderKeys(st *array.Struct, order []planner.AggOrder) orderKeys {
	keys := make([][][]byte, len(order))
	for k := range order {
		keys[k] = expr.NestedKeys(nil, st.Field(k+1))
	}
	return orderKeys{order: order, keys: keys}
}

// orderedArg splits arg, the argument of a call with ORDER BY keys order,
// into its values, the mask of its rows (nil when all are there) and the
// rows' keys; without keys, arg is the values and keys is nil.
func orderedArg(arg arrow.Array, order []planner.AggOrder) (values arrow.Array, rowMask []byte, keys *orderKeys) {
	if order == nil {
		return arg, nil, nil
	}
	st := arg.(*array.Struct)
	k := newOrderKeys(st, order)
	return st.Field(0), nullMask(st), &k
}

// appendRow appends row i's sort key to dst: its keys, each in the
// direction its ORDER BY item asks.
func (k orderKeys) appendRow(dst []byte, i int) []byte {
	for j, o := range k.order {
		dst = appendSortKey(dst, k.keys[j][i], o)
	}
	return dst
}

// appendSortKey appends one key's encoding in the direction o asks.
func appendSortKey(dst, key []byte, o planner.AggOrder) []byte {
	start := len(dst)
	if key[0] == 0 && o.NullsFirst == o.Desc {
		dst = append(dst, 2) // NULL after the values (0x01…), before them once complemented
	} else {
		dst = append(dst, key...)
	}
	if o.Desc {
		for i := start; i < len(dst); i++ {
			dst[i] = ^dst[i]
		}
	}
	return dst
}
