package expr

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakesql/lakesql/planner"
)

// concat evaluates a || b || …; NULL if any argument is NULL.
func (ev *evaluator) concat(ops []operand) (arrow.Array, error) {
	for _, o := range ops {
		if o.isNullLiteral() {
			return ev.allNull(planner.TypeVarchar), nil
		}
	}
	views := make([]*BytesVec, len(ops))
	for i, o := range ops {
		views[i] = newBytesVec(o)
	}
	return ev.stringRows(ops, func(dst []byte, i int) []byte {
		for _, v := range views {
			dst = append(dst, v.At(i)...)
		}
		return dst
	}), nil
}

// defaultLikeEscape is the escape character when LIKE has no ESCAPE clause,
// as in DuckDB and Spark.
const defaultLikeEscape = '\\'

// like evaluates x [I]LIKE pattern [ESCAPE esc]. The pattern is compiled once
// when it is constant, and whenever it changes otherwise.
func (ev *evaluator) like(c *planner.Call, ops []operand) (arrow.Array, error) {
	for _, o := range ops {
		if o.isNullLiteral() {
			return ev.allNull(planner.TypeBoolean), nil
		}
	}
	fold := c.Fn == planner.FnILike
	x, pattern := newBytesVec(ops[0]), newBytesVec(ops[1])
	escape := &BytesVec{c: []byte{defaultLikeEscape}, isConst: true}
	if len(ops) == 3 {
		escape = newBytesVec(ops[2])
	}
	validity := ev.validity(ops...)
	out := ev.newBitmap()
	var err error
	if pattern.isConst && escape.isConst {
		var m *likeMatcher
		if m, err = compileLike(string(pattern.c), string(escape.c), fold); err == nil {
			likeRows(x, validity, out.Bytes(), ev.n, func(int) *likeMatcher { return m })
		}
	} else {
		err = ev.likeVarying(x, pattern, escape, validity, out.Bytes(), fold)
	}
	if err != nil {
		out.Release()
		if validity != nil {
			validity.Release()
		}
		return nil, fmt.Errorf("%s: %w", c, err)
	}
	return MakeArray(planner.TypeBoolean, ev.n, validity, out), nil
}

// likeRows sets the bits of the valid rows of x that match matcher(i).
func likeRows(x *BytesVec, validity *memory.Buffer, bits []byte, n int, matcher func(i int) *likeMatcher) {
	for i := 0; i < n; i++ {
		if validity != nil && !bitutil.BitIsSet(validity.Bytes(), i) {
			continue
		}
		if matcher(i).match(x.At(i)) {
			bitutil.SetBit(bits, i)
		}
	}
}

// likeVarying matches patterns that vary by row, recompiling only when the
// pattern or escape differs from the previous row's.
func (ev *evaluator) likeVarying(x, pattern, escape *BytesVec, validity *memory.Buffer, bits []byte, fold bool) error {
	var m *likeMatcher
	var lastPattern, lastEscape []byte
	var err error
	likeRows(x, validity, bits, ev.n, func(i int) *likeMatcher {
		p, e := pattern.At(i), escape.At(i)
		if err == nil && (m == nil || !bytes.Equal(p, lastPattern) || !bytes.Equal(e, lastEscape)) {
			var next *likeMatcher
			if next, err = compileLike(string(p), string(e), fold); err != nil {
				return &likeMatcher{kind: likeAll}
			}
			m, lastPattern, lastEscape = next, p, e
		}
		return m
	})
	return err
}

// likeKind is how a compiled pattern matches.
type likeKind uint8

const (
	likeExact    likeKind = iota // 'abc'
	likePrefix                   // 'abc%'
	likeSuffix                   // '%abc'
	likeContains                 // '%abc%'
	likeAll                      // '%'
	likeSegments                 // 'a%b%c', '%special%requests%': literals and % only
	likeRegexp                   // anything else
)

// likeMatcher is a compiled LIKE pattern. Patterns made of literals and %
// are matched with byte comparisons and searches; the rest (with _, or
// ILIKE) with a regexp, whose backtracking costs several times more.
type likeMatcher struct {
	kind likeKind
	lit  []byte
	// segs are the literals of a likeSegments pattern, in order; anchored
	// tells whether the pattern starts and ends with a literal.
	segs     [][]byte
	anchored [2]bool
	re       *regexp.Regexp
}

func (m *likeMatcher) match(s []byte) bool {
	switch m.kind {
	case likeExact:
		return bytes.Equal(s, m.lit)
	case likePrefix:
		return bytes.HasPrefix(s, m.lit)
	case likeSuffix:
		return bytes.HasSuffix(s, m.lit)
	case likeContains:
		return bytes.Contains(s, m.lit)
	case likeAll:
		return true
	case likeSegments:
		return m.matchSegments(s)
	}
	return m.re.Match(s)
}

