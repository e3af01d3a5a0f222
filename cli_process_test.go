package lakesql_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
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

// buildLakesql builds the lakesql command into the test's temporary folder
// and returns its path; with -short (or without the go tool) the test is
// skipped.
func buildLakesql(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the lakesql binary")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go is not on PATH")
	}
	bin := filepath.Join(t.TempDir(), "lakesql")
	start := time.Now()
	build := exec.Command(goTool, "build", "-o", bin, "./cmd/lakesql")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/lakesql: %v\n%s", err, out)
	}
	t.Logf("built lakesql in %s", time.Since(start).Round(time.Millisecond))
	return bin
}
