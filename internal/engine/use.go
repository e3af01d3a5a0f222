package engine

import (
	"context"
	"fmt"
	"strings"

	"github.com/lakesql/lakesql/sql"
)

// Use makes a namespace the current one: USE ns. One-part names are
// always the default catalog's, so the current namespace is one of its
// namespaces too.
func (s *Session) Use(ctx context.Context, st *sql.Use) (*Result, error) {
	wh, ns, err := s.NamespaceName(ctx, st.Name)
	if err != nil {
		return nil, err
	}
	if wh != s.wh {
		return nil, fmt.Errorf("USE %s: the current namespace is one of the default catalog %s; name tables of catalog %s as %s.namespace.table",
			strings.Join(st.Name.Parts, "."), s.opts.Catalog, st.Name.Parts[0], st.Name.Parts[0])
	}
	exists, err := wh.NamespaceExists(ctx, ns)
	if err != nil {
		return nil, err
	}
	if !exists {
		return nil, wh.NoSuchNamespace(ctx, ns)
	}
	s.namespace = ns
	return Message("OK"), nil
}
