package main

import (
	"bytes"
	"encoding/json"
	"go/format"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// patchedModule is a dependency that third_party/<dir> holds, patched for
// start-up time; see third_party/<dir>/LAKESQL-PATCH.md.
type patchedModule struct {
	dir  string // under third_party
	path string // module path
	// eager matches, in upstream's eagerFile, the package-level work the
	// patch makes lazy; when it no longer matches, the patch is not needed.
	eagerFile string
	eager     *regexp.Regexp
	cost      string // what the eager work costs, for the failure message
}

var patchedModules = []patchedModule{
	{"iceberg-go", "github.com/apache/iceberg-go", "table/arrow_filter_plan.go",
		regexp.MustCompile(`(?m)^\s*"github.com/apache/iceberg-go/table/substrait"$`),
		"Substrait linked into every binary: 28 packages, 5 MB, 0.27 MB allocated at init"},
	{"inflection", "github.com/jinzhu/inflection", "inflections.go",
		regexp.MustCompile(`(?m)^func init\(\) \{\s*compile\(\)`),
		"hundreds of regular expressions, 3 ms"},
}

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

// upstreamModule returns the unpatched source of path@version, from the
// module cache or the proxy; the test is skipped when neither has it.
func upstreamModule(t *testing.T, path, version string) string {
	var m goModule
	if err := goJSON(t, &m, "mod", "download", "-json", path+"@"+version); err != nil || m.Dir == "" {
		t.Skipf("upstream %s %s is not available offline", path, version)
	}
	return m.Dir
}

// patchedFiles lists the files a lakesql.patch changes.
func patchedFiles(t *testing.T, patch string) map[string]bool {
	src, err := os.ReadFile(patch)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^\+\+\+ b/(\S+)`).FindAllSubmatch(src, -1) {
		files[string(m[1])] = true
	}
	if len(files) == 0 {
		t.Fatalf("%s names no file", patch)
	}
	return files
}

// TestThirdPartyPatchesAreStillNeededAndMinimal checks each patched
// dependency: that go.mod uses the copy, that upstream still does the eager
// work the patch removes, and that the copy is upstream (gofmt'd, as the
// repository's sources are) plus lakesql.patch and nothing else.
func TestThirdPartyPatchesAreStillNeededAndMinimal(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	for _, pm := range patchedModules {
		t.Run(pm.dir, func(t *testing.T) { checkPatchedModule(t, pm) })
	}
}

func checkPatchedModule(t *testing.T, pm patchedModule) {
	var m goModule
	if err := goJSON(t, &m, "list", "-m", "-json", pm.path); err != nil {
		t.Fatal(err)
	}
	upstream := upstreamModule(t, pm.path, m.Version)
	src, err := os.ReadFile(filepath.Join(upstream, pm.eagerFile))
	if err != nil {
		t.Fatal(err)
	}
	eager := pm.eager.Match(src)
	if m.Replace == nil {
		if eager {
			t.Fatalf("go.mod requires %s %s, which still builds %s at init (%s of every start-up): port third_party/%s/lakesql.patch to it and point the replace directive at %s", pm.path, m.Version, pm.eagerFile, pm.cost, pm.dir, m.Version)
		}
		if _, err := os.Stat(filepath.Join("../../third_party", pm.dir)); err == nil {
			t.Fatalf("%s %s is lazy by itself: delete third_party/%s, it is no longer used", pm.path, m.Version, pm.dir)
		}
		return
	}
	if !eager {
		t.Fatalf("upstream %s %s no longer does the work of %s at init: drop the replace directive and third_party/%s", pm.path, m.Version, pm.eagerFile, pm.dir)
	}

	vendored := m.Replace.Dir
	patched := patchedFiles(t, filepath.Join(vendored, "lakesql.patch"))
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
			t.Errorf("%s is not in upstream %s %s", rel, pm.path, m.Version)
			return nil
		}
		if strings.HasSuffix(rel, ".go") {
			if theirs, err = format.Source(theirs); err != nil {
				t.Errorf("upstream %s: %v", rel, err)
				return nil
			}
		}
		if same := bytes.Equal(ours, theirs); same == patched[filepath.ToSlash(rel)] {
			if same {
				t.Errorf("%s should carry the lakesql patch but equals upstream", rel)
			} else {
				t.Errorf("%s differs from upstream %s %s but is not part of lakesql.patch", rel, pm.path, m.Version)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
