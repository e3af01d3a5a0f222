package catalog

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/apache/iceberg-go/table"
)

// staleClaimAge is how old a metadata version claim must be to be taken
// over. A writer claims version N+1 by creating vN+1.metadata.json.claim and
// publishes it by renaming it a millisecond later, so a claim this old was
// left by a writer that died in between. iceberg-go waits a minute before
// taking one over, which blocks every writer of the table for that long
// after a kill. Taking over a claim whose writer is only stalled is safe: its
// publish fails ("claim … was removed before publish") and it retries.
const staleClaimAge = 5 * time.Second

// CommitTable commits updates to a table through the catalog; a commit that
// finds a stale claim of the next metadata version removes it and tries
// again once.
func (w *Warehouse) CommitTable(ctx context.Context, id table.Identifier, reqs []table.Requirement, updates []table.Update) (table.Metadata, string, error) {
	meta, location, err := w.cat.CommitTable(ctx, id, reqs, updates)
	if err != nil && strings.Contains(err.Error(), "already claimed") && w.removeStaleClaims(id) {
		meta, location, err = w.cat.CommitTable(ctx, id, reqs, updates)
	}
	return meta, location, err
}

// removeStaleClaims removes the metadata version claims of table id older
// than staleClaimAge, and reports whether it removed any.
func (w *Warehouse) removeStaleClaims(id table.Identifier) bool {
	if len(id) != 2 {
		return false
	}
	claims, _ := filepath.Glob(filepath.Join(w.dir, id[0], id[1], "metadata", "v*.metadata.json.claim"))
	removed := false
	for _, claim := range claims {
		info, err := os.Lstat(claim)
		if err == nil && info.Mode().IsRegular() && time.Since(info.ModTime()) > staleClaimAge && os.Remove(claim) == nil {
			removed = true
		}
	}
	return removed
}
