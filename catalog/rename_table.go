package catalog

import (
	"context"
	"fmt"

	"github.com/apache/iceberg-go/catalog/hadoop"
	"github.com/apache/iceberg-go/table"
)

// ErrRenameUnsupported is the kind of error of a rename in a warehouse whose
// catalog finds tables by their folders.
var ErrRenameUnsupported = fmt.Errorf("the warehouse's catalog cannot rename tables")

// RenameTable renames table ns.name to toNS.toName. SQL and REST catalogs
// keep a table's name apart from its files, so a rename changes only the
// catalog's entry; the filesystem catalog names a table by its folder, and
// its metadata and manifests record absolute paths under that folder, so
// there a rename would rewrite every manifest of every snapshot and move
// every file (iceberg-go's Hadoop catalog, like Iceberg's Java one, refuses
// it) and ErrRenameUnsupported is returned.
func (w *Warehouse) RenameTable(ctx context.Context, ns, name, toNS, toName string) error {
	if _, folders := w.cat.(*hadoop.Catalog); folders {
		return ErrRenameUnsupported
	}
	if err := w.checkNewTable(ctx, toNS, toName); err != nil {
		return err
	}
	if _, err := w.cat.RenameTable(ctx, table.Identifier{ns, name}, table.Identifier{toNS, toName}); err != nil {
		return fmt.Errorf("rename table %s.%s to %s.%s: %w", ns, name, toNS, toName, err)
	}
	return nil
}
