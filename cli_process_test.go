package lakesql_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"
)

// The tests that run lakesql as separate processes (kill, concurrency)
// share the binary build and the stress switch.

// stressMode reports whether the slow tests run at full size: `make
// stress` sets LAKESQL_STRESS=1; `make test` runs them small.
func stressMode() bool {
	on, _ := strconv.ParseBool(os.Getenv("LAKESQL_STRESS"))
	return on
}

// lakesqlBuild is the lakesql binary built once for the test binary's
// run; TestMain removes its folder.
var lakesqlBuild struct {
	once sync.Once
	dir  string
	bin  string
	err  error
}

// buildLakesql builds the lakesql command (once per test run) and returns
// its path; with -short (or without the go tool) the test is skipped.
func buildLakesql(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the lakesql binary")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go is not on PATH")
	}
	b := &lakesqlBuild
	b.once.Do(func() {
		if b.dir, b.err = os.MkdirTemp("", "lakesql-bin"); b.err != nil {
			return
		}
		b.bin = filepath.Join(b.dir, "lakesql")
		start := time.Now()
		build := exec.Command(goTool, "build", "-o", b.bin, "./cmd/lakesql")
		build.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := build.CombinedOutput(); err != nil {
			b.err = fmt.Errorf("go build ./cmd/lakesql: %v\n%s", err, out)
			return
		}
		t.Logf("built lakesql in %s", time.Since(start).Round(time.Millisecond))
	})
	if b.err != nil {
		t.Fatal(b.err)
	}
	return b.bin
}

// removeLakesqlBuild removes the built binary, at the end of the run.
func removeLakesqlBuild() {
	if lakesqlBuild.dir != "" {
		os.RemoveAll(lakesqlBuild.dir)
	}
}
