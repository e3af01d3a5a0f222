package exec

import (
	"os"
	"testing"
)

// TestMain poisons released query buffers, as the root package's tests do.
func TestMain(m *testing.M) {
	PoisonReleasedBuffers()
	os.Exit(m.Run())
}
