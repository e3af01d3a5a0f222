package expr

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
)

// TestLikeSegmentsMatchRegexp compares the search-based matching of LIKE
// patterns made of literals and % with the regexp LIKE compiles to
// otherwise, on random strings and patterns over a small alphabet (so that
// literals overlap and repeat).
func TestLikeSegmentsMatchRegexp(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	word := func(n int) string {
		var b strings.Builder
		for range r.IntN(n) {
			b.WriteByte("abc"[r.IntN(3)])
		}
		return b.String()
	}
	for range 3000 {
		var pattern, re strings.Builder
		re.WriteString("(?s)^")
		for range 1 + r.IntN(5) {
			if r.IntN(2) == 0 {
				pattern.WriteByte('%')
				re.WriteString(".*")
			} else {
				w := word(4)
				pattern.WriteString(w)
				re.WriteString(regexp.QuoteMeta(w))
			}
		}
		re.WriteString("$")
		m, err := compileLike(pattern.String(), "", false)
		if err != nil {
			t.Fatal(err)
		}
		want := regexp.MustCompile(re.String())
		for range 20 {
			s := word(10)
			if got := m.match([]byte(s)); got != want.MatchString(s) {
				t.Fatalf("%q LIKE %q: got %v, want %v", s, pattern.String(), got, !got)
			}
		}
	}
}
