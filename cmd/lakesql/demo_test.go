package main

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/lakesql/lakesql/internal/demo"
)

// withDemo installs build as the demo generator for the test.
func withDemo(t *testing.T, build func(context.Context, demo.Options) error) {
	t.Helper()
	saved := buildDemo
	t.Cleanup(func() { buildDemo = saved })
	buildDemo = build
}

func TestDemoDefaults(t *testing.T) {
	t.Setenv("LAKESQL_WAREHOUSE", "")
	var got demo.Options
	withDemo(t, func(_ context.Context, o demo.Options) error { got = o; return nil })
	r := runCLI(t, &fakeSession{}, "", "demo")
	if r.code != exitOK {
		t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
	}
	want := demo.Options{Warehouse: "./warehouse", Days: 7, EventsPerDay: 10000,
		Start: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	if got.Warehouse != want.Warehouse || got.Days != want.Days ||
		got.EventsPerDay != want.EventsPerDay || !got.Start.Equal(want.Start) || got.Progress == nil {
		t.Errorf("BuildDemo got %+v, want %+v with a Progress writer", got, want)
	}
	if r.stdout != "Demo warehouse ready in ./warehouse: 70000 events over 7 days from 2026-01-01.\n" {
		t.Errorf("stdout %q", r.stdout)
	}
}

func TestDemoFlags(t *testing.T) {
	var got demo.Options
	withDemo(t, func(_ context.Context, o demo.Options) error { got = o; return nil })
	for _, args := range [][]string{
		{"demo", "--warehouse", "/w", "--days", "3", "--events-per-day", "5", "--start", "2025-02-28"},
		{"--warehouse", "/w", "demo", "--days", "3", "--events-per-day", "5", "--start", "2025-02-28"},
	} {
		r := runCLI(t, &fakeSession{}, "", args...)
		if r.code != exitOK {
			t.Fatalf("%q: exit %d, stderr %q", args, r.code, r.stderr)
		}
		if got.Warehouse != "/w" || got.Days != 3 || got.EventsPerDay != 5 ||
			!got.Start.Equal(time.Date(2025, 2, 28, 0, 0, 0, 0, time.UTC)) {
			t.Errorf("%q: BuildDemo got %+v", args, got)
		}
	}
}

func TestDemoErrors(t *testing.T) {
	withDemo(t, func(context.Context, demo.Options) error { return errors.New("disk full") })
	cases := []struct {
		args []string
		code int
		err  string
	}{
		{[]string{"demo", "--days", "0"}, exitUsage, "Error: demo: --days must be positive, got 0\n"},
		{[]string{"demo", "--events-per-day", "-1"}, exitUsage, "Error: demo: --events-per-day must be positive, got -1\n"},
		{[]string{"demo", "--start", "yesterday"}, exitUsage, "Error: demo: --start must be a date like 2026-01-01, got \"yesterday\"\n"},
		{[]string{"demo", "extra"}, exitUsage, "Error: demo: unexpected argument \"extra\"\n"},
		{[]string{"demo"}, exitError, "Error: demo: disk full\n"},
	}
	for _, c := range cases {
		r := runCLI(t, &fakeSession{}, "", c.args...)
		if r.code != c.code || r.stderr[:min(len(r.stderr), len(c.err))] != c.err {
			t.Errorf("%q: exit %d, stderr %q; want %d, %q", c.args, r.code, r.stderr, c.code, c.err)
		}
	}
}
