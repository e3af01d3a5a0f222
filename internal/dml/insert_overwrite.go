package dml

import (
	"context"
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/table"

	"github.com/lakesql/lakesql/internal/engine"
	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/storage"
)

// insertOverwrite is INSERT OVERWRITE in Spark's dynamic partition overwrite
// mode, which Iceberg uses for INSERT OVERWRITE in Spark 3: the new rows
// replace the partitions they fall in, other partitions are kept, and a
// statement that produces no rows changes nothing. As in Iceberg's
// ReplacePartitions, a partition is a (current spec, tuple) pair: files
// written under an older spec are kept even where their rows overlap the new
// partitions, since their tuples cannot be compared; an unpartitioned table
// is replaced whole, files of every spec included. Under SET
// partition_overwrite_mode = static (Spark's static mode) every table is
// replaced whole, even by no rows. Removal and addition are one snapshot.
func insertOverwrite(ctx context.Context, s *engine.Session, target *planner.TableRef, types []arrow.DataType, next func() (arrow.RecordBatch, error)) (*engine.Result, error) {
	w, err := storage.NewTableWriter(target.Table, target.FS, types)
	if err != nil {
		return nil, err
	}
	rows, added, err := w.WriteAll(ctx, next)
	if err == nil && (len(added) > 0 || s.StaticOverwrite()) {
		var replaced []iceberg.DataFile
		if replaced, err = overwrittenFiles(ctx, s, target, added); err == nil && len(replaced)+len(added) > 0 {
			err = CommitReplace(ctx, s.Manifests(), target.Table, replaced, added)
		}
	}
	if err != nil {
		w.Abort()
		return nil, err
	}
	return engine.RowCount(rows, "inserted"), nil
}

// overwrittenFiles lists the live data files the new files replace: those
// of the current spec in a partition a new file is in, or all of them when
// the table is unpartitioned.
func overwrittenFiles(ctx context.Context, s *engine.Session, target *planner.TableRef, added []iceberg.DataFile) ([]iceberg.DataFile, error) {
	plan, err := storage.PlanScan(ctx, target.FS, storage.ScanRequest{Metadata: target.Table.Metadata(), Snapshot: target.Snapshot, Schema: target.Schema, Cache: s.Manifests()})
	if err != nil {
		return nil, fmt.Errorf("overwrite %s: %w", target.QualifiedName(), err)
	}
	spec := target.Table.Spec()
	if spec.IsUnpartitioned() || s.StaticOverwrite() {
		return plan.Files, nil
	}
	partitions := map[string]bool{}
	for _, df := range added {
		key, err := storage.PartitionKey(spec, target.Schema, df.Partition())
		if err != nil {
			return nil, err
		}
		partitions[key] = true
	}
	var replaced []iceberg.DataFile
	for _, df := range plan.Files {
		if int(df.SpecID()) != spec.ID() {
			continue
		}
		key, err := storage.PartitionKey(spec, target.Schema, df.Partition())
		if err != nil {
			return nil, err
		}
		if partitions[key] {
			replaced = append(replaced, df)
		}
	}
	return replaced, nil
}

// CommitReplace removes data files and adds others in one snapshot. The
// files to remove were chosen from tbl's snapshot, so when another writer
// commits first the commit is retried on top only if that writer neither
// removed them nor deleted rows of them. Delete files that pointed only at
// removed files are left in place; they no longer match any row. cache is
// the one the files were planned through: it holds the manifest list of
// tbl's snapshot, which a concurrent expire_snapshots may have deleted by
// the time a retry checks for conflicts against it.
func CommitReplace(ctx context.Context, cache *storage.ManifestCache, tbl *table.Table, remove, add []iceberg.DataFile) error {
	return commitOnSnapshot(ctx, cache, tbl, remove, func(tx *table.Transaction) error {
		return tx.ReplaceDataFilesWithDataFiles(ctx, remove, add, nil)
	})
}

// commitRowDelta adds data files and position delete files in one snapshot
// (merge-on-read); data are the files whose rows the deletes name, which,
// as in CommitReplace, must not have changed under a retry.
func commitRowDelta(ctx context.Context, cache *storage.ManifestCache, tbl *table.Table, data, add, deletes []iceberg.DataFile) error {
	if len(add) == 0 && len(deletes) == 0 {
		return nil
	}
	return commitOnSnapshot(ctx, cache, tbl, data, func(tx *table.Transaction) error {
		return tx.NewRowDelta(nil).AddRows(add...).AddDeletes(deletes...).Commit(ctx)
	})
}

// commitOnSnapshot stages changes in a transaction that asserts the main
// branch is at the snapshot of the table it is staged on, and commits it
// through storage.RetryCommit, which re-validates changed (files of tbl's
// snapshot the statement removes or deletes rows of) before a retry.
func commitOnSnapshot(ctx context.Context, cache *storage.ManifestCache, tbl *table.Table, changed []iceberg.DataFile, stage func(*table.Transaction) error) error {
	name := strings.Join(tbl.Identifier(), ".")
	return storage.RetryCommit(ctx, tbl, func(cur *table.Table) error {
		tx := storage.NewTransaction(cur)
		err := tx.AssertRefSnapshotID(table.MainBranch)
		if err == nil {
			err = stage(tx)
		}
		if err == nil {
			_, err = storage.CommitTransaction(ctx, cur, tx)
		}
		if err != nil {
			return fmt.Errorf("commit to %s: %w", name, err)
		}
		return nil
	}, func(cur *table.Table) error {
		fs, err := tbl.FS(ctx)
		if err != nil {
			return fmt.Errorf("commit to %s: %w", name, err)
		}
		return storage.CheckConflicts(ctx, fs, cache, tbl, cur, changed, false)
	})
}
