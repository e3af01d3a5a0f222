package expr

// levenshteinKernel is levenshtein(a, b): the fewest insertions, deletions
// and substitutions of characters that turn a into b.
var levenshteinKernel = runePairKernel(func() func(a, b []rune) (int64, error) {
	var row []int64
	return func(a, b []rune) (int64, error) {
		row = levenshtein(a, b, row)
		return row[len(row)-1], nil
	}
})

// levenshtein fills row, reused from the last call, with the distances
// from all of a to each prefix of the shorter b (a's last row of the
// Wagner–Fischer table), so the result is its last element.
func levenshtein(a, b []rune, row []int64) []int64 {
	if len(a) < len(b) {
		a, b = b, a
	}
	row = row[:0]
	for j := range len(b) + 1 {
		row = append(row, int64(j))
	}
	for i, ra := range a {
		diag := row[0] // the distance between a[:i] and b[:j-1]
		row[0] = int64(i + 1)
		for j, rb := range b {
			up := row[j+1]
			cost := int64(1)
			if ra == rb {
				cost = 0
			}
			row[j+1] = min(up+1, row[j]+1, diag+cost)
			diag = up
		}
	}
	return row
}
