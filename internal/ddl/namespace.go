package ddl

import (
	"context"

	"github.com/lakesql/lakesql/internal/engine"
	"github.com/lakesql/lakesql/sql"
)

// CreateNamespace runs CREATE NAMESPACE [IF NOT EXISTS] ns.
func CreateNamespace(ctx context.Context, s *engine.Session, st *sql.CreateNamespace) (*engine.Result, error) {
	ns, err := s.NamespaceName(st.Name)
	if err != nil {
		return nil, err
	}
	if err := s.Warehouse().CreateNamespace(ctx, ns, st.IfNotExists); err != nil {
		return nil, err
	}
	return engine.Message("OK"), nil
}

// DropNamespace runs DROP NAMESPACE [IF EXISTS] ns [CASCADE]; dropping the
// current namespace unsets it.
func DropNamespace(ctx context.Context, s *engine.Session, st *sql.DropNamespace) (*engine.Result, error) {
	ns, err := s.NamespaceName(st.Name)
	if err != nil {
		return nil, err
	}
	if err := s.Warehouse().DropNamespace(ctx, ns, st.IfExists, st.Cascade); err != nil {
		return nil, err
	}
	if s.Namespace() == ns {
		s.SetNamespace("")
	}
	return engine.Message("OK"), nil
}

// ShowNamespaces runs SHOW NAMESPACES.
func ShowNamespaces(ctx context.Context, s *engine.Session) (*engine.Result, error) {
	nss, err := s.Warehouse().Namespaces(ctx)
	if err != nil {
		return nil, err
	}
	rows := make([][]string, len(nss))
	for i, ns := range nss {
		rows[i] = []string{ns}
	}
	return engine.TextRows([]string{"namespace"}, rows), nil
}
