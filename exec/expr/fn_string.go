package expr

import (
	"bytes"
	"fmt"
	"unicode"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/lakesql/lakesql/planner"
)

// String kernels. Positions and lengths count characters (code points), as
// in DuckDB and Spark: length('héllo') is 5.

func lowerKernel(ev *evaluator, _ *planner.Call, ops []operand) (arrow.Array, error) {
	return mapRunesKernel(ev, ops, unicode.ToLower), nil
}

func upperKernel(ev *evaluator, _ *planner.Call, ops []operand) (arrow.Array, error) {
	return mapRunesKernel(ev, ops, unicode.ToUpper), nil
}

// mapRunesKernel maps every character of its one STRING operand through f.
func mapRunesKernel(ev *evaluator, ops []operand, f func(rune) rune) arrow.Array {
	s := newBytesVec(ops[0])
	return ev.stringRows(ops, func(dst []byte, i int) []byte {
		for _, r := range string(s.At(i)) {
			dst = utf8.AppendRune(dst, f(r))
		}
		return dst
	})
}

func reverseKernel(ev *evaluator, _ *planner.Call, ops []operand) (arrow.Array, error) {
	s := newBytesVec(ops[0])
	return ev.stringRows(ops, func(dst []byte, i int) []byte {
		for rest := s.At(i); len(rest) > 0; {
			_, size := utf8.DecodeLastRune(rest)
			dst = append(dst, rest[len(rest)-size:]...)
			rest = rest[:len(rest)-size]
		}
		return dst
	}), nil
}

// asciiKernel gives the code point of each string's first character (0
// for the empty string).
func asciiKernel(ev *evaluator, c *planner.Call, ops []operand) (arrow.Array, error) {
	s := newBytesVec(ops[0])
	return fixedRows(ev, c.T, ops, func(i int) (int64, outcome) {
		v := s.At(i)
		if len(v) == 0 {
			return 0, ValueOK
		}
		r, _ := utf8.DecodeRune(v)
		return int64(r), ValueOK
	}, nil)
}

// chrKernel gives the character of each code point; one that is none
// (negative, a surrogate, past U+10FFFF) is an error.
func chrKernel(ev *evaluator, c *planner.Call, ops []operand) (arrow.Array, error) {
	n := fixedVec[int64](ops[0])
	var bad int64
	out := ev.stringRows(ops, func(dst []byte, i int) []byte {
		r := n.At(i)
		if r < 0 || r > utf8.MaxRune || !utf8.ValidRune(rune(r)) {
			bad = r
			return dst
		}
		return utf8.AppendRune(dst, rune(r))
	})
	if bad != 0 {
		out.Release()
		return nil, fmt.Errorf("chr: %d is not a Unicode code point", bad)
	}
	return out, nil
}

func lengthKernel(ev *evaluator, c *planner.Call, ops []operand) (arrow.Array, error) {
	s := newBytesVec(ops[0])
	return fixedRows(ev, c.T, ops, func(i int) (int64, outcome) {
		return int64(utf8.RuneCount(s.At(i))), ValueOK
	}, nil)
}

// trimKernel strips the characters of the second operand from the chosen
// ends of the first.
func trimKernel(left, right bool) func(*evaluator, *planner.Call, []operand) (arrow.Array, error) {
	return func(ev *evaluator, _ *planner.Call, ops []operand) (arrow.Array, error) {
		s, chars := newBytesVec(ops[0]), newBytesVec(ops[1])
		var cut []byte
		inCut := func(r rune) bool { return bytes.ContainsRune(cut, r) }
		return ev.stringRows(ops, func(dst []byte, i int) []byte {
			v := s.At(i)
			cut = chars.At(i)
			if left {
				v = bytes.TrimLeftFunc(v, inCut)
			}
			if right {
				v = bytes.TrimRightFunc(v, inCut)
			}
			return append(dst, v...)
		}), nil
	}
}

