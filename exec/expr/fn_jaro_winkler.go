package expr

// jaroKernel is jaro_similarity(a, b).
var jaroKernel = runePairKernel(func() func(a, b []rune) (float64, error) {
	var matched []bool
	return func(a, b []rune) (float64, error) {
		var sim float64
		sim, matched = jaro(a, b, matched)
		return sim, nil
	}
})

// jaroWinklerKernel is jaro_winkler_similarity(a, b).
var jaroWinklerKernel = runePairKernel(func() func(a, b []rune) (float64, error) {
	var matched []bool
	return func(a, b []rune) (float64, error) {
		var sim float64
		sim, matched = jaroWinkler(a, b, matched)
		return sim, nil
	}
})

// jaroWinkler is the Jaro similarity of a and b, moved a tenth of the way
// to 1 for each character of a common prefix of up to four when it is
// above 0.7; matched is jaro's scratch space.
func jaroWinkler(a, b []rune, matched []bool) (float64, []bool) {
	sim, matched := jaro(a, b, matched)
	if sim <= 0.7 {
		return sim, matched
	}
	prefix := 0
	for prefix < min(len(a), len(b), 4) && a[prefix] == b[prefix] {
		prefix++
	}
	return sim + float64(prefix)*0.1*(1-sim), matched
}

// jaro is the Jaro similarity of a and b, 0 when either is empty (as in
// DuckDB, which takes it from RapidFuzz); matched is scratch space reused
// from the last call. A character of a matches an unmatched equal one of
// b at most max(len)/2-1 places away; half the matched characters that
// are out of order, rounded down, count as transpositions.
func jaro(a, b []rune, matched []bool) (float64, []bool) {
	if len(a) == 0 || len(b) == 0 {
		return 0, matched
	}
	matched = append(matched[:0], make([]bool, len(a)+len(b))...)
	inA, inB := matched[:len(a)], matched[len(a):]
	window := max(max(len(a), len(b))/2-1, 0)
	common := 0
	for i, r := range a {
		for j := max(i-window, 0); j < min(i+window+1, len(b)); j++ {
			if !inB[j] && b[j] == r {
				inA[i], inB[j] = true, true
				common++
				break
			}
		}
	}
	if common == 0 {
		return 0, matched
	}
	outOfOrder, j := 0, 0
	for i, r := range a {
		if !inA[i] {
			continue
		}
		for !inB[j] {
			j++
		}
		if r != b[j] {
			outOfOrder++
		}
		j++
	}
	m := float64(common)
	sim := m/float64(len(a)) + m/float64(len(b)) + (m-float64(outOfOrder/2))/m
	return sim / 3, matched
}
