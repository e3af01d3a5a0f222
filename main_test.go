package lakesql_test

import (
	"os"
	"testing"

	"github.com/lakesql/lakesql/exec"
)

// TestMain runs every test of the package with released query buffers
// poisoned, so that a batch read after its release gives wrong answers
// instead of passing by luck.
func TestMain(m *testing.M) {
	exec.PoisonReleasedBuffers()
	code := m.Run()
	removeLakesqlBuild()
	os.Exit(code)
}
