package expr

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"

	"github.com/lakesql/lakesql/planner"
)

func init() {
	scalarFns[planner.FnStrToMap] = scalarFn{3, 3, false, strToMapKernel}
}

// strToMapKernel is Spark's str_to_map(text, pairDelim, keyValueDelim):
// the text split into pairs and each pair into a key and a value around
// the delimiters, both regular expressions; a pair without the second
// delimiter has a NULL value, and a key twice is an error.
func strToMapKernel(ev *evaluator, c *planner.Call, ops []operand) (arrow.Array, error) {
	text, pairDelim, kvDelim := newBytesVec(ops[0]), newBytesVec(ops[1]), newBytesVec(ops[2])
	validity := ev.validity(ops...)
	if validity != nil {
		defer validity.Release()
	}
	b := array.NewMapBuilderWithType(ev.mem, c.T.(*arrow.MapType))
	defer b.Release()
	keys, vals := b.KeyBuilder().(*array.StringBuilder), b.ItemBuilder().(*array.StringBuilder)
	var pairCache, kvCache regexpCache
	seen := map[string]bool{}
	for i := range ev.n {
		if validity != nil && !bitutil.BitIsSet(validity.Bytes(), i) {
			b.AppendNull()
			continue
		}
		pairRe, err := pairCache.get(pairDelim.At(i))
		if err != nil {
			return nil, wrapError(c, err)
		}
		kvRe, err := kvCache.get(kvDelim.At(i))
		if err != nil {
			return nil, wrapError(c, err)
		}
		b.Append(true)
		clear(seen)
		for _, pair := range pairRe.Split(string(text.At(i)), -1) {
			kv := kvRe.Split(pair, 2)
			if seen[kv[0]] {
				return nil, fmt.Errorf("%s: duplicate map key %q", c, kv[0])
			}
			seen[kv[0]] = true
			keys.Append(kv[0])
			if len(kv) == 2 {
				vals.Append(kv[1])
			} else {
				vals.AppendNull()
			}
		}
	}
	return b.NewArray(), nil
}
