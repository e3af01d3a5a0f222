package expr

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakesql/lakesql/planner"
)

// doubleClassKernel is is_nan, is_infinite or is_finite of a DOUBLE.
func doubleClassKernel(class func(float64) bool) func(*evaluator, *planner.Call, []operand) (arrow.Array, error) {
	return func(ev *evaluator, _ *planner.Call, ops []operand) (arrow.Array, error) {
		x := fixedVec[float64](ops[0])
		return ev.boolRows(ops, func(i int) bool { return class(x.At(i)) }), nil
	}
}

func isInfinite(x float64) bool { return math.IsInf(x, 0) }
func isFinite(x float64) bool   { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// codepointKernel is Trino's codepoint(s): the code point of the only
// character of s.
func codepointKernel(ev *evaluator, c *planner.Call, ops []operand) (arrow.Array, error) {
	s := newBytesVec(ops[0])
	return fixedRows(ev, c.T, ops, func(i int) (int32, outcome) {
		v := s.At(i)
		r, size := utf8.DecodeRune(v)
		if len(v) == 0 || size != len(v) {
			return 0, overflow
		}
		return r, ValueOK
	}, rowError(c, func(i int) string {
		return fmt.Sprintf("the string must be a single character, got %d characters", utf8.RuneCount(s.At(i)))
	}))
}

// strposNthKernel is Trino's strpos(s, sub, n): the character position of
// the n-th occurrence of sub in s, counted from the end when n < 0, 0 when
// there are fewer; an occurrence may begin inside the previous one, and an
// empty sub is found at 1. n = 0 is an error, as in Trino.
func strposNthKernel(ev *evaluator, c *planner.Call, ops []operand) (arrow.Array, error) {
	s, sub, nth := newBytesVec(ops[0]), newBytesVec(ops[1]), fixedVec[int64](ops[2])
	return fixedRows(ev, c.T, ops, func(i int) (int64, outcome) {
		n := nth.At(i)
		if n == 0 {
			return 0, overflow
		}
		j := nthIndex(s.At(i), sub.At(i), n)
		if j < 0 {
			return 0, ValueOK
		}
		return int64(utf8.RuneCount(s.At(i)[:j])) + 1, ValueOK
	}, func(int) error { return errZeroInstance })
}

// errZeroInstance names strpos, the function users call.
var errZeroInstance = errors.New("strpos: the instance must not be 0")

// nthIndex is the byte offset of the n-th occurrence of sub in s (from the
// end when n < 0), or -1.
func nthIndex(s, sub []byte, n int64) int {
	if len(sub) == 0 {
		return 0
	}
	if n > 0 {
		from := 0
		for {
			j := bytes.Index(s[from:], sub)
			if j < 0 {
				return -1
			}
			if n--; n == 0 {
				return from + j
			}
			from += j + 1
		}
	}
	end := len(s)
	for {
		j := bytes.LastIndex(s[:end], sub)
		if j < 0 {
			return -1
		}
		if n++; n == 0 {
			return j
		}
		end = j + len(sub) - 1
	}
}

// fromUTF8Kernel is from_utf8(b): b as text, each invalid sequence
// replaced by one U+FFFD. A sequence is, as Trino counts it (airlift's
// fixInvalidUtf8), its lead byte and the continuation bytes that follow,
// up to the length the lead byte announces: E6 97 at the end is one
// U+FFFD, a stray continuation byte one each.
func fromUTF8Kernel(ev *evaluator, _ *planner.Call, ops []operand) (arrow.Array, error) {
	b := newBytesVec(ops[0])
	return ev.stringRows(ops, func(dst []byte, i int) []byte {
		for v := b.At(i); len(v) > 0; {
			r, size := utf8.DecodeRune(v)
			if r == utf8.RuneError && size == 1 {
				dst = utf8.AppendRune(dst, utf8.RuneError)
				size = invalidSequenceLength(v)
			} else {
				dst = append(dst, v[:size]...)
			}
			v = v[size:]
		}
		return dst
	}), nil
}

// invalidSequenceLength is the length of the invalid sequence v begins
// with: 1 for a byte that starts none (a continuation byte, FE, FF), else
// the lead byte and the continuation bytes after it, at most as many as
// the lead byte announces (up to 6, as the original UTF-8 allowed).
func invalidSequenceLength(v []byte) int {
	announced := 0
	switch lead := v[0]; {
	case lead >= 0xC0 && lead < 0xE0:
		announced = 2
	case lead >= 0xE0 && lead < 0xF0:
		announced = 3
	case lead >= 0xF0 && lead < 0xF8:
		announced = 4
	case lead >= 0xF8 && lead < 0xFC:
		announced = 5
	case lead >= 0xFC && lead < 0xFE:
		announced = 6
	}
	n := 1
	for n < announced && n < len(v) && v[n]&0xC0 == 0x80 {
		n++
	}
	return n
}
