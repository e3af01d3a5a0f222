package planner

// String functions of DuckDB that compare or map characters. They count
// Unicode characters (code points), as length and substr do; DuckDB's
// distance functions count bytes, so for text outside ASCII lakesql
// gives the edit distance a reader sees: levenshtein('é', 'e') is 1 here
// and 2 in DuckDB.
const (
	// translate(s, from, to STRING) → STRING: each character of s found
	// in from becomes the character at the same place in to, or is
	// dropped when to is shorter; the first place of a repeated character
	// counts.
	FnTranslate = "translate"
	// levenshtein(a, b STRING) → BIGINT: the fewest insertions, deletions
	// and substitutions of characters that turn a into b.
	FnLevenshtein = "levenshtein"
	// damerau_levenshtein(a, b STRING) → BIGINT: levenshtein that also
	// counts swapping two adjacent characters as one edit (the
	// unrestricted distance: 'ca' to 'abc' is 2).
	FnDamerauLevenshtein = "damerau_levenshtein"
	// hamming(a, b STRING) → BIGINT: the number of places where a and b
	// differ; strings of different lengths are an error.
	FnHamming = "hamming"
	// jaro_similarity(a, b STRING) → DOUBLE in [0, 1]; 0 when either is
	// empty, as in DuckDB.
	FnJaro = "jaro_similarity"
	// jaro_winkler_similarity(a, b STRING) → DOUBLE: jaro_similarity
	// raised for a common prefix of up to 4 characters, by 0.1 per
	// character, when it is above 0.7.
	FnJaroWinkler = "jaro_winkler_similarity"
)
