package value

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// quoteLimit is how many characters of a value an error message shows.
const quoteLimit = 80

// Quote spells text for an error message as a SQL string literal: clipped
// to 80 characters (with "…" and the full length after a longer one), with
// control bytes and invalid UTF-8 escaped as Go escapes them — so that a
// 1 MB literal or a NUL byte cannot flood or break the one-line message.
func Quote(text string) string {
	n := utf8.RuneCountInString(text)
	suffix := ""
	if n > quoteLimit {
		cut := 0
		for i := 0; i < quoteLimit; i++ {
			_, size := utf8.DecodeRuneInString(text[cut:])
			cut += size
		}
		text, suffix = text[:cut], "… ("+strconv.Itoa(n)+" characters)"
	}
	escaped := strconv.Quote(text)
	escaped = strings.ReplaceAll(escaped[1:len(escaped)-1], `\"`, `"`)
	return "'" + strings.ReplaceAll(escaped, "'", "''") + "'" + suffix
}
