package expr

import (
	"bytes"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakesql/lakesql/planner"
)

// translateKernel is translate(s, from, to): each character of s found in
// from becomes the character at the same place in to, or is dropped when
// to has no character there; the first place of a repeated character of
// from counts, as in DuckDB and PostgreSQL.
func translateKernel(ev *evaluator, _ *planner.Call, ops []operand) (arrow.Array, error) {
	s, from, to := newBytesVec(ops[0]), newBytesVec(ops[1]), newBytesVec(ops[2])
	var tr translation
	return ev.stringRows(ops, func(dst []byte, i int) []byte {
		tr.set(from.At(i), to.At(i))
		for _, r := range unsafeString(s.At(i)) {
			k, found := tr.place[r]
			switch {
			case !found:
				dst = utf8.AppendRune(dst, r)
			case k < len(tr.to):
				dst = utf8.AppendRune(dst, tr.to[k])
			}
		}
		return dst
	}), nil
}

// translation is the character map of one from and to, rebuilt only when
// a row's differ from the previous row's, so constant ones are read once
// per batch.
type translation struct {
	to               []rune
	fromText, toText []byte
	place            map[rune]int // each character of from to its first place
}

func (tr *translation) set(from, to []byte) {
	if tr.place != nil && bytes.Equal(from, tr.fromText) && bytes.Equal(to, tr.toText) {
		return
	}
	tr.fromText, tr.toText = append(tr.fromText[:0], from...), append(tr.toText[:0], to...)
	tr.to = appendRunes(tr.to[:0], to)
	tr.place = make(map[rune]int, len(from))
	k := 0
	for _, r := range unsafeString(from) {
		if _, seen := tr.place[r]; !seen {
			tr.place[r] = k
		}
		k++
	}
}
