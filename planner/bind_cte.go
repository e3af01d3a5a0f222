package planner

import (
	"strings"

	"github.com/lakesql/lakesql/sql"
)

// cteFrame is one WITH definition; frames link to the definitions visible
// before it (earlier ones in the same WITH, then enclosing queries').
type cteFrame struct {
	def    *sql.CTE
	parent *cteFrame
}

// pushCTEs makes a WITH list visible to the rest of the query; the returned
// function restores the previous definitions.
func (b *binder) pushCTEs(with []sql.CTE) (func(), error) {
	saved := b.ctes
	for i := range with {
		def := &with[i]
		for _, earlier := range with[:i] {
			if strings.EqualFold(earlier.Name, def.Name) {
				b.ctes = saved
				return nil, errorf(def.Pos, "WITH query name %q is specified more than once", def.Name)
			}
		}
		b.ctes = &cteFrame{def: def, parent: b.ctes}
	}
	return func() { b.ctes = saved }, nil
}

// lookupCTE finds the innermost CTE a one-part table name refers to.
func (b *binder) lookupCTE(name sql.ObjectName) *cteFrame {
	if len(name.Parts) != 1 {
		return nil
	}
	for f := b.ctes; f != nil; f = f.parent {
		if strings.EqualFold(f.def.Name, name.Parts[0]) {
			return f
		}
	}
	return nil
}

// bindCTERef binds a reference to a CTE by inlining its query, bound with the
// definitions visible where the CTE was defined (so a CTE cannot see itself
// or later ones), and qualifies its columns by alias or the CTE's name.
func (b *binder) bindCTERef(f *cteFrame, t *sql.TableName) (Plan, error) {
	if t.TimeTravel != nil {
		return nil, errorf(t.Pos, "time travel does not apply to the CTE %s", f.def.Name)
	}
	saved := b.ctes
	b.ctes = f.parent
	plan, err := b.bindQuery(f.def.Query)
	b.ctes = saved
	if err != nil {
		return nil, err
	}
	alias := t.Alias
	if alias == "" {
		alias = f.def.Name
	}
	if b.shareCTEs && b.cteUses[f.def] > 1 && !readsOuterQuery(plan) {
		plan = &Materialize{Name: f.def.Name, CTE: f.def, Input: plan}
	} else if !b.shareCTEs && b.cteUses != nil {
		b.cteUses[f.def]++
	}
	out, err := NewSubqueryAlias(plan, alias, f.def.Columns)
	if err != nil {
		return nil, errorf(f.def.Pos, "WITH query %v", err)
	}
	return out, nil
}

// readsOuterQuery reports whether p reads a column of a query around it: a
// WITH query inside a correlated subquery is left inline, for the
// subquery's decorrelation to see through.
func readsOuterQuery(p Plan) bool {
	found := false
	WalkPlanExprs(p, func(e Expr, nesting int) {
		if o, ok := e.(*OuterRef); ok && o.Depth > nesting {
			found = true
		}
	})
	return found
}

// sharesCTE reports whether the statement bound references a WITH
// definition more than once.
func (b *binder) sharesCTE() bool {
	for _, n := range b.cteUses {
		if n > 1 {
			return true
		}
	}
	return false
}
