package main

import (
	"context"
	"slices"
	"testing"
)

func TestWordBefore(t *testing.T) {
	cases := []struct {
		line string
		pos  int
		want string
	}{
		{"SELECT co", 9, "co"},
		{"select * from web.ev", 20, "web.ev"},
		{"SELECT a,b", 10, "b"},
		{"SELECT x FROM t", 8, "x"},
		{"SELECT ", 7, ""},
		{"", 0, ""},
		{"ab", 5, "ab"},
	}
	for _, c := range cases {
		if got := wordBefore([]rune(c.line), c.pos); got != c.want {
			t.Errorf("wordBefore(%q, %d) = %q, want %q", c.line, c.pos, got, c.want)
		}
	}
}

func TestCompletions(t *testing.T) {
	keywords := []string{"SELECT", "SET", "SHOW", "FROM"}
	tables := []string{"web.events", "web.sessions", "ops.events"}
	columns := []string{"event_id", "session_id", "ts"}
	cases := []struct {
		word   string
		want   []string
		length int
	}{
		{"se", []string{"ssions", "ssion_id", "t", "lect"}, 2},
		{"SE", []string{"LECT", "T", "ssion_id", "ssions"}, 2},
		{"Sh", []string{"OW"}, 2},
		{"web.", []string{"event_id", "events", "session_id", "sessions", "ts"}, 0},
		{"ops.ev", []string{"ent_id", "ents"}, 2},
		{"e.sess", []string{"ion_id"}, 4},
		{"ev", []string{"ent_id", "ents"}, 2},
		{"web.ev", []string{"ent_id", "ents"}, 2},
		{"zz", nil, 2},
	}
	for _, c := range cases {
		got, length := completions(c.word, keywords, tables, columns)
		slices.Sort(c.want)
		if !slices.Equal(got, c.want) || length != c.length {
			t.Errorf("completions(%q) = %q, %d; want %q, %d", c.word, got, length, c.want, c.length)
		}
	}
}

func TestCompleterCachesNamesUntilInvalidated(t *testing.T) {
	sess := &fakeSession{tables: []string{"web.events"}}
	c := newCompleter([]string{"SELECT"}, sess)
	got, length := c.Do([]rune("FROM eve"), 8)
	if len(got) != 1 || string(got[0]) != "nts" || length != 3 {
		t.Fatalf("Do = %q, %d", got, length)
	}
	sess.tables = []string{"web.events", "web.everything"}
	if got, _ := c.Do([]rune("eve"), 3); len(got) != 1 {
		t.Errorf("names reloaded before invalidate: %q", got)
	}
	c.invalidate()
	if got, _ := c.Do([]rune("eve"), 3); len(got) != 2 {
		t.Errorf("names not reloaded after invalidate: %q", got)
	}
	if got, _ := c.Do([]rune("SELECT "), 7); got != nil {
		t.Errorf("completed an empty word: %q", got)
	}
}

type panickingSession struct{ fakeSession }

func (panickingSession) TableNames(context.Context) []string { panic("catalog exploded") }

func TestCompleterSurvivesPanics(t *testing.T) {
	c := newCompleter(nil, &panickingSession{})
	if got, length := c.Do([]rune("se"), 2); got != nil || length != 0 {
		t.Errorf("Do = %q, %d after a panic", got, length)
	}
}
