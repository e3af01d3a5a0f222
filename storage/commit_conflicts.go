package storage

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/apache/iceberg-go"
	icebergio "github.com/apache/iceberg-go/io"
	"github.com/apache/iceberg-go/table"
)

// CheckConflicts is the re-validation of a commit that removes data files
// (or deletes rows of them) before it is retried on top of the commits that
// beat it, as Iceberg's validateNoConflictingDeletes does under snapshot
// isolation: read is the table as the statement read it, cur as it is now.
// It fails when a concurrent commit removed one of files (their rows were
// deleted or moved: committing would bring them back or duplicate them) or
// added a delete file that may apply to one (those deletes would be lost).
// Rows other writers appended meanwhile do not conflict: the statement is
// ordered before them. keepsSequence says the commit gives its new files
// the sequence number of read (a compaction), so that new equality deletes
// still apply to them and are no conflict.
func CheckConflicts(ctx context.Context, fs icebergio.IO, cache *ManifestCache, read, cur *table.Table, files []iceberg.DataFile, keepsSequence bool) error {
	if read.MetadataLocation() == cur.MetadataLocation() || len(files) == 0 {
		return nil
	}
	known, err := knownDeletes(ctx, fs, cache, read.CurrentSnapshot())
	if err != nil {
		return err
	}
	now, err := PlanScan(ctx, fs, ScanRequest{Metadata: cur.Metadata(), Snapshot: cur.CurrentSnapshot(), Schema: cur.Schema(), Cache: cache})
	if errors.Is(err, ErrSnapshotGone) {
		// A concurrent expire_snapshots removed the snapshot cur had just
		// loaded: the table moved on again.
		return movedOnError{err}
	}
	if err != nil {
		return err
	}
	name := strings.Join(cur.Identifier(), ".")
	live := make(map[string]int, len(now.Files))
	for i, df := range now.Files {
		live[df.FilePath()] = i
	}
	var removed []string
	for _, df := range files {
		i, ok := live[df.FilePath()]
		if !ok {
			removed = append(removed, df.FilePath())
			continue
		}
		for j, del := range now.DeleteFiles {
			if known[del.FilePath()] || keepsSequence && del.ContentType() == iceberg.EntryContentEqDeletes {
				continue
			}
			applies, err := DeleteMayApply(cur.Metadata(), cur.Schema(), now.Files[i], now.FileSeqs[i], del, now.DeleteSeqs[j])
			if err != nil {
				return err
			}
			if applies {
				return fmt.Errorf("commit to %s failed: a concurrent commit deleted rows of %s, which this statement changes; nothing was written, run it again",
					name, df.FilePath())
			}
		}
	}
	if len(removed) > 0 {
		return fmt.Errorf("commit to %s failed: a concurrent commit removed %d of the files this statement changes (%s); nothing was written, run it again",
			name, len(removed), strings.Join(removed[:min(3, len(removed))], ", "))
	}
	return nil
}

// knownDeletes is the set of delete files of snap, the snapshot the
// statement read: deletes it already applied. Only snap's delete manifests
// are read, which the statement's planning read too (a scan needs them
// all), so through the statement's cache neither they nor the manifest list
// are read again: a concurrent expire_snapshots may have deleted them since.
func knownDeletes(ctx context.Context, fs icebergio.IO, cache *ManifestCache, snap *table.Snapshot) (map[string]bool, error) {
	known := map[string]bool{}
	if snap == nil {
		return known, nil
	}
	_, entries, err := readSnapshotManifests(ctx, fs, cache, snap, func(m iceberg.ManifestFile) bool {
		return m.ManifestContent() == iceberg.ManifestContentDeletes
	})
	if err != nil {
		return nil, err
	}
	for _, es := range entries {
		for _, e := range es {
			known[e.DataFile().FilePath()] = true
		}
	}
	return known, nil
}

// readSnapshotManifests reads the entries of the manifests of snap that
// keep selects, through cache: the manifests and their entries, in order.
func readSnapshotManifests(ctx context.Context, fs icebergio.IO, cache *ManifestCache, snap *table.Snapshot, keep func(iceberg.ManifestFile) bool) ([]iceberg.ManifestFile, [][]iceberg.ManifestEntry, error) {
	all, err := cache.SnapshotManifests(fs, snap)
	if err != nil {
		return nil, nil, snapshotFileError("manifest list", snap.ManifestList, err)
	}
	var manifests []iceberg.ManifestFile
	for _, m := range all {
		if keep(m) {
			manifests = append(manifests, m)
		}
	}
	entries, err := readManifests(ctx, fs, manifests, cache)
	if err != nil {
		return nil, nil, err
	}
	return manifests, entries, nil
}
