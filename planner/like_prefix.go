package planner

import (
	"strings"
	"unicode/utf8"
)

// likeShape is what a LIKE pattern says about the start of a match.
type likeShape int

const (
	likeOther  likeShape = iota // the prefix is implied, the rest matters too ('a_p%')
	likePrefix                  // exactly the strings with the prefix ('ap%')
	likeEqual                   // exactly the prefix itself, no wildcard ('apple')
)

// likePrefixOf reads the literal text before a pattern's first wildcard,
// unescaping escape (empty: none; LIKE without ESCAPE uses '\', as the
// executor does). ok is false for a malformed pattern.
func likePrefixOf(pattern, escape string) (prefix string, shape likeShape, ok bool) {
	esc := rune(-1)
	if escape != "" {
		r, size := utf8.DecodeRuneInString(escape)
		if size != len(escape) {
			return "", likeOther, false
		}
		esc = r
	}
	var b strings.Builder
	escaped := false
	for i, r := range pattern {
		switch {
		case escaped:
			b.WriteRune(r)
			escaped = false
		case r == esc:
			escaped = true
		case r == '%' || r == '_':
			if strings.Trim(pattern[i:], "%") == "" {
				return b.String(), likePrefix, true
			}
			return b.String(), likeOther, true
		default:
			b.WriteRune(r)
		}
	}
	if escaped {
		return "", likeOther, false
	}
	return b.String(), likeEqual, true
}
