package planner

import (
	"maps"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakesql/lakesql/sql"
)

// cteFrame is one WITH definition; frames link to the definitions visible
// before it (earlier ones in the same WITH, then enclosing queries').
type cteFrame struct {
	def    *sql.CTE
	parent *cteFrame
	// recursive is set for the definitions of a WITH RECURSIVE.
	recursive bool
	// work is set for the frame that, while a recursive definition's step
	// is bound, makes its name the previous round's rows; workDepth is the
	// subquery nesting there, and workUsed records a reference.
	work      *WorkTable
	workDepth int
	workUsed  bool
}

// pushCTEs makes a WITH list visible to the rest of the query; the returned
// function restores the previous definitions.
func (b *binder) pushCTEs(with []sql.CTE, recursive bool) (func(), error) {
	saved := b.ctes
	for i := range with {
		def := &with[i]
		for _, earlier := range with[:i] {
			if strings.EqualFold(earlier.Name, def.Name) {
				b.ctes = saved
				return nil, errorf(def.Pos, "WITH query name %q is specified more than once", def.Name)
			}
		}
		b.ctes = &cteFrame{def: def, parent: b.ctes, recursive: recursive}
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
	alias := t.Alias
	if alias == "" {
		alias = f.def.Name
	}
	if f.work != nil {
		// A subquery runs once per statement, not once per round.
		if len(b.outer) != f.workDepth {
			return nil, errorf(t.Pos, "the recursive reference to %s must not be in a subquery", f.def.Name)
		}
		f.workUsed = true
		return NewSubqueryAlias(f.work, alias, f.def.Columns)
	}
	saved := b.ctes
	b.ctes = f.parent
	b.defining = append(b.defining, f)
	plan, err := b.bindCTEQuery(f)
	b.defining = b.defining[:len(b.defining)-1]
	b.ctes = saved
	if err != nil {
		return nil, err
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

// bindCTEQuery binds a WITH definition's query; one of WITH RECURSIVE of
// the form anchor UNION [ALL] step whose step reads the definition's own
// name becomes a RecursiveCTE (any other binds as a plain WITH query).
func (b *binder) bindCTEQuery(f *cteFrame) (Plan, error) {
	q := f.def.Query
	op, ok := q.Body.(*sql.SetOp)
	if !f.recursive || !ok || op.Op != "UNION" || op.ByName || !isBare(q) {
		return b.bindQuery(q)
	}
	uses := maps.Clone(b.cteUses) // for binding again, should step not recur
	anchor, err := b.bindSetExpr(op.L)
	if err != nil {
		return nil, err
	}
	cols := anchor.Schema()
	work := &WorkTable{Name: f.def.Name, CTE: f.def, Columns: make([]Column, len(cols))}
	for i, c := range cols {
		work.Columns[i] = Column{Name: c.Name, T: c.T}
	}
	self := &cteFrame{def: f.def, parent: b.ctes, work: work, workDepth: len(b.outer)}
	saved := b.ctes
	b.ctes = self
	step, err := b.bindSetExpr(op.R)
	b.ctes = saved
	if err != nil {
		return nil, err
	}
	if !self.workUsed {
		b.cteUses = uses
		return b.bindQuery(q)
	}
	scols := step.Schema()
	if len(scols) != len(cols) {
		return nil, errorf(op.Pos, "each UNION query must have the same number of columns: the anchor of %s has %d, its recursive part %d", f.def.Name, len(cols), len(scols))
	}
	exprs := columnRefs(scols)
	for i := range exprs {
		if arrow.TypeEqual(scols[i].T, cols[i].T) {
			continue
		}
		x, err := castTo(exprs[i], cols[i].T)
		if err != nil {
			return nil, kindErrorf(ErrType, op.Pos, "column %d (%s) of %s is %s in its anchor but %s in its recursive part", i+1, cols[i].Name, f.def.Name, TypeString(cols[i].T), TypeString(scols[i].T))
		}
		if exprs[i], err = b.localize(x); err != nil {
			return nil, err
		}
	}
	return &RecursiveCTE{Name: f.def.Name, CTE: f.def, Anchor: anchor, Step: castColumns(step, exprs), All: op.All}, nil
}

// isBare reports whether q is nothing but its body.
func isBare(q *sql.Query) bool {
	return q.With == nil && q.OrderBy == nil && q.Limit == nil && q.Offset == nil
}

// selfReference explains why a table name that names no table failed,
// when it is the name of a WITH query being defined: that query cannot see
// itself, unless RECURSIVE lets its recursive part.
func (b *binder) selfReference(name sql.ObjectName, pos sql.Pos) error {
	if len(name.Parts) != 1 {
		return nil
	}
	for _, f := range b.defining {
		if !strings.EqualFold(f.def.Name, name.Parts[0]) {
			continue
		}
		if f.recursive {
			return errorf(pos, "the WITH RECURSIVE query %s reads itself outside its recursive part: it must be anchor UNION [ALL] step, and only step may read %s", f.def.Name, f.def.Name)
		}
		return errorf(pos, "the WITH query %s reads itself: write WITH RECURSIVE for a query that reads its own rows", f.def.Name)
	}
	return nil
}