// matchSegments finds the literals in order, each as early as it can be:
// with % as the only wildcard, the leftmost match of each literal leaves
// the most room for the rest, so no backtracking is needed.
func (m *likeMatcher) matchSegments(s []byte) bool {
	segs := m.segs
	if m.anchored[0] {
		if !bytes.HasPrefix(s, segs[0]) {
			return false
		}
		s, segs = s[len(segs[0]):], segs[1:]
	}
	var last []byte
	if m.anchored[1] {
		last, segs = segs[len(segs)-1], segs[:len(segs)-1]
	}
	for _, seg := range segs {
		i := bytes.Index(s, seg)
		if i < 0 {
			return false
		}
		s = s[i+len(seg):]
	}
	return bytes.HasSuffix(s, last)
}

// likeToken is a literal run of a pattern, or a wildcard ('%' or '_') when
// wild is set.
type likeToken struct {
	text string
	wild byte
}

// compileLike compiles pattern with the given escape character (empty: no
// escape). ILIKE (fold) always uses a case-insensitive regexp, which folds
// Unicode case correctly.
func compileLike(pattern, escape string, fold bool) (*likeMatcher, error) {
	tokens, err := tokenizeLike(pattern, escape)
	if err != nil {
		return nil, err
	}
	if !fold {
		if m := simpleLike(tokens); m != nil {
			return m, nil
		}
	}
	var re strings.Builder
	if fold {
		re.WriteString("(?i)")
	}
	re.WriteString("(?s)^")
	for _, t := range tokens {
		switch t.wild {
		case '%':
			re.WriteString(".*")
		case '_':
			re.WriteString(".")
		default:
			re.WriteString(regexp.QuoteMeta(t.text))
		}
	}
	re.WriteString("$")
	compiled, err := regexp.Compile(re.String())
	if err != nil {
		return nil, fmt.Errorf("LIKE pattern %q: %w", pattern, err)
	}
	return &likeMatcher{kind: likeRegexp, re: compiled}, nil
}

// tokenizeLike splits a pattern into literal runs and wildcards, merging
// consecutive '%'.
func tokenizeLike(pattern, escape string) ([]likeToken, error) {
	esc := rune(-1)
	if escape != "" {
		r, size := utf8.DecodeRuneInString(escape)
		if size != len(escape) {
			return nil, fmt.Errorf("LIKE escape %q must be a single character", escape)
		}
		esc = r
	}
	var tokens []likeToken
	var lit strings.Builder
	flush := func() {
		if lit.Len() > 0 {
			tokens = append(tokens, likeToken{text: lit.String()})
			lit.Reset()
		}
	}
	escaped := false
	for _, r := range pattern {
		switch {
		case escaped:
			lit.WriteRune(r)
			escaped = false
		case r == esc:
			escaped = true
		case r == '%' || r == '_':
			flush()
			if r == '%' && len(tokens) > 0 && tokens[len(tokens)-1].wild == '%' {
				continue
			}
			tokens = append(tokens, likeToken{wild: byte(r)})
		default:
			lit.WriteRune(r)
		}
	}
	if escaped {
		return nil, fmt.Errorf("LIKE pattern %q ends with the escape character", pattern)
	}
	flush()
	return tokens, nil
}

// simpleLike returns a byte-comparison matcher for patterns that are one
// literal with optional '%' at either end, or nil.
func simpleLike(tokens []likeToken) *likeMatcher {
	isAny := func(i int) bool { return tokens[i].wild == '%' }
	isLit := func(i int) bool { return tokens[i].wild == 0 }
	switch n := len(tokens); {
	case n == 0:
		return &likeMatcher{kind: likeExact}
	case n == 1 && isAny(0):
		return &likeMatcher{kind: likeAll}
	case n == 1 && isLit(0):
		return &likeMatcher{kind: likeExact, lit: []byte(tokens[0].text)}
	case n == 2 && isLit(0) && isAny(1):
		return &likeMatcher{kind: likePrefix, lit: []byte(tokens[0].text)}
	case n == 2 && isAny(0) && isLit(1):
		return &likeMatcher{kind: likeSuffix, lit: []byte(tokens[1].text)}
	case n == 3 && isAny(0) && isLit(1) && isAny(2):
		return &likeMatcher{kind: likeContains, lit: []byte(tokens[1].text)}
	}
	m := &likeMatcher{kind: likeSegments, anchored: [2]bool{isLit(0), isLit(len(tokens) - 1)}}
	for i, t := range tokens {
		switch {
		case t.wild == '_':
			return nil
		case isLit(i):
			m.segs = append(m.segs, []byte(t.text))
		}
	}
	return m
}
