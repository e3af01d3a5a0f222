package engine

import (
	"fmt"
	"strings"
)

// explainListValues is how many values of an IN list EXPLAIN prints: a
// subquery or a join can supply hundreds, and a plan line should stay a
// line.
const explainListValues = 10

// clipInLists shortens every IN (…) list of s past explainListValues
// values to its first ones and a count of the rest. Quoted strings are
// skipped whole, so text inside one is never taken for a list, and a comma
// or parenthesis inside one counts for nothing.
func clipInLists(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\'' {
			end := quoteEnd(s, i)
			b.WriteString(s[i:end])
			i = end - 1
			continue
		}
		if !strings.HasPrefix(s[i:], "IN (") {
			b.WriteByte(s[i])
			continue
		}
		start := i + len("IN (")
		b.WriteString(s[i:start])
		end, commas := listEnd(s[start:])
		if values := len(commas) + 1; end >= 0 && values > explainListValues {
			fmt.Fprintf(&b, "%s, … %d more", s[start:start+commas[explainListValues-1]], values-explainListValues)
			start += end
		}
		i = start - 1
	}
	return b.String()
}

// quoteEnd is the position just past the quoted string that starts at
// s[i] (a quote; two quotes inside it stand for one), or len(s) when it is
// not closed.
func quoteEnd(s string, i int) int {
	for j := i + 1; j < len(s); j++ {
		if s[j] == '\'' {
			if j+1 < len(s) && s[j+1] == '\'' {
				j++
				continue
			}
			return j + 1
		}
	}
	return len(s)
}

// listEnd finds the ")" closing a list that s starts inside of, and the
// positions of the commas between its top-level values; end is -1 when the
// list is not closed.
func listEnd(s string) (end int, commas []int) {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\'':
			i = quoteEnd(s, i) - 1
		case '(':
			depth++
		case ')':
			if depth == 0 {
				return i, commas
			}
			depth--
		case ',':
			if depth == 0 {
				commas = append(commas, i)
			}
		}
	}
	return -1, nil
}
