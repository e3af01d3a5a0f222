package ddl

import (
	"context"
	"fmt"

	"github.com/lakesql/lakesql/internal/engine"
	"github.com/lakesql/lakesql/sql"
)

// HiveStatement answers the Hive and Delta statements Iceberg tables do not
// need, or say another way, with the Iceberg equivalent, after checking that
// the table exists.
func HiveStatement(ctx context.Context, s *engine.Session, st *sql.HiveStatement) (*engine.Result, error) {
	_, name, err := s.LoadTable(ctx, st.Name)
	if err != nil {
		return nil, err
	}
	switch st.Kind {
	case "MSCK REPAIR TABLE":
		return engine.Message(fmt.Sprintf("nothing to repair: the Iceberg table %s lists its files and partitions in its own metadata (CALL system.register_table adopts a table written elsewhere)", name)), nil
	case "REFRESH TABLE":
		return engine.Message(fmt.Sprintf("nothing to refresh: every statement reads the latest metadata of %s", name)), nil
	}
	return nil, fmt.Errorf("%s: Iceberg partitions are not added, they appear as rows are written; to partition %s by a column write ALTER TABLE %s ADD PARTITION FIELD column (at line %d, column %d)",
		st.Kind, name, name, st.Pos.Line, st.Pos.Col)
}
