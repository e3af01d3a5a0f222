package sql

import "strings"

// Closest returns the candidate nearest to name by edit distance, ignoring
// case, when it is near enough to be a likely typo; otherwise "".
func Closest(name string, candidates []string) string {
	// Up to about half the name may differ (lenght → length is 2 edits);
	// a one-letter name only matches itself, so "x" does not suggest "a".
	best, bestDist := "", len(name)/2+1
	for _, c := range candidates {
		if d := editDistance(strings.ToLower(name), strings.ToLower(c)); d < bestDist {
			best, bestDist = c, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance between a and b.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
