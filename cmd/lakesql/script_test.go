package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestScriptsGolden runs each testdata/scripts/*.sql against the real engine
// in a fresh warehouse, once with -f and once piped into standard input, and
// compares standard output, standard error and the files the script wrote
// with testdata/scripts/NAME.{file,stdin}.golden (go test -update rewrites
// them).
func TestScriptsGolden(t *testing.T) {
	scripts, err := filepath.Glob("testdata/scripts/*.sql")
	if err != nil || len(scripts) == 0 {
		t.Fatalf("no scripts: %v", err)
	}
	for _, script := range scripts {
		src, err := os.ReadFile(script)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(script)
		for _, way := range []string{"file", "stdin"} {
			golden, err := filepath.Abs(strings.TrimSuffix(script, ".sql") + "." + way + ".golden")
			if err != nil {
				t.Fatal(err)
			}
			t.Run(name+"/"+way, func(t *testing.T) {
				dir := t.TempDir()
				if err := os.WriteFile(filepath.Join(dir, name), src, 0o644); err != nil {
					t.Fatal(err)
				}
				t.Chdir(dir)
				if err := os.Mkdir("wh", 0o755); err != nil {
					t.Fatal(err)
				}
				args, stdin := []string{"--warehouse", "wh"}, ""
				if way == "file" {
					args = append(args, "-f", name)
				} else {
					stdin = string(src)
				}
				var stdout, stderr bytes.Buffer
				code := run(args, strings.NewReader(stdin), &stdout, &stderr)
				got := "--- exit " + map[int]string{exitOK: "0", exitError: "1"}[code] +
					"\n--- stdout\n" + stdout.String() + "--- stderr\n" + stderr.String() + writtenFiles(t, dir, name)
				checkGoldenFile(t, golden, got)
			})
		}
	}
}

// writtenFiles lists the files a script wrote beside itself, with their
// contents.
func writtenFiles(t *testing.T, dir, script string) string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		if !e.IsDir() && e.Name() != script && e.Name() != "wh" {
			names = append(names, e.Name())
		}
	}
	slices.Sort(names)
	var b strings.Builder
	for _, n := range names {
		content, err := os.ReadFile(filepath.Join(dir, n))
		if err != nil {
			t.Fatal(err)
		}
		b.WriteString("--- file " + n + "\n" + string(content))
	}
	return b.String()
}
