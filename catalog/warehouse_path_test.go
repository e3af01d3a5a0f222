package catalog

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// iceberg-go reads the warehouse path as a URL, so a '#' would cut it short
// and tables would land in another folder: such a path is refused, and
// nothing is created at the shorter path.
func TestWarehousePathWithURLCharactersIsRefused(t *testing.T) {
	parent := t.TempDir()
	for _, name := range []string{"wh#1", "wh?x=1"} {
		_, err := Open(filepath.Join(parent, name), nil)
		if err == nil || !strings.Contains(err.Error(), "cannot contain '#' or '?'") || strings.Contains(err.Error(), "\n") {
			t.Errorf("Open(%s): %v, want a one-line refusal", name, err)
		}
	}
	if entries, _ := os.ReadDir(parent); len(entries) != 0 {
		t.Errorf("Open created %v", entries)
	}
}
