package storage

import (
	"sync"

	"github.com/apache/iceberg-go"
	icebergio "github.com/apache/iceberg-go/io"
	"github.com/apache/iceberg-go/table"
)

// ManifestCache keeps the live entries of manifests a session has read, and
// the manifest lists of the snapshots it planned. Both kinds of file are
// immutable once written (a commit writes new ones), so what is cached by
// path never goes stale. The cache holds at most maxEntries entries (a
// manifest entry, or a manifest of a list) and forgets everything when it
// overflows.
//
// The manifest lists are kept for a statement's commit as much as for
// speed: a commit that lost a race checks the snapshot it read against the
// winner's, and a concurrent expire_snapshots may have deleted that
// snapshot's manifest list since the statement planned it (as Iceberg's
// snapshots keep the manifests they loaded).
type ManifestCache struct {
	mu         sync.Mutex
	maxEntries int
	entries    int
	byPath     map[string][]iceberg.ManifestEntry
	lists      map[string][]iceberg.ManifestFile
}

// NewManifestCache returns a cache holding up to maxEntries entries.
func NewManifestCache(maxEntries int) *ManifestCache {
	c := &ManifestCache{maxEntries: maxEntries}
	c.clear()
	return c
}

func (c *ManifestCache) clear() {
	c.byPath = map[string][]iceberg.ManifestEntry{}
	c.lists = map[string][]iceberg.ManifestFile{}
	c.entries = 0
}

// SnapshotManifests is snap's manifest list, read through the cache. A
// snapshot without a list file (format v1's manifest locations) is read
// each time.
func (c *ManifestCache) SnapshotManifests(fsys icebergio.IO, snap *table.Snapshot) ([]iceberg.ManifestFile, error) {
	if c == nil || snap.ManifestList == "" {
		return snap.Manifests(fsys)
	}
	c.mu.Lock()
	manifests, ok := c.lists[snap.ManifestList]
	c.mu.Unlock()
	if ok {
		return manifests, nil
	}
	manifests, err := snap.Manifests(fsys)
	if err != nil || len(manifests) > c.maxEntries {
		return manifests, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.makeRoom(len(manifests))
	c.lists[snap.ManifestList] = manifests
	return manifests, nil
}

// makeRoom forgets everything when n more entries would overflow the cache.
func (c *ManifestCache) makeRoom(n int) {
	if c.entries+n > c.maxEntries {
		c.clear()
	}
	c.entries += n
}

func (c *ManifestCache) get(path string) ([]iceberg.ManifestEntry, bool) {
	if c == nil {
		return nil, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.byPath[path]
	return e, ok
}

func (c *ManifestCache) put(path string, entries []iceberg.ManifestEntry) {
	if c == nil || len(entries) > c.maxEntries {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.makeRoom(len(entries))
	c.byPath[path] = entries
}
