package procedures

import (
	"context"
	"errors"
	"fmt"

	"github.com/apache/iceberg-go/table"

	"github.com/lakesql/lakesql/internal/engine"
)

// commitAttempts bounds how often a procedure's commit that lost a race
// with another writer is planned again on the table as that writer left it.
const commitAttempts = 5

// lostRace reports whether a commit planned on tbl failed because another
// writer committed to the table first. Catalogs say so differently (the
// filesystem catalog returns a bare requirement error, or "metadata file
// already exists"), so the table is reloaded to see whether it moved on.
func lostRace(ctx context.Context, s *engine.Session, tbl *table.Table, err error) bool {
	if errors.Is(err, table.ErrCommitFailed) {
		return true
	}
	id := tbl.Identifier()
	if len(id) != 2 {
		return false
	}
	fresh, lerr := s.Warehouse().LoadTable(ctx, id[0], id[1])
	return lerr == nil && fresh.MetadataLocation() != tbl.MetadataLocation()
}

// errLostRaces is the one line a procedure says when every attempt lost
// to a concurrent commit: iceberg-go's own error of the last attempt
// ("requirement failed: …") says nothing the user can act on.
func errLostRaces(what, name string) error {
	return fmt.Errorf("%s of %s lost to concurrent writers %d times; nothing was changed, run it again", what, name, commitAttempts)
}
