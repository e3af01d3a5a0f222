package ddl

import (
	"context"
	"fmt"
	"strings"

	"github.com/lakesql/lakesql/internal/engine"
	"github.com/lakesql/lakesql/sql"
)

// CreateNamespace runs CREATE NAMESPACE [IF NOT EXISTS] ns.
func CreateNamespace(ctx context.Context, s *engine.Session, st *sql.CreateNamespace) (*engine.Result, error) {
	wh, ns, err := s.NamespaceName(ctx, st.Name)
	if err != nil {
		return nil, err
	}
	if err := wh.CreateNamespace(ctx, ns, st.IfNotExists); err != nil {
		return nil, err
	}
	return engine.Message("OK"), nil
}

// DropNamespace runs DROP NAMESPACE [IF EXISTS] ns [CASCADE]; dropping the
// current namespace unsets it.
func DropNamespace(ctx context.Context, s *engine.Session, st *sql.DropNamespace) (*engine.Result, error) {
	wh, ns, err := s.NamespaceName(ctx, st.Name)
	if err != nil {
		return nil, err
	}
	if err := wh.DropNamespace(ctx, ns, st.IfExists, st.Cascade); err != nil {
		return nil, err
	}
	if wh == s.Warehouse() && s.Namespace() == ns {
		s.SetNamespace("")
	}
	return engine.Message("OK"), nil
}

// ShowNamespaces runs SHOW NAMESPACES [IN catalog].
func ShowNamespaces(ctx context.Context, s *engine.Session, st *sql.ShowNamespaces) (*engine.Result, error) {
	wh := s.Warehouse()
	if st.Catalog != nil {
		if len(st.Catalog.Parts) != 1 {
			return nil, fmt.Errorf("SHOW NAMESPACES IN %s: name a catalog (SHOW CATALOGS lists them)", strings.Join(st.Catalog.Parts, "."))
		}
		var err error
		if wh, err = s.Catalog(ctx, st.Catalog.Parts[0]); err != nil {
			return nil, err
		}
	}
	nss, err := wh.Namespaces(ctx)
	if err != nil {
		return nil, err
	}
	rows := make([][]string, len(nss))
	for i, ns := range nss {
		rows[i] = []string{ns}
	}
	return engine.TextRows([]string{"namespace"}, rows), nil
}
