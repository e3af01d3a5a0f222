package lakesql

import (
	"context"
	"testing"
)

func TestSessionTimeZone(t *testing.T) {
	s, err := Open(context.Background(), Options{Warehouse: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	mustExec(t, s, "SET TIME ZONE 'Europe/Berlin'")
	for q, want := range map[string]string{
		"SELECT TIMESTAMPTZ '2026-01-15 10:00:00+00'":                                        "2026-01-15 11:00:00+01",
		"SELECT CAST(TIMESTAMPTZ '2026-03-29 00:30:00+00' AS STRING)":                        "2026-03-29 01:30:00+01",
		"SELECT hour(TIMESTAMPTZ '2026-03-29 01:30:00+00')":                                  "3",
		"SELECT CAST(TIMESTAMPTZ '2026-01-15 23:30:00+00' AS DATE)":                          "2026-01-16",
		"SELECT CAST('2026-07-01 12:00' AS TIMESTAMPTZ) = TIMESTAMPTZ '2026-07-01 10:00+00'": "true",
	} {
		got := queryRows(t, s, q)
		if len(got) != 1 || got[0] != want {
			t.Errorf("%s: got %v, want %s", q, got, want)
		}
	}
	if _, err := s.Exec(context.Background(), "SET TIME ZONE 'Mars/Olympus'"); err == nil {
		t.Error("unknown zone accepted")
	}
}
