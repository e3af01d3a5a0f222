package catalog

import (
	"context"
	"fmt"

	"github.com/apache/iceberg-go/catalog/rest"
	"github.com/apache/iceberg-go/table"

	"github.com/lakesql/lakesql/storage"
)

// dropManaged is DropTable in an SQL or REST catalog: the catalog forgets
// the table, and with purge its files go first — the referenced ones and
// the rest of its location, only inside the warehouse (a table whose
// location lies elsewhere keeps its files).
func (w *Warehouse) dropManaged(ctx context.Context, ns, name string, tbl *table.Table, refs map[string]bool, purge bool) (Dropped, error) {
	var d Dropped
	if tbl != nil {
		d.Folder = w.fs.Resolve(tbl.Location())
	}
	rc, isREST := w.cat.(*rest.Catalog)
	if purge && tbl != nil {
		own, ok := w.OwnFolder(d.Folder)
		d.NotOwned = !ok
		switch {
		case !ok && isREST:
			// The folder is the REST server's to delete: it is asked to
			// purge, as Spark's DROP TABLE … PURGE asks.
			if err := rc.PurgeTable(ctx, table.Identifier{ns, name}); err != nil {
				return d, fmt.Errorf("drop table %s.%s: %w", ns, name, err)
			}
			d.NotOwned, d.ByServer = false, true
			return d, nil
		case !ok:
		case w.object:
			if err := w.purgeObjects(own, refs, &d); err != nil {
				return d, fmt.Errorf("drop table %s.%s: %w", ns, name, err)
			}
		default:
			for ref := range refs {
				w.removeOwnFile(own, storage.LocalPath(w.fs.Resolve(ref)), &d)
			}
			if err := w.removeFolder(own, storage.LocalPath(d.Folder), &d); err != nil {
				return d, fmt.Errorf("drop table %s.%s: %w", ns, name, err)
			}
		}
	}
	if err := w.cat.DropTable(ctx, table.Identifier{ns, name}); err != nil {
		return d, fmt.Errorf("drop table %s.%s: %w", ns, name, err)
	}
	return d, nil
}