// charPrefix returns the byte length of the first k characters of s (all of
// s when it has fewer than k).
func charPrefix(s []byte, k int64) int {
	for i := 0; i < len(s); k-- {
		if k <= 0 {
			return i
		}
		if s[i] < utf8.RuneSelf {
			i++
			continue
		}
		_, size := utf8.DecodeRune(s[i:])
		i += size
	}
	return len(s)
}

// chars returns characters [from, to) of s, clamped to the string.
func chars(s []byte, from, to int64) []byte {
	from = max(from, 0)
	if to <= from {
		return nil
	}
	start := charPrefix(s, from)
	return s[start : start+charPrefix(s[start:], to-from)]
}

// substrKernel is DuckDB's substring(s, start[, length]): start counts from
// 1, and from the end when negative; start 0 is the position before the
// first character, so substring('hello', 0, 2) is 'h'. A negative length
// gives the empty string.
func substrKernel(ev *evaluator, _ *planner.Call, ops []operand) (arrow.Array, error) {
	s, start := newBytesVec(ops[0]), fixedVec[int64](ops[1])
	var length *vec[int64]
	if len(ops) == 3 {
		length = fixedVec[int64](ops[2])
	}
	return ev.stringRows(ops, func(dst []byte, i int) []byte {
		v := s.At(i)
		n := int64(utf8.RuneCount(v))
		begin := start.At(i) - 1
		if start.At(i) < 0 {
			begin = n + start.At(i)
		}
		end := n
		if length != nil {
			// begin + length, saturated at the end of the string
			end = begin + min(length.At(i), n-begin)
		}
		return append(dst, chars(v, begin, end)...)
	}), nil
}

// leftRightKernel is left(s, k) and right(s, k): the first or last k
// characters; a negative k drops -k characters from the other end (DuckDB).
func leftRightKernel(left bool) func(*evaluator, *planner.Call, []operand) (arrow.Array, error) {
	return func(ev *evaluator, _ *planner.Call, ops []operand) (arrow.Array, error) {
		s, count := newBytesVec(ops[0]), fixedVec[int64](ops[1])
		return ev.stringRows(ops, func(dst []byte, i int) []byte {
			v, k := s.At(i), count.At(i)
			n := int64(utf8.RuneCount(v))
			switch {
			case left && k >= 0:
				return append(dst, chars(v, 0, k)...)
			case left:
				return append(dst, chars(v, 0, n+k)...)
			case k >= 0:
				return append(dst, chars(v, n-k, n)...)
			}
			return append(dst, chars(v, -k, n)...)
		}), nil
	}
}

// maxRepeatBytes bounds what repeat makes of one row: a typo in the count
// should be an error, not the process running out of memory.
const maxRepeatBytes = 1 << 28

// repeatKernel is repeat(s, n): s n times, the empty string when n ≤ 0.
func repeatKernel(ev *evaluator, _ *planner.Call, ops []operand) (arrow.Array, error) {
	s, count := newBytesVec(ops[0]), fixedVec[int64](ops[1])
	for i := range ev.n {
		if isNullRow(ops, i) {
			continue
		}
		if k, v := count.At(i), s.At(i); k > 0 && int64(len(v)) > maxRepeatBytes/k {
			return nil, fmt.Errorf("repeat would make a string of %d × %d bytes, more than %d", k, len(v), maxRepeatBytes)
		}
	}
	return ev.stringRows(ops, func(dst []byte, i int) []byte {
		for range max(count.At(i), 0) {
			dst = append(dst, s.At(i)...)
		}
		return dst
	}), nil
}

// isNullRow reports whether an operand is NULL at row i.
func isNullRow(ops []operand, i int) bool {
	for _, o := range ops {
		if o.arr != nil && o.arr.IsNull(i) {
			return true
		}
	}
	return false
}

