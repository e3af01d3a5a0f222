package ddl

import (
	"context"

	"github.com/lakesql/lakesql/internal/engine"
	"github.com/lakesql/lakesql/sql"
)

// DropTable runs DROP TABLE [IF EXISTS] t [PURGE].
func DropTable(ctx context.Context, s *engine.Session, st *sql.DropTable) (*engine.Result, error) {
	ns, name, err := s.TableName(st.Name)
	if err != nil {
		return nil, err
	}
	if exists, err := s.Warehouse().TableExists(ctx, ns, name); err != nil {
		return nil, err
	} else if !exists {
		if st.IfExists {
			return engine.Message("OK"), nil
		}
		_, err := s.Warehouse().LoadTable(ctx, ns, name) // for its helpful message
		return nil, err
	}
	if err := s.Warehouse().DropTable(ctx, ns, name, st.Purge); err != nil {
		return nil, err
	}
	return engine.Message("OK"), nil
}
