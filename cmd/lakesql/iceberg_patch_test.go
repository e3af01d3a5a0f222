package main

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// patchedIcebergFiles are the files third_party/iceberg-go changes; see
// third_party/iceberg-go/LAKESQL-PATCH.md.
var patchedIcebergFiles = map[string]bool{
	"internal/avro_schemas.go":     true,
	"table/substrait/substrait.go": true,
}

// eagerSubstrait matches upstream's package-level load of Substrait's
// extension YAML, the start-up cost the patch removes.
var eagerSubstrait = regexp.MustCompile(`(?m)^\s*collection\s*=\s*extensions\.GetDefaultCollectionWithNoError\(\)`)

type goModule struct {
	Path, Version, Dir string
	Replace            *goModule
}

func goJSON(t *testing.T, v any, args ...string) error {
	t.Helper()
	cmd := exec.Command("go", args...)
	cmd.Dir = ".."
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Logf("go %s: %v: %s", strings.Join(args, " "), err, stderr.String())
		return err
	}
	return json.Unmarshal(out, v)
}

// upstreamIceberg returns the unpatched module source of version, from the
// module cache or the proxy; the test is skipped when neither has it.
func upstreamIceberg(t *testing.T, version string) string {
	var m goModule
	if err := goJSON(t, &m, "mod", "download", "-json", "github.com/apache/iceberg-go@"+version); err != nil || m.Dir == "" {
		t.Skipf("upstream iceberg-go %s is not available offline", version)
	}
	return m.Dir
}

func TestIcebergPatchIsStillNeededAndMinimal(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	var m goModule
	if err := goJSON(t, &m, "list", "-m", "-json", "github.com/apache/iceberg-go"); err != nil {
		t.Fatal(err)
	}
	upstream := upstreamIceberg(t, m.Version)
	src, err := os.ReadFile(filepath.Join(upstream, "table/substrait/substrait.go"))
	if err != nil {
		t.Fatal(err)
	}
	eager := eagerSubstrait.Match(src)
	if m.Replace == nil {
		if eager {
			t.Fatalf("go.mod requires iceberg-go %s, which still loads Substrait's extensions at init (0.2 s of every start-up): port third_party/iceberg-go/lakesql.patch to it and point the replace directive at %s", m.Version, m.Version)
		}
		if _, err := os.Stat("../../third_party/iceberg-go"); err == nil {
			t.Fatalf("iceberg-go %s initialises Substrait lazily: delete third_party/iceberg-go, it is no longer used", m.Version)
		}
		return
	}
	if !eager {
		t.Fatalf("upstream iceberg-go %s no longer loads Substrait at init: drop the replace directive and third_party/iceberg-go", m.Version)
	}

	// The vendored copy is upstream plus the documented patch, nothing else.
	vendored := m.Replace.Dir
	err = filepath.WalkDir(vendored, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(vendored, path)
		if rel == "lakesql.patch" || rel == "LAKESQL-PATCH.md" {
			return nil
		}
		ours, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		theirs, err := os.ReadFile(filepath.Join(upstream, rel))
		if err != nil {
			t.Errorf("%s is not in upstream iceberg-go %s", rel, m.Version)
			return nil
		}
		if same := bytes.Equal(ours, theirs); same == patchedIcebergFiles[filepath.ToSlash(rel)] {
			if same {
				t.Errorf("%s should carry the lakesql patch but equals upstream", rel)
			} else {
				t.Errorf("%s differs from upstream iceberg-go %s but is not part of lakesql.patch", rel, m.Version)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
