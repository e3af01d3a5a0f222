package testutil

import (
	"slices"
	"strings"
	"testing"
)

func TestRowsRenderCellsJoinedByBar(t *testing.T) {
	s, _ := Open(t, "CREATE NAMESPACE db", "CREATE TABLE db.t (a INT, b STRING)",
		"INSERT INTO db.t VALUES (2, NULL), (1, 'x'), (3, '')")
	if got, want := RowsInOrder(t, s, "SELECT a, b FROM db.t ORDER BY a DESC"), []string{"3|", "2|NULL", "1|x"}; !slices.Equal(got, want) {
		t.Errorf("RowsInOrder = %q, want %q", got, want)
	}
	if got, want := Rows(t, s, "SELECT a, b FROM db.t ORDER BY a DESC"), []string{"1|x", "2|NULL", "3|"}; !slices.Equal(got, want) {
		t.Errorf("Rows = %q, want %q (sorted)", got, want)
	}
	if got := Message(t, s, "INSERT INTO db.t VALUES (4, 'y')"); got != "1 row inserted" {
		t.Errorf("Message = %q", got)
	}
	if got := Error(t, s, "SELECT nope FROM db.t"); !strings.Contains(got, "nope") {
		t.Errorf("Error = %q, want it to name the column", got)
	}
	if files := LiveFiles(t, s, "db", "t"); len(files) != 2 {
		t.Errorf("LiveFiles = %v, want the files of the two INSERTs", files)
	}
}

func TestDiffRows(t *testing.T) {
	got := DiffRows([]string{"a", "c", "d"}, []string{"a", "b", "d"})
	if !strings.Contains(got, "1 missing:\n  b") || !strings.Contains(got, "1 unexpected:\n  c") {
		t.Errorf("DiffRows = %s", got)
	}
}