// padKernel is lpad/rpad(s, length, pad): s cut or padded with repeats of
// pad to length characters. With an empty pad a short s stays as it is.
func padKernel(left bool) func(*evaluator, *planner.Call, []operand) (arrow.Array, error) {
	return func(ev *evaluator, _ *planner.Call, ops []operand) (arrow.Array, error) {
		s, length, pad := newBytesVec(ops[0]), fixedVec[int64](ops[1]), newBytesVec(ops[2])
		return ev.stringRows(ops, func(dst []byte, i int) []byte {
			v, want, p := s.At(i), length.At(i), pad.At(i)
			missing := want - int64(utf8.RuneCount(v))
			if missing <= 0 || len(p) == 0 {
				return append(dst, chars(v, 0, want)...)
			}
			if !left {
				dst = append(dst, v...)
			}
			for missing > 0 {
				k := min(missing, int64(utf8.RuneCount(p)))
				dst = append(dst, chars(p, 0, k)...)
				missing -= k
			}
			if left {
				dst = append(dst, v...)
			}
			return dst
		}), nil
	}
}

// replaceKernel replaces every occurrence of from by to; an empty from
// leaves the string as it is.
func replaceKernel(ev *evaluator, _ *planner.Call, ops []operand) (arrow.Array, error) {
	s, from, to := newBytesVec(ops[0]), newBytesVec(ops[1]), newBytesVec(ops[2])
	return ev.stringRows(ops, func(dst []byte, i int) []byte {
		v, old := s.At(i), from.At(i)
		if len(old) == 0 {
			return append(dst, v...)
		}
		for {
			j := bytes.Index(v, old)
			if j < 0 {
				return append(dst, v...)
			}
			dst = append(append(dst, v[:j]...), to.At(i)...)
			v = v[j+len(old):]
		}
	}), nil
}

// regexpReplaceKernel replaces every match of the pattern (RE2 syntax), as
// Spark does (DuckDB replaces the first unless given 'g'). The replacement
// refers to groups as $1 or ${name}.
func regexpReplaceKernel(ev *evaluator, c *planner.Call, ops []operand) (arrow.Array, error) {
	s, pattern, repl := newBytesVec(ops[0]), newBytesVec(ops[1]), newBytesVec(ops[2])
	var cache regexpCache
	var err error
	out := ev.stringRows(ops, func(dst []byte, i int) []byte {
		re, e := cache.get(pattern.At(i))
		if e != nil {
			err = e
			return dst
		}
		return append(dst, re.ReplaceAll(s.At(i), repl.At(i))...)
	})
	return releaseOnError(out, wrapError(c, err))
}

// regexpLikeKernel reports whether the pattern matches anywhere in the string.
func regexpLikeKernel(ev *evaluator, c *planner.Call, ops []operand) (arrow.Array, error) {
	s, pattern := newBytesVec(ops[0]), newBytesVec(ops[1])
	var cache regexpCache
	var err error
	out := ev.boolRows(ops, func(i int) bool {
		re, e := cache.get(pattern.At(i))
		if e != nil {
			err = e
			return false
		}
		return re.Match(s.At(i))
	})
	return releaseOnError(out, wrapError(c, err))
}

// splitPartKernel is split_part(s, delim, n): field n of s split at delim,
// counting from 1, or from the end when n is negative; ” when there is no
// such field. An empty delimiter does not split (Spark).
func splitPartKernel(ev *evaluator, _ *planner.Call, ops []operand) (arrow.Array, error) {
	s, delim, index := newBytesVec(ops[0]), newBytesVec(ops[1]), fixedVec[int64](ops[2])
	return ev.stringRows(ops, func(dst []byte, i int) []byte {
		return append(dst, splitPart(s.At(i), delim.At(i), index.At(i))...)
	}), nil
}

func splitPart(s, delim []byte, n int64) []byte {
	if len(delim) == 0 {
		if n == 1 || n == -1 {
			return s
		}
		return nil
	}
	for k := int64(1); n > 0; k++ {
		j := bytes.Index(s, delim)
		switch {
		case k == n && j < 0:
			return s
		case k == n:
			return s[:j]
		case j < 0:
			return nil
		}
		s = s[j+len(delim):]
	}
	for k := int64(-1); n < 0; k-- {
		j := bytes.LastIndex(s, delim)
		switch {
		case k == n && j < 0:
			return s
		case k == n:
			return s[j+len(delim):]
		case j < 0:
			return nil
		}
		s = s[:j]
	}
	return nil
}

