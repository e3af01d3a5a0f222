package main

import (
	"context"
	"slices"
	"strings"
	"time"
	"unicode"
)

// namesTimeout bounds how long Tab waits for the catalog, so a slow warehouse
// makes completion incomplete rather than freezing the prompt.
const namesTimeout = 2 * time.Second

// completer implements readline.AutoCompleter for SQL keywords, table names
// and column names. Names come from the session and are cached until a
// statement runs, since any statement may have created or dropped tables.
//
// readline calls Do only while it reads a line, and statements run only
// between reads, so the completer never uses the session concurrently with a
// statement.
type completer struct {
	keywords []string // upper case
	sess     session
	loaded   bool
	tables   []string
	columns  []string
}

func newCompleter(keywords []string, sess session) *completer {
	return &completer{keywords: keywords, sess: sess}
}

// invalidate forgets the cached names; the next Tab reloads them.
func (c *completer) invalidate() { c.loaded = false }

// Do returns the completions of the word before the cursor as suffixes to
// insert, and the length of the word part they complete.
func (c *completer) Do(line []rune, pos int) (suffixes [][]rune, length int) {
	// A panic here would kill readline's goroutine and with it the shell;
	// completing nothing is the better failure.
	defer func() {
		if recover() != nil {
			suffixes, length = nil, 0
		}
	}()
	word := wordBefore(line, pos)
	if word == "" {
		return nil, 0
	}
	c.load()
	found, length := completions(word, c.keywords, c.tables, c.columns)
	for _, s := range found {
		suffixes = append(suffixes, []rune(s))
	}
	return suffixes, length
}

func (c *completer) load() {
	if c.loaded {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), namesTimeout)
	defer cancel()
	c.tables = c.sess.TableNames(ctx)
	c.columns = c.sess.ColumnNames(ctx)
	c.loaded = true
}

// wordBefore returns the identifier-like word (letters, digits, '_', '.')
// that ends at pos.
func wordBefore(line []rune, pos int) string {
	pos = min(pos, len(line))
	start := pos
	for start > 0 && isWordRune(line[start-1]) {
		start--
	}
	return string(line[start:pos])
}

func isWordRune(r rune) bool {
	return r == '_' || r == '.' || unicode.IsLetter(r) || unicode.IsDigit(r)
}

// completions returns the sorted, distinct suffixes that complete word, and
// the rune length of the part of word they extend.
//
// A plain word completes keywords, table names (qualified "ns.t" and bare
// "t") and column names. A dotted word "q.x" completes x, as a table of
// namespace q or as a column (q may be a table or an alias). Matching ignores
// case; keywords take the case of what was typed, lower case unless the word
// has an upper-case letter.
func completions(word string, keywords, tables, columns []string) ([]string, int) {
	qualifier, part := "", word
	if i := strings.LastIndexByte(word, '.'); i >= 0 {
		qualifier, part = word[:i], word[i+1:]
	}
	var candidates []string
	if qualifier == "" {
		candidates = append(candidates, keywordsLike(keywords, part)...)
		for _, t := range tables {
			candidates = append(candidates, t)
			if _, bare, ok := cutLast(t, "."); ok {
				candidates = append(candidates, bare)
			}
		}
	} else {
		for _, t := range tables {
			if ns, bare, ok := cutLast(t, "."); ok && strings.EqualFold(ns, qualifier) {
				candidates = append(candidates, bare)
			}
		}
	}
	candidates = append(candidates, columns...)

	prefix := []rune(part)
	var suffixes []string
	for _, cand := range candidates {
		r := []rune(cand)
		if len(r) >= len(prefix) && strings.EqualFold(string(r[:len(prefix)]), part) {
			suffixes = append(suffixes, string(r[len(prefix):]))
		}
	}
	slices.Sort(suffixes)
	return slices.Compact(suffixes), len(prefix)
}

// keywordsLike returns keywords in the case style of typed.
func keywordsLike(keywords []string, typed string) []string {
	if strings.ToLower(typed) != typed {
		return keywords
	}
	lower := make([]string, len(keywords))
	for i, k := range keywords {
		lower[i] = strings.ToLower(k)
	}
	return lower
}

func cutLast(s, sep string) (before, after string, found bool) {
	i := strings.LastIndex(s, sep)
	if i < 0 {
		return s, "", false
	}
	return s[:i], s[i+len(sep):], true
}
