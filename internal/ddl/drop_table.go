package ddl

import (
	"context"
	"fmt"

	"github.com/lakesql/lakesql/internal/engine"
	"github.com/lakesql/lakesql/sql"
)

// DropTable runs DROP TABLE [IF EXISTS] t [PURGE].
func DropTable(ctx context.Context, s *engine.Session, st *sql.DropTable) (*engine.Result, error) {
	wh, ns, name, err := s.TableName(ctx, st.Name)
	if err != nil {
		return nil, err
	}
	if exists, err := wh.TableExists(ctx, ns, name); err != nil {
		return nil, err
	} else if !exists {
		if st.IfExists {
			return engine.Message("OK"), nil
		}
		_, err := wh.LoadTable(ctx, ns, name) // for its helpful message
		return nil, err
	}
	d, err := wh.DropTable(ctx, ns, name, st.Purge)
	if err != nil {
		return nil, err
	}
	switch {
	case !st.Purge:
		return engine.Message(fmt.Sprintf("dropped %s.%s; its files remain in %s (DROP TABLE … PURGE deletes them)", ns, name, d.Folder)), nil
	case d.ByServer:
		return engine.Message(fmt.Sprintf("dropped %s.%s; the catalog server was asked to purge its files", ns, name)), nil
	case d.NotOwned:
		return engine.Message(fmt.Sprintf("dropped %s.%s; its folder %s is a symlink or lies outside the warehouse, so no file was deleted", ns, name, d.Folder)), nil
	case d.Kept > 0:
		return engine.Message(fmt.Sprintf("dropped %s.%s and deleted %d files; kept %d files that are not the table's own (outside its folder %s, or symlinks)", ns, name, d.Deleted, d.Kept, d.Folder)), nil
	}
	return engine.Message(fmt.Sprintf("dropped %s.%s and deleted its %d files", ns, name, d.Deleted)), nil
}
