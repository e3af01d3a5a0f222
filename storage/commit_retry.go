package storage

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/apache/iceberg-go/table"
)

// DefaultCommitRetryTimeout is how long a commit that keeps losing races
// with other writers is retried (SET commit_retry_timeout). Iceberg's
// commit.retry.total-timeout-ms is 30 minutes, sized for batch jobs whose
// work is worth waiting for; a lakesql statement is usually interactive,
// and with the backoff below 30 s is about twenty attempts, and long
// enough to outlast a stale metadata claim (taken over after 5 s).
const DefaultCommitRetryTimeout = 30 * time.Second

// commitRetryWait is Iceberg's commit.retry.min-wait-ms: the first retry
// waits about 100 ms, each next one twice as long. Iceberg caps a wait at a
// minute (max-wait-ms) within its 30 minutes; within 30 s that would spend
// the budget on a few long waits while other writers commit, so a wait is
// capped at 2 s: about twenty attempts in the default timeout.
const (
	commitRetryWait    = 100 * time.Millisecond
	commitRetryMaxWait = 2 * time.Second
)

// ErrCommitLost is the kind of error for a commit that lost to concurrent
// writers until commit_retry_timeout ran out.
var ErrCommitLost = errors.New("lost to a concurrent writer")

type commitRetryKey struct{}

// WithCommitRetryTimeout returns ctx under which RetryCommit retries for d
// at most (0: a commit that loses is not retried).
func WithCommitRetryTimeout(ctx context.Context, d time.Duration) context.Context {
	return context.WithValue(ctx, commitRetryKey{}, d)
}

// CommitRetryTimeout is the commit retry timeout ctx carries, or the
// default.
func CommitRetryTimeout(ctx context.Context) time.Duration {
	if d, ok := ctx.Value(commitRetryKey{}).(time.Duration); ok {
		return d
	}
	return DefaultCommitRetryTimeout
}

// RetryCommit is how every lakesql write commits. attempt stages the change
// on the table it is given and commits it; the first attempt gets tbl.
// When an attempt loses a race (the catalog refused it and the table has
// moved on, or another writer holds the next version's claim), RetryCommit
// waits, with exponential backoff and jitter so that writers that lost
// together do not retry together, and runs attempt again on the table as
// the winner left it: a copy, tbl itself stays as the statement read it.
// Before such a retry, revalidate (when not nil) checks the change still
// holds on that table; its error ends the commit unchanged, but for a
// movedOnError (a concurrent expire_snapshots removed the snapshot just
// loaded), which is one more lost race. A commit that
// still loses when the context's commit retry timeout runs out fails with
// ErrCommitLost in one line. Other errors end the commit at once.
func RetryCommit(ctx context.Context, tbl *table.Table, attempt func(*table.Table) error, revalidate func(*table.Table) error) error {
	name := strings.Join(tbl.Identifier(), ".")
	timeout := CommitRetryTimeout(ctx)
	start := time.Now()
	cur := tbl
	for n := 1; ; n++ {
		var err error
		if n > 1 && revalidate != nil {
			err = revalidate(cur)
			var moved movedOnError
			if err != nil && !errors.As(err, &moved) {
				return err
			}
		}
		if err == nil {
			err = attempt(cur)
		}
		if err == nil {
			return nil
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if !LostRace(ctx, cur, err) {
			return err
		}
		wait := commitRetryWait << min(n-1, 20)
		wait = min(wait, commitRetryMaxWait)
		wait = wait/2 + rand.N(wait) // equal jitter: between half and one and a half times
		if time.Since(start)+wait > timeout {
			attempts := "attempts"
			if n == 1 {
				attempts = "attempt"
			}
			return fmt.Errorf("commit to %s %w after %d %s in %s; nothing was written (SET commit_retry_timeout waits longer)",
				name, ErrCommitLost, n, attempts, time.Since(start).Round(time.Millisecond))
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(wait):
		}
		next := *cur
		if err := next.Refresh(ctx); err != nil {
			return fmt.Errorf("commit to %s: reloading the table after a lost commit race: %w", name, err)
		}
		cur = &next
	}
}

// movedOnError is a revalidation's error that found the table it was given
// already moved on: its snapshot is gone, expired by a concurrent
// expire_snapshots after a concurrent commit replaced it. RetryCommit counts
// it as a lost race; the message is the error's own.
type movedOnError struct{ error }

func (e movedOnError) Unwrap() error { return e.error }

// LostRace reports whether a failed commit staged on tbl failed because
// another writer committed first, or holds the claim of the next version
// (iceberg-go's ErrCommitFailed). Catalogs report a lost race differently
// (the filesystem catalog returns a bare "requirement failed"; staging
// fails to open a manifest a concurrent expire_snapshots deleted), so a
// copy of the table is reloaded to see whether it moved on.
func LostRace(ctx context.Context, tbl *table.Table, err error) bool {
	if errors.Is(err, table.ErrCommitFailed) {
		return true
	}
	fresh := *tbl
	return fresh.Refresh(ctx) == nil && fresh.MetadataLocation() != tbl.MetadataLocation()
}

// CommitTransaction commits tx, staged on tbl. A catalog may report an
// error for a commit it took (a timeout after the write): when the table
// then holds tx's new snapshot, the commit succeeded. When it does not, the
// manifests and manifest lists tx wrote for its new snapshots are removed,
// so that a lost attempt leaves no orphan files.
func CommitTransaction(ctx context.Context, tbl *table.Table, tx *table.Transaction) (*table.Table, error) {
	next, err := tx.Commit(ctx)
	if err == nil {
		return next, nil
	}
	staged, serr := tx.StagedTable()
	fresh := *tbl
	if serr != nil || fresh.Refresh(ctx) != nil {
		return nil, err // whether it committed is unknown: keep its files
	}
	var added []table.Snapshot
	for _, snap := range staged.Metadata().Snapshots() {
		switch {
		case tbl.Metadata().SnapshotByID(snap.SnapshotID) != nil:
		case fresh.Metadata().SnapshotByID(snap.SnapshotID) != nil:
			return &fresh, nil
		default:
			added = append(added, snap)
		}
	}
	fs, ferr := tbl.FS(ctx)
	if ferr != nil {
		return nil, err
	}
	for _, snap := range added {
		manifests, merr := snap.Manifests(fs)
		if merr != nil {
			continue
		}
		for _, m := range manifests {
			if m.SnapshotID() == snap.SnapshotID {
				_ = fs.Remove(m.FilePath())
			}
		}
		_ = fs.Remove(snap.ManifestList)
	}
	return nil, err
}
