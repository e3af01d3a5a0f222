package ddl

import (
	"context"

	"github.com/lakesql/lakesql/internal/engine"
	"github.com/lakesql/lakesql/sql"
)

// ShowTables runs SHOW TABLES [IN ns]: the current namespace's, or every
// namespace's when none is current.
func ShowTables(ctx context.Context, s *engine.Session, st *sql.ShowTables) (*engine.Result, error) {
	wh, ns := s.Warehouse(), s.Namespace()
	if st.Namespace != nil {
		var err error
		if wh, ns, err = s.NamespaceName(ctx, *st.Namespace); err != nil {
			return nil, err
		}
	}
	var nss []string
	if ns != "" {
		nss = []string{ns}
	} else {
		var err error
		if nss, err = wh.Namespaces(ctx); err != nil {
			return nil, err
		}
	}
	var rows [][]string
	for _, n := range nss {
		tables, err := wh.Tables(ctx, n)
		if err != nil {
			return nil, err
		}
		for _, t := range tables {
			rows = append(rows, []string{n, t})
		}
	}
	return engine.TextRows([]string{"namespace", "table"}, rows), nil
}
