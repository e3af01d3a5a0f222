package storage

import (
	"context"
	"fmt"
	"runtime"
	"sync"

	"github.com/apache/iceberg-go"
	icebergio "github.com/apache/iceberg-go/io"
	"github.com/apache/iceberg-go/table"
)

// SnapshotFiles is what a snapshot's manifests list: its live data files and
// the manifests they came from.
type SnapshotFiles struct {
	Manifests []iceberg.ManifestFile
	DataFiles []iceberg.DataFile
	// DeleteFiles are position or equality delete files; a reader that cannot
	// apply them must refuse the scan rather than return deleted rows.
	DeleteFiles []iceberg.DataFile
}

// ListSnapshotFiles reads the manifest list and manifests of snap (nil for an
// empty table), reading manifests in parallel.
func ListSnapshotFiles(ctx context.Context, fsys icebergio.IO, snap *table.Snapshot) (*SnapshotFiles, error) {
	out := &SnapshotFiles{}
	if snap == nil {
		return out, nil
	}
	manifests, err := snap.Manifests(fsys)
	if err != nil {
		return nil, fmt.Errorf("read manifest list %s: %w", snap.ManifestList, err)
	}
	out.Manifests = manifests
	entries := make([][]iceberg.ManifestEntry, len(manifests))
	errs := make([]error, len(manifests))
	var wg sync.WaitGroup
	sem := make(chan struct{}, runtime.GOMAXPROCS(0)*2)
	for i, m := range manifests {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			if ctx.Err() != nil {
				errs[i] = ctx.Err()
				return
			}
			entries[i], errs[i] = m.FetchEntries(fsys, true)
			if errs[i] != nil {
				errs[i] = fmt.Errorf("read manifest %s: %w", m.FilePath(), errs[i])
			}
		}()
	}
	wg.Wait()
	for i, m := range manifests {
		if errs[i] != nil {
			return nil, errs[i]
		}
		for _, e := range entries[i] {
			df := e.DataFile()
			if m.ManifestContent() == iceberg.ManifestContentDeletes || df.ContentType() != iceberg.EntryContentData {
				out.DeleteFiles = append(out.DeleteFiles, df)
				continue
			}
			out.DataFiles = append(out.DataFiles, df)
		}
	}
	return out, nil
}
