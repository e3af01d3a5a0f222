package engine

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/sql"
)

// tempView is a session's temporary view (CREATE TEMP VIEW): its query is
// resolved in the namespace that was current when it was created.
type tempView struct {
	query     *sql.Query
	columns   []string
	namespace string
}

// ResolveView implements planner.ViewResolver. A one-part name is first a
// temporary view of the session (which, as in Spark, hides a table of the
// same name), then a view of the current namespace; the views stored in the
// catalog are Iceberg views whose query is re-parsed at every use.
func (s *Session) ResolveView(ctx context.Context, name sql.ObjectName) (*planner.View, error) {
	if len(name.Parts) == 1 {
		if s.definingTemp != "" && strings.EqualFold(name.Parts[0], s.definingTemp) {
			return nil, fmt.Errorf("temporary view %s would refer to itself", name.Parts[0])
		}
		if tv, ok := s.tempViews[strings.ToLower(name.Parts[0])]; ok {
			return &planner.View{Name: name.Parts[0], Query: tv.query, Columns: tv.columns, Resolver: s.viewScope(tv.namespace, true)}, nil
		}
	}
	wh, ns, viewName, err := s.TableName(ctx, name)
	if err != nil || wh != s.wh {
		// Not a name a view can have (ResolveTable explains), or a name
		// in another catalog, whose views a query cannot use: a view's
		// query names tables relative to the default catalog.
		return nil, nil
	}
	qualified := ns + "." + viewName
	if strings.EqualFold(qualified, s.defining) {
		return nil, fmt.Errorf("view %s would refer to itself", qualified)
	}
	v, err := s.wh.LoadView(ctx, ns, viewName)
	if err != nil || v == nil {
		return nil, err
	}
	stmt, err := sql.ParseOne(v.SQL)
	if err != nil {
		return nil, fmt.Errorf("view %s: its stored SQL does not parse: %v", qualified, err)
	}
	q, ok := stmt.(*sql.QueryStmt)
	if !ok {
		return nil, fmt.Errorf("view %s: its stored SQL is not a query", qualified)
	}
	return &planner.View{Name: qualified, Query: q.Query, Columns: v.Columns, Resolver: s.viewScope(v.DefaultNamespace, false)}, nil
}

// viewScope is the session as a view's query sees it: ns is the current
// namespace, and the temporary views are visible only to temporary views,
// since a stored view must make sense in any session.
func (s *Session) viewScope(ns string, temporary bool) *Session {
	scoped := *s
	scoped.namespace, scoped.defining, scoped.definingTemp = ns, "", ""
	if !temporary {
		scoped.tempViews = nil
	}
	return &scoped
}

// DefineView binds the query of a view being created as it will be bound
// at every use, and returns its columns: for a stored view ns.name in
// namespace ns, without the session's temporary views; for a temporary one
// (ns is then the current namespace) with them. Either way the query must
// not use the view itself.
func (s *Session) DefineView(ctx context.Context, ns, name string, temporary bool, q *sql.Query) ([]planner.Column, error) {
	scope := s.viewScope(ns, temporary)
	if temporary {
		scope.definingTemp = name
	} else {
		scope.defining = ns + "." + name
	}
	plan, err := planner.BindQuery(s.Context(ctx), scope, q)
	if err != nil {
		return nil, err
	}
	return plan.Schema(), nil
}

// TempViewExists reports whether the session has the temporary view name.
func (s *Session) TempViewExists(name string) bool {
	_, ok := s.tempViews[strings.ToLower(name)]
	return ok
}

// SetTempView creates or replaces the temporary view name.
func (s *Session) SetTempView(name string, q *sql.Query, columns []string) {
	if s.tempViews == nil {
		s.tempViews = map[string]*tempView{}
	}
	s.tempViews[strings.ToLower(name)] = &tempView{query: q, columns: columns, namespace: s.namespace}
}

// DropTempView removes the temporary view name, reporting whether there was one.
func (s *Session) DropTempView(name string) bool {
	key := strings.ToLower(name)
	_, ok := s.tempViews[key]
	delete(s.tempViews, key)
	return ok
}

// TempViews lists the session's temporary views, sorted.
func (s *Session) TempViews() []string {
	return slices.Sorted(maps.Keys(s.tempViews))
}

var _ planner.ViewResolver = (*Session)(nil)