// strposKernel is the 1-based character position of the first occurrence of
// the second operand in the first, 0 when absent.
func strposKernel(ev *evaluator, c *planner.Call, ops []operand) (arrow.Array, error) {
	s, sub := newBytesVec(ops[0]), newBytesVec(ops[1])
	return fixedRows(ev, c.T, ops, func(i int) (int64, outcome) {
		v := s.At(i)
		j := bytes.Index(v, sub.At(i))
		if j < 0 {
			return 0, ValueOK
		}
		return int64(utf8.RuneCount(v[:j])) + 1, ValueOK
	}, nil)
}

// bytesPredicate is a BOOLEAN kernel of two STRING operands.
func bytesPredicate(f func(s, x []byte) bool) func(*evaluator, *planner.Call, []operand) (arrow.Array, error) {
	return func(ev *evaluator, _ *planner.Call, ops []operand) (arrow.Array, error) {
		s, x := newBytesVec(ops[0]), newBytesVec(ops[1])
		return ev.boolRows(ops, func(i int) bool { return f(s.At(i), x.At(i)) }), nil
	}
}

// concatWSKernel joins the non-NULL values with the separator, the first
// operand; only a NULL separator makes the row NULL (the binder dropped
// NULL constants). An array operand contributes its non-NULL elements.
func concatWSKernel(ev *evaluator, c *planner.Call, ops []operand) (arrow.Array, error) {
	if ops[0].isNullLiteral() {
		return ev.allNull(c.T), nil
	}
	sep := newBytesVec(ops[0])
	vals := make([]*BytesVec, len(ops)-1)
	lists := make([]*array.List, len(ops)-1)
	for k, o := range ops[1:] {
		switch {
		case o.isNullLiteral():
		case o.t.ID() == arrow.LIST:
			a, err := ev.materialize(o)
			if err != nil {
				return nil, err
			}
			defer a.Release()
			lists[k] = a.(*array.List)
			vals[k] = ArrayBytes(lists[k].ListValues())
		default:
			vals[k] = newBytesVec(o)
		}
	}
	return ev.stringRows(ops[:1], func(dst []byte, i int) []byte {
		first := true
		add := func(v []byte) {
			if !first {
				dst = append(dst, sep.At(i)...)
			}
			first = false
			dst = append(dst, v...)
		}
		for k, v := range vals {
			switch a := ops[k+1].arr; {
			case v == nil || a != nil && a.IsNull(i):
			case lists[k] != nil:
				elems := lists[k].ListValues()
				lo, hi := lists[k].ValueOffsets(i)
				for j := int(lo); j < int(hi); j++ {
					if elems.IsValid(j) {
						add(v.At(j))
					}
				}
			default:
				add(v.At(i))
			}
		}
		return dst
	}), nil
}

// regexpExtractKernel returns the given group of the first match, or ”
// when the pattern does not match or the group took no part in the match
// (as Spark does).
func regexpExtractKernel(ev *evaluator, c *planner.Call, ops []operand) (arrow.Array, error) {
	s, pattern, group := newBytesVec(ops[0]), newBytesVec(ops[1]), fixedVec[int64](ops[2])
	var cache regexpCache
	var err error
	out := ev.stringRows(ops, func(dst []byte, i int) []byte {
		re, e := cache.get(pattern.At(i))
		if e != nil {
			err = e
			return dst
		}
		g := group.At(i)
		if g < 0 || g > int64(re.NumSubexp()) {
			err = fmt.Errorf("the pattern %q has %d groups, so there is no group %d", pattern.At(i), re.NumSubexp(), g)
			return dst
		}
		m := re.FindSubmatchIndex(s.At(i))
		if m == nil || m[2*g] < 0 {
			return dst
		}
		return append(dst, s.At(i)[m[2*g]:m[2*g+1]]...)
	})
	return releaseOnError(out, wrapError(c, err))
}
