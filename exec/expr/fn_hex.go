package expr

import (
	"math/bits"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakesql/lakesql/planner"
)

// The kernels of hex and bin, which write digits of 4 and 1 bits.
var (
	hexKernel = digitsKernel(4)
	binKernel = digitsKernel(1)
)

// digitsKernel writes its operand in digits of bitsPerDigit bits: a BIGINT
// without leading zeros (its 64-bit two's complement when negative), the
// bytes of a STRING or BINARY with every digit of each.
func digitsKernel(bitsPerDigit int) func(*evaluator, *planner.Call, []operand) (arrow.Array, error) {
	return func(ev *evaluator, _ *planner.Call, ops []operand) (arrow.Array, error) {
		if planner.IsInteger(ops[0].t) {
			x := fixedVec[int64](ops[0])
			return ev.stringRows(ops, func(dst []byte, i int) []byte {
				return appendDigits(dst, uint64(x.At(i)), bitsPerDigit, 1)
			}), nil
		}
		s := newBytesVec(ops[0])
		return ev.stringRows(ops, func(dst []byte, i int) []byte {
			for _, c := range s.At(i) {
				dst = appendDigits(dst, uint64(c), bitsPerDigit, 8/bitsPerDigit)
			}
			return dst
		}), nil
	}
}

// appendDigits appends v in digits of bitsPerDigit bits, upper-case, at
// least width of them.
func appendDigits(dst []byte, v uint64, bitsPerDigit, width int) []byte {
	const digits = "0123456789ABCDEF"
	n := max(width, (bits.Len64(v)+bitsPerDigit-1)/bitsPerDigit)
	for k := n - 1; k >= 0; k-- {
		dst = append(dst, digits[v>>(k*bitsPerDigit)&(1<<bitsPerDigit-1)])
	}
	return dst
}
