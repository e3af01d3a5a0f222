package sql

import "strings"

// Split cuts text at the ';'s that lie outside strings, quoted identifiers and
// comments, without parsing it, so a REPL can tell when a statement is complete.
// stmts are the complete statements, trimmed and without their ';'; statements
// holding only white space and comments are dropped. rest is the text after the
// last ';', verbatim so that more input can be appended to it, or "" when it
// holds nothing but white space and complete comments.
func Split(text string) (stmts []string, rest string) {
	start, hasContent := 0, false
	for i := 0; i < len(text); {
		c := text[i]
		switch {
		case c == '\'' || c == '"' || c == '`':
			end := closingQuote(text, i+1, c)
			if end < 0 {
				return stmts, text[start:]
			}
			i, hasContent = end+1, true
		case strings.HasPrefix(text[i:], "--"):
			end := strings.IndexByte(text[i:], '\n')
			if end < 0 {
				i = len(text)
			} else {
				i += end + 1
			}
		case strings.HasPrefix(text[i:], "/*"):
			end := strings.Index(text[i+2:], "*/")
			if end < 0 {
				return stmts, text[start:]
			}
			i += end + 4
		case c == ';':
			if hasContent {
				stmts = append(stmts, strings.TrimSpace(text[start:i]))
			}
			i++
			start, hasContent = i, false
		default:
			if c != ' ' && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != '\v' {
				hasContent = true
			}
			i++
		}
	}
	if !hasContent {
		return stmts, ""
	}
	return stmts, text[start:]
}

// closingQuote returns the index of the quote q closing a run that starts at i,
// where a doubled quote stands for one, or -1 if the run is unterminated.
func closingQuote(text string, i int, q byte) int {
	for {
		end := strings.IndexByte(text[i:], q)
		if end < 0 {
			return -1
		}
		i += end
		if i+1 < len(text) && text[i+1] == q {
			i += 2
			continue
		}
		return i
	}
}
