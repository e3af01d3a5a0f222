package testutil

import (
	"context"
	"maps"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/iceberg-go/catalog/hadoop"
	"github.com/apache/iceberg-go/table"
)

// ReferencedFiles lists, relative to the table folder dir/ns/name and
// sorted, every file the table's metadata refers to as iceberg-go reads it:
// the current metadata file and those of its metadata log, the version
// hint, statistics files, and each snapshot's manifest list, manifests and
// the data and delete files of their entries (deleted entries included). A
// file in the folder but not in this list is an orphan. It is computed here,
// apart from lakesql's orphan removal, so that tests can check that removal.
func ReferencedFiles(t testing.TB, dir, ns, name string) []string {
	t.Helper()
	ctx := context.Background()
	cat, err := hadoop.NewCatalog("other", dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	tbl, err := cat.LoadTable(ctx, table.Identifier{ns, name})
	if err != nil {
		t.Fatalf("iceberg-go LoadTable %s.%s: %v", ns, name, err)
	}
	fs, err := tbl.FS(ctx)
	if err != nil {
		t.Fatal(err)
	}
	folder := filepath.Join(dir, ns, name)
	refs := map[string]bool{"metadata/version-hint.text": true}
	add := func(location string) {
		path := location
		if u, err := url.Parse(location); err == nil && u.Scheme == "file" {
			path = u.Path
		}
		rel, err := filepath.Rel(folder, path)
		if err != nil || strings.HasPrefix(rel, "..") {
			t.Fatalf("%s.%s refers to %s, outside its folder %s", ns, name, location, folder)
		}
		refs[rel] = true
	}
	meta := tbl.Metadata()
	add(tbl.MetadataLocation())
	for entry := range meta.PreviousFiles() {
		add(entry.MetadataFile)
	}
	for sf := range meta.Statistics() {
		add(sf.StatisticsPath)
	}
	for psf := range meta.PartitionStatistics() {
		add(psf.StatisticsPath)
	}
	for _, snap := range meta.Snapshots() {
		add(snap.ManifestList)
		manifests, err := snap.Manifests(fs)
		if err != nil {
			t.Fatalf("%s.%s snapshot %d: %v", ns, name, snap.SnapshotID, err)
		}
		for _, m := range manifests {
			add(m.FilePath())
			entries, err := m.FetchEntries(fs, false)
			if err != nil {
				t.Fatalf("%s.%s manifest %s: %v", ns, name, m.FilePath(), err)
			}
			for _, e := range entries {
				add(e.DataFile().FilePath())
			}
		}
	}
	return slices.Sorted(maps.Keys(refs))
}
