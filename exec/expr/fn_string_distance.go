package expr

import (
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakesql/lakesql/planner"
)

// runePairKernel is the kernel of a function of two strings' characters,
// which it decodes into buffers the rows share. newRow makes the function
// for one batch, so scratch space it keeps is never shared between
// batches evaluated at once; a row it reports an error for stops the
// evaluation.
func runePairKernel[T int64 | float64](newRow func() func(a, b []rune) (T, error)) func(*evaluator, *planner.Call, []operand) (arrow.Array, error) {
	return func(ev *evaluator, c *planner.Call, ops []operand) (arrow.Array, error) {
		s, t := newBytesVec(ops[0]), newBytesVec(ops[1])
		row := newRow()
		var a, b []rune
		var err error
		return fixedRows(ev, c.T, ops, func(i int) (T, outcome) {
			a, b = appendRunes(a[:0], s.At(i)), appendRunes(b[:0], t.At(i))
			v, e := row(a, b)
			if e != nil {
				err = e
				return v, overflow
			}
			return v, ValueOK
		}, rowError(c, func(int) string { return err.Error() }))
	}
}

// appendRunes appends the characters of s to dst.
func appendRunes(dst []rune, s []byte) []rune {
	for _, r := range unsafeString(s) {
		dst = append(dst, r)
	}
	return dst
}
