package dml

import (
	"context"

	"github.com/lakesql/lakesql/internal/engine"
	"github.com/lakesql/lakesql/sql"
)

// Delete runs DELETE FROM t [WHERE cond]. By default it is copy-on-write: a
// data file none of whose rows match is kept; one all of whose rows match
// is removed in metadata only; any other is replaced by a copy without the
// matching rows, all in one snapshot. Under write.delete.mode =
// merge-on-read the matching rows are named in position delete files
// instead. Rows where the condition is NULL are kept, as in SQL.
func Delete(ctx context.Context, s *engine.Session, st *sql.Delete) (*engine.Result, error) {
	sel, err := newRowSelection(ctx, s, st.Table, "", st.Where, "DELETE … WHERE")
	if err != nil {
		return nil, err
	}
	if sel.target.Snapshot == nil {
		return engine.RowCount(0, "deleted"), nil
	}
	mor, err := mergeOnRead(sel.target.Table, deleteModeProperty)
	if err != nil {
		return nil, err
	}
	files, err := sel.files(ctx)
	if err != nil {
		return nil, err
	}
	if mor {
		var deleted int64
		for _, sf := range files {
			deleted += sf.matched
		}
		if err := sel.mergeOnRead(ctx, files, nil); err != nil {
			return nil, err
		}
		return engine.RowCount(deleted, "deleted"), nil
	}
	removed, rewrite, deleted := copyOnWrite(files)
	if len(removed) == 0 {
		return engine.RowCount(0, "deleted"), nil
	}
	if err := sel.rewrite(ctx, removed, rewrite, withoutSelected(sel.cond)); err != nil {
		return nil, err
	}
	return engine.RowCount(deleted, "deleted"), nil
}
