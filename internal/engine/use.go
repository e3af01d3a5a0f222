package engine

import (
	"context"

	"github.com/lakesql/lakesql/sql"
)

// Use makes a namespace the current one: USE ns.
func (s *Session) Use(ctx context.Context, st *sql.Use) (*Result, error) {
	ns, err := s.NamespaceName(st.Name)
	if err != nil {
		return nil, err
	}
	exists, err := s.wh.NamespaceExists(ctx, ns)
	if err != nil {
		return nil, err
	}
	if !exists {
		return nil, s.wh.NoSuchNamespace(ctx, ns)
	}
	s.namespace = ns
	return Message("OK"), nil
}
