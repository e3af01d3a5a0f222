package expr

import (
	"bytes"
	"fmt"
	"unicode"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakesql/lakesql/planner"
)

// Spark's string functions that DuckDB lacks, each following the Spark 3.5
// implementation (UTF8String) where the reference leaves a case open.

// findInSetKernel is find_in_set(s, list): the 1-based position of s among
// list's comma-separated items (empty items count), 0 when it is not one
// of them or s holds a comma.
func findInSetKernel(ev *evaluator, c *planner.Call, ops []operand) (arrow.Array, error) {
	s, list := newBytesVec(ops[0]), newBytesVec(ops[1])
	return fixedRows(ev, c.T, ops, func(i int) (int32, outcome) {
		x := s.At(i)
		if bytes.IndexByte(x, ',') >= 0 {
			return 0, ValueOK
		}
		n := int32(1)
		for item := range bytes.SplitSeq(list.At(i), []byte{','}) {
			if bytes.Equal(item, x) {
				return n, ValueOK
			}
			n++
		}
		return 0, ValueOK
	}, nil)
}

// substringIndexKernel is substring_index(s, delim, count): s before the
// count-th delim, or after the count-th from the end for a negative
// count; all of s when there are fewer, the empty string for count 0 or
// an empty delimiter.
// Matches may overlap, as in Spark: substring_index('aaa', 'aa', 2) is 'a'.
func substringIndexKernel(ev *evaluator, _ *planner.Call, ops []operand) (arrow.Array, error) {
	s, delim, count := newBytesVec(ops[0]), newBytesVec(ops[1]), fixedVec[int64](ops[2])
	return ev.stringRows(ops, func(dst []byte, i int) []byte {
		return append(dst, substringIndex(s.At(i), delim.At(i), count.At(i))...)
	}), nil
}

func substringIndex(s, delim []byte, count int64) []byte {
	if len(delim) == 0 || count == 0 {
		return nil
	}
	if count > 0 {
		at := -1
		for ; count > 0; count-- {
			j := bytes.Index(s[at+1:], delim)
			if j < 0 {
				return s
			}
			at += 1 + j
		}
		return s[:at]
	}
	at := len(s) - len(delim) + 1 // a match may start before at
	for ; count < 0; count++ {
		if at <= 0 {
			return s
		}
		at = bytes.LastIndex(s[:at-1+len(delim)], delim)
		if at < 0 {
			return s
		}
	}
	return s[at+len(delim):]
}

// initcapKernel is initcap(s): s in lower case but for the first letter of
// each word, in title case; only spaces separate words (Spark).
func initcapKernel(ev *evaluator, _ *planner.Call, ops []operand) (arrow.Array, error) {
	s := newBytesVec(ops[0])
	return ev.stringRows(ops, func(dst []byte, i int) []byte {
		wordStart := true
		for _, r := range string(s.At(i)) {
			if wordStart {
				r = unicode.ToTitle(r)
			} else {
				r = unicode.ToLower(r)
			}
			dst = utf8.AppendRune(dst, r)
			wordStart = r == ' '
		}
		return dst
	}), nil
}

// locateKernel is locate(sub, s, pos): the 1-based character position of
// the first sub in s starting at or after character pos, 0 when there is
// none or pos < 1; an empty sub is found at 1 (Spark's UTF8String.indexOf).
func locateKernel(ev *evaluator, c *planner.Call, ops []operand) (arrow.Array, error) {
	sub, s, pos := newBytesVec(ops[0]), newBytesVec(ops[1]), fixedVec[int64](ops[2])
	return fixedRows(ev, c.T, ops, func(i int) (int32, outcome) {
		p, v, x := pos.At(i), s.At(i), sub.At(i)
		switch {
		case p < 1:
			return 0, ValueOK
		case len(x) == 0:
			return 1, ValueOK
		}
		from := charPrefix(v, p-1)
		j := bytes.Index(v[from:], x)
		if j < 0 {
			return 0, ValueOK
		}
		return int32(int64(utf8.RuneCount(v[:from+j])) + 1), ValueOK
	}, nil)
}

// decodeUTF8Kernel is decode(b): the bytes as text. Invalid UTF-8 is an
// error when the second operand is TRUE (DuckDB), else each run of invalid
// bytes becomes U+FFFD (Spark).
func decodeUTF8Kernel(ev *evaluator, _ *planner.Call, ops []operand) (arrow.Array, error) {
	b := newBytesVec(ops[0])
	if ops[1].lit.Value.(bool) {
		for i := range ev.n {
			if !isNullRow(ops[:1], i) && !utf8.Valid(b.At(i)) {
				return nil, fmt.Errorf("decode: the bytes are not valid UTF-8: %q", b.At(i))
			}
		}
		return ev.stringRows(ops[:1], func(dst []byte, i int) []byte { return append(dst, b.At(i)...) }), nil
	}
	return ev.stringRows(ops[:1], func(dst []byte, i int) []byte {
		return append(dst, bytes.ToValidUTF8(b.At(i), []byte("\uFFFD"))...)
	}), nil
}
