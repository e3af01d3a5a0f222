package storage

import (
	"context"
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
	plan := func(t *table.Table) (*ScanPlan, error) {
		return PlanScan(ctx, fs, ScanRequest{Metadata: t.Metadata(), Snapshot: t.CurrentSnapshot(), Schema: t.Schema(), Cache: cache})
	}
	before, err := plan(read)
	if err != nil {
		return err
	}
	now, err := plan(cur)
	if err != nil {
		return err
	}
	name := strings.Join(cur.Identifier(), ".")
	known := make(map[string]bool, len(before.DeleteFiles))
	for _, del := range before.DeleteFiles {
		known[del.FilePath()] = true
	}
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
