package sql

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestKeywordsComplete checks that every word the parser matches appears in
// Keywords, so tab completion keeps up with the grammar.
func TestKeywordsComplete(t *testing.T) {
	files, err := filepath.Glob("parse*.go")
	if err != nil {
		t.Fatal(err)
	}
	kws := Keywords()
	word := regexp.MustCompile(`(?:acceptWord|expectWord|eatWord|isWord|wordBeforeName)\("([a-z_]+)"\)`)
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range word.FindAllStringSubmatch(string(src), -1) {
			if _, found := slices.BinarySearch(kws, strings.ToUpper(m[1])); !found {
				t.Errorf("%s: %q is missing from Keywords", f, m[1])
			}
		}
	}
	if !slices.IsSorted(kws) {
		t.Error("Keywords is not sorted")
	}
	kws[0] = "changed"
	if Keywords()[0] == "changed" {
		t.Error("Keywords returns its internal slice")
	}
}

func TestReservedWordsNeedQuotes(t *testing.T) {
	for _, w := range reservedWords {
		if _, err := ParseOne("SELECT " + w + "x FROM t"); err != nil {
			t.Errorf("%sx: %v", w, err) // a reserved word is only reserved whole
		}
		if _, err := ParseOne(`SELECT "` + w + `" FROM "` + w + `"`); err != nil {
			t.Errorf("quoted %s: %v", w, err)
		}
	}
}
