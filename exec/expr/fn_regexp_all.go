package expr

import (
	"cmp"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"

	"github.com/lakesql/lakesql/planner"
)

// regexpExtractAllKernel is regexp_extract_all(s, pattern, group): the
// group of each match of pattern in s, in order; NULL for a match in which
// the group took no part. Matches are Go's (RE2 syntax): an empty match
// right after another match is not one, where DuckDB and Trino count it
// ('a*' in 'baaa' gives an empty string and 'aaa' here, DuckDB and Trino
// an empty string, 'aaa' and an empty string).
func regexpExtractAllKernel(ev *evaluator, c *planner.Call, ops []operand) (arrow.Array, error) {
	s, pattern, group := newBytesVec(ops[0]), newBytesVec(ops[1]), fixedVec[int64](ops[2])
	validity := ev.validity(ops...)
	if validity != nil {
		defer validity.Release()
	}
	b := array.NewListBuilderWithField(ev.mem, c.T.(*arrow.ListType).ElemField())
	defer b.Release()
	values := b.ValueBuilder().(*array.StringBuilder)
	var cache regexpCache
	for i := range ev.n {
		if validity != nil && !bitutil.BitIsSet(validity.Bytes(), i) {
			b.AppendNull()
			continue
		}
		re, err := cache.get(pattern.At(i))
		if err != nil {
			return nil, wrapError(c, err)
		}
		g := group.At(i)
		if g < 0 || g > int64(re.NumSubexp()) {
			return nil, wrapError(c, fmt.Errorf("the pattern %q has %d groups, so there is no group %d", pattern.At(i), re.NumSubexp(), g))
		}
		v := s.At(i)
		b.Append(true)
		for _, m := range re.FindAllSubmatchIndex(v, -1) {
			if m[2*g] < 0 {
				values.AppendNull()
			} else {
				values.BinaryBuilder.Append(v[m[2*g]:m[2*g+1]])
			}
		}
	}
	return b.NewArray(), nil
}

// regexpCountKernel is Trino's regexp_count(s, pattern): the number of
// matches.
func regexpCountKernel(ev *evaluator, c *planner.Call, ops []operand) (arrow.Array, error) {
	s, pattern := newBytesVec(ops[0]), newBytesVec(ops[1])
	var cache regexpCache
	var err error
	out, ferr := fixedRows(ev, c.T, ops, func(i int) (int64, outcome) {
		re, e := cache.get(pattern.At(i))
		if e != nil {
			err = cmp.Or(err, e) // the first row's
			return 0, ValueOK
		}
		return int64(len(re.FindAllIndex(s.At(i), -1))), ValueOK
	}, nil)
	if ferr != nil {
		return nil, ferr
	}
	return releaseOnError(out, wrapError(c, err))
}
