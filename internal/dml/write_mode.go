package dml

import (
	"fmt"
	"strings"

	"github.com/apache/iceberg-go/table"
)

// Iceberg's table properties that choose how DELETE, UPDATE and MERGE
// change rows: copy-on-write (the default) rewrites the data files holding
// changed rows; merge-on-read leaves them and writes position delete files
// for the changed rows (and new data files for their new versions).
const (
	deleteModeProperty = "write.delete.mode"
	updateModeProperty = "write.update.mode"
	mergeModeProperty  = "write.merge.mode"
)

// mergeOnRead reports whether the table's property asks for merge-on-read.
// Position delete files need format version 2; format 3 tables take
// deletion vectors instead, which lakesql does not write yet.
func mergeOnRead(tbl *table.Table, property string) (bool, error) {
	mode := strings.ToLower(tbl.Properties().Get(property, "copy-on-write"))
	switch mode {
	case "copy-on-write":
		return false, nil
	case "merge-on-read":
	default:
		return false, fmt.Errorf("table %s: %s is %q; it must be copy-on-write or merge-on-read", strings.Join(tbl.Identifier(), "."), property, mode)
	}
	if v := tbl.Metadata().Version(); v != 2 {
		return false, fmt.Errorf("table %s: %s = merge-on-read writes position delete files, which need format version 2 (the table is version %d); set %s = copy-on-write", strings.Join(tbl.Identifier(), "."), property, v, property)
	}
	return true, nil
}
