package storage

import (
	"sync"

	"github.com/apache/iceberg-go"
)

// ManifestCache keeps the live entries of manifests a session has read.
// Manifest files are immutable once written (a commit writes new ones), so an
// entry list cached by path never goes stale. The cache holds at most
// maxEntries entries and forgets everything when it overflows.
type ManifestCache struct {
	mu         sync.Mutex
	maxEntries int
	entries    int
	byPath     map[string][]iceberg.ManifestEntry
}

// NewManifestCache returns a cache holding up to maxEntries manifest entries.
func NewManifestCache(maxEntries int) *ManifestCache {
	return &ManifestCache{maxEntries: maxEntries, byPath: map[string][]iceberg.ManifestEntry{}}
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
	if c.entries+len(entries) > c.maxEntries {
		c.byPath = map[string][]iceberg.ManifestEntry{}
		c.entries = 0
	}
	c.byPath[path] = entries
	c.entries += len(entries)
}
