package expr

import (
	"fmt"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakesql/lakesql/planner"
)

// unhexKernel is unhex(s): a byte for every two hex digits, of either
// case; with an odd number of digits the first one is a byte alone, as in
// DuckDB (unhex('123') is \x01\x23).
func unhexKernel(ev *evaluator, c *planner.Call, ops []operand) (arrow.Array, error) {
	s := newBytesVec(ops[0])
	var err error
	out := ev.binaryRows(ops, func(dst []byte, i int) []byte {
		v := s.At(i)
		var b byte
		for k := range v {
			d, ok := hexDigit(v[k])
			if !ok {
				r, _ := utf8.DecodeRune(v[k:])
				err = fmt.Errorf("%q is not a hex digit", r)
				return dst
			}
			b = b<<4 | d
			if (len(v)-k)%2 == 1 {
				dst = append(dst, b)
				b = 0
			}
		}
		return dst
	})
	return releaseOnError(out, wrapError(c, err))
}

// hexDigit is the value of a hex digit of either case.
func hexDigit(c byte) (byte, bool) {
	switch {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10, true
	case 'A' <= c && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}
