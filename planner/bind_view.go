package planner

import (
	"context"
	"slices"
	"strings"

	"github.com/lakesql/lakesql/sql"
)

// View is a named query the binder inlines where its name is used, so the
// optimizer sees through it: filters on a view prune the files of the
// tables under it.
type View struct {
	// Name is the view's qualified name, for messages.
	Name  string
	Query *sql.Query
	// Columns rename the query's columns, or are nil to keep them.
	Columns []string
	// Resolver resolves the names inside the query: those of the namespace
	// the view was created in, not the session's current one.
	Resolver Resolver
}

// ViewResolver is implemented by resolvers that know views (session
// temporary views and views stored in the catalog).
type ViewResolver interface {
	// ResolveView finds the view a table name as written refers to, or
	// returns nil when the name is no view.
	ResolveView(ctx context.Context, name sql.ObjectName) (*View, error)
}

// bindView binds t when the resolver knows it as a view; ok is false for
// any other name.
func (b *binder) bindView(t *sql.TableName) (plan Plan, ok bool, err error) {
	vr, isViews := b.res.(ViewResolver)
	if !isViews {
		return nil, false, nil
	}
	v, err := vr.ResolveView(b.ctx, t.Name)
	if err != nil {
		return nil, true, errorf(t.Pos, "%v", err)
	}
	if v == nil {
		return nil, false, nil
	}
	if t.TimeTravel != nil {
		return nil, true, errorf(t.Pos, "time travel does not apply to the view %s", v.Name)
	}
	if slices.Contains(b.views, v.Name) {
		return nil, true, errorf(t.Pos, "view %s refers to itself (through %s)", v.Name, strings.Join(b.views, " → "))
	}
	inner := &binder{ctx: b.ctx, res: v.Resolver, now: b.now, loc: b.loc, views: append(slices.Clone(b.views), v.Name)}
	body, err := inner.bindQuery(v.Query)
	if err != nil {
		return nil, true, errorf(t.Pos, "view %s: %v", v.Name, err)
	}
	b.now = inner.now
	alias := t.Alias
	if alias == "" {
		alias = t.Name.Parts[len(t.Name.Parts)-1]
	}
	out, err := NewSubqueryAlias(body, alias, v.Columns)
	if err != nil {
		return nil, true, errorf(t.Pos, "view %s: %v", v.Name, err)
	}
	return out, true, nil
}
