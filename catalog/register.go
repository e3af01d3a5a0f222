package catalog

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/apache/iceberg-go/table"

	"github.com/lakesql/lakesql/storage"
)

// RegisterTable adds an existing Iceberg table to the warehouse from one of its
// metadata files, as Iceberg's register_table procedure does. The metadata is
// copied as the table's first version; the table's data stays where it is.
//
// When the metadata records a location other than the folder the metadata file
// sits in (a table copied from s3a://… to a laptop), the warehouse records a
// location remap from the recorded location to that folder, so the table's
// manifests and data files are read from where they now are.
func (w *Warehouse) RegisterTable(ctx context.Context, ns, name, metadataFile string) (*table.Table, error) {
	if err := w.checkNewTable(ctx, ns, name); err != nil {
		return nil, err
	}
	local := strings.TrimPrefix(metadataFile, "file://")
	data, err := os.ReadFile(local)
	if err != nil {
		return nil, fmt.Errorf("register table %s.%s: read metadata file: %w", ns, name, err)
	}
	var meta struct {
		Location string `json:"location"`
	}
	if err := json.Unmarshal(data, &meta); err != nil || meta.Location == "" {
		return nil, fmt.Errorf("register table %s.%s: %s is not Iceberg table metadata", ns, name, metadataFile)
	}
	tableRoot, err := filepath.Abs(filepath.Dir(filepath.Dir(local)))
	if err != nil {
		return nil, fmt.Errorf("register table %s.%s: %w", ns, name, err)
	}
	if strings.TrimRight(strings.TrimPrefix(meta.Location, "file://"), "/") != tableRoot {
		if err := w.addRemap(storage.Remap{From: meta.Location, To: tableRoot}); err != nil {
			return nil, err
		}
	}
	metaDir := filepath.Join(w.dir, ns, name, "metadata")
	if err := os.MkdirAll(metaDir, 0o755); err != nil {
		return nil, fmt.Errorf("register table %s.%s: %w", ns, name, err)
	}
	if err := os.WriteFile(filepath.Join(metaDir, "v1.metadata.json"), data, 0o644); err != nil {
		return nil, fmt.Errorf("register table %s.%s: %w", ns, name, err)
	}
	return w.LoadTable(ctx, ns, name)
}

// addRemap records a remap in the warehouse, replacing one with the same source.
func (w *Warehouse) addRemap(m storage.Remap) error {
	kept := w.remaps[:0]
	for _, r := range w.remaps {
		if r.From != m.From {
			kept = append(kept, r)
		}
	}
	w.remaps = append(kept, m)
	var b strings.Builder
	b.WriteString("# Location remaps recorded by register_table: FROM=TO, longest FROM wins.\n")
	for _, r := range w.remaps {
		fmt.Fprintf(&b, "%s=%s\n", r.From, r.To)
	}
	path := filepath.Join(w.dir, remapFile)
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, []byte(b.String()), 0o644); err != nil {
		return fmt.Errorf("record location remap: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("record location remap: %w", err)
	}
	w.fs.Remaps = append(w.fs.Remaps, m)
	return nil
}
