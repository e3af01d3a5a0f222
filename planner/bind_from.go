package planner

import (
	"fmt"
	"slices"
	"strings"

	"github.com/lakesql/lakesql/sql"
)

func (b *binder) bindFrom(from sql.TableExpr) (Plan, error) {
	switch t := from.(type) {
	case *sql.TableName:
		// A CTE shadows a table of the same name.
		if f := b.lookupCTE(t.Name); f != nil {
			return b.bindCTERef(f, t)
		}
		if plan, ok, err := b.bindView(t); ok {
			return plan, err
		}
		if plan, ok, err := b.bindMetadataTable(t); ok {
			return plan, err
		}
		ref, err := b.res.ResolveTable(b.ctx, t.Name, t.TimeTravel)
		if err != nil {
			if self := b.selfReference(t.Name, t.Pos); self != nil {
				return nil, self
			}
			return nil, err
		}
		scan, err := NewScan(ref, t.Alias)
		if err != nil {
			return nil, err
		}
		return withMetadataColumns(scan), nil
	case *sql.TableFunc:
		return b.bindTableFunc(t)
	case *sql.FileTable:
		return b.bindFileTable(t)
	case *sql.SubqueryTable:
		return b.bindSubqueryTable(t)
	case *sql.SampledTable:
		return b.bindSampledTable(t)
	case *sql.Join:
		return b.bindJoin(t)
	}
	return nil, fmt.Errorf("unknown FROM item %T", from)
}

// NewScan scans every column of a table; projection pruning narrows it later.
func NewScan(ref *TableRef, alias string) (*Scan, error) {
	scan := &Scan{Table: ref, Alias: alias}
	for _, f := range ref.Schema.Fields() {
		t, err := scanTypeOf(f.Type)
		if err != nil {
			return nil, fmt.Errorf("table %s column %s: %w", ref.QualifiedName(), f.Name, err)
		}
		scan.Columns = append(scan.Columns, ScanColumn{FieldID: f.ID, Name: f.Name, T: t})
	}
	return scan, nil
}

// bindSubqueryTable binds (query) AS alias [(cols)].
func (b *binder) bindSubqueryTable(t *sql.SubqueryTable) (Plan, error) {
	plan, err := b.bindQuery(t.Query)
	if err != nil {
		return nil, err
	}
	out, err := NewSubqueryAlias(plan, t.Alias, t.ColAliases)
	if err != nil {
		return nil, errorf(t.Pos, "subquery %v", err)
	}
	return out, nil
}

// bindJoin binds both inputs, then the ON condition over their columns (left's
// first), or turns USING into key equalities.
func (b *binder) bindJoin(j *sql.Join) (Plan, error) {
	if gen, ok := lateralGenerator(j); ok {
		return b.bindLateral(j, gen)
	}
	if sub, ok := j.R.(*sql.SubqueryTable); ok && sub.Lateral {
		return b.bindLateralSubquery(j, sub)
	}
	left, err := b.bindFrom(j.L)
	if err != nil {
		return nil, err
	}
	right, err := b.bindFrom(j.R)
	if err != nil {
		return nil, err
	}
	if j.Natural {
		j = naturalJoin(j, left, right)
	}
	if len(j.Using) > 0 {
		return b.bindJoinUsing(j, left, right)
	}
	return b.joinOn(j, left, right)
}

// joinOn binds j's ON condition over left's and right's columns, and joins
// them on it.
func (b *binder) joinOn(j *sql.Join, left, right Plan) (Plan, error) {
	var cond Expr
	if j.On != nil {
		s := &scope{cols: append(append([]Column(nil), left.Schema()...), right.Schema()...)}
		var err error
		if cond, err = b.bindExpr(j.On, s); err != nil {
			return nil, err
		}
		if cond, err = requireBoolean(cond, j.On.Position(), "ON"); err != nil {
			return nil, err
		}
	}
	typ := j.Type
	if typ == sql.JoinCross && cond != nil {
		typ = sql.JoinInner
	}
	return NewJoin(typ, left, right, cond), nil
}

// naturalJoin is a NATURAL JOIN as the join USING the columns both sides
// have (their metadata columns aside), in the left side's order; with none
// in common it is a cross join (an inner one when not outer).
func naturalJoin(j *sql.Join, left, right Plan) *sql.Join {
	out := *j
	out.Natural, out.Using = false, nil
	for _, l := range left.Schema() {
		if l.Hidden || slices.ContainsFunc(out.Using, func(u string) bool { return strings.EqualFold(u, l.Name) }) {
			continue
		}
		if slices.ContainsFunc(right.Schema(), func(r Column) bool { return !r.Hidden && strings.EqualFold(r.Name, l.Name) }) {
			out.Using = append(out.Using, l.Name)
		}
	}
	if len(out.Using) == 0 && out.Type == sql.JoinInner {
		out.Type = sql.JoinCross
	}
	return &out
}

// bindJoinUsing binds JOIN … USING (cols): the inputs join on equal columns,
// and the output has each USING column once, first, then the other columns
// of the left and of the right input. The USING column is the left input's,
// the right's for a RIGHT join, and their coalesced value for a FULL join,
// and belongs to neither input. The inputs' own copies follow it hidden, so
// that a.x and b.x still name them and a.* and b.* include them. The
// inputs' hidden columns (metadata columns, earlier joins' copies) come
// last, hidden still.
func (b *binder) bindJoinUsing(j *sql.Join, left, right Plan) (Plan, error) {
	lcols, rcols := left.Schema(), right.Schema()
	nl := len(lcols)
	all := append(append([]Column(nil), lcols...), rcols...)
	var keys []Expr
	proj := &Project{}
	add := func(x Expr, name string, marks ColumnMarks) {
		proj.Exprs = append(proj.Exprs, x)
		proj.Names = append(proj.Names, name)
		proj.Marks = append(proj.Marks, marks)
	}
	used := make([]bool, len(all))
	var copies []int
	for _, name := range j.Using {
		ref := &sql.ColumnRef{Parts: []string{name}, Pos: j.Pos}
		li, err := (&scope{cols: lcols}).resolve(ref)
		if err != nil {
			return nil, err
		}
		ri, err := (&scope{cols: rcols}).resolve(ref)
		if err != nil {
			return nil, err
		}
		if used[li] {
			return nil, errorf(j.Pos, "column %q appears more than once in USING", name)
		}
		used[li], used[nl+ri] = true, true
		pair, err := unify(j.Pos,
			&ColumnRef{Index: li, Name: lcols[li].Name, T: lcols[li].T},
			&ColumnRef{Index: nl + ri, Name: rcols[ri].Name, T: rcols[ri].T})
		if err != nil {
			return nil, err
		}
		keys = append(keys, &Call{Fn: FnEq, Args: pair, T: TypeBoolean})
		if j.Type == sql.JoinSemi || j.Type == sql.JoinAnti {
			continue // the output is the left side's columns, as they are
		}
		add(usingColumn(j.Type, pair[0], pair[1]), lcols[li].Name, ColumnMarks{Merged: true})
		copies = append(copies, li, nl+ri)
	}
	if j.Type == sql.JoinSemi || j.Type == sql.JoinAnti {
		return NewJoin(j.Type, left, right, Conjunction(keys)), nil
	}
	for _, i := range copies {
		add(&ColumnRef{Index: i, Name: all[i].Name, T: all[i].T}, all[i].Name, ColumnMarks{Hidden: true, UsingCopy: true})
	}
	for _, hidden := range []bool{false, true} {
		for i, c := range all {
			if !used[i] && c.Hidden == hidden {
				add(&ColumnRef{Index: i, Name: c.Name, T: c.T}, c.Name, c.ColumnMarks)
			}
		}
	}
	typ := j.Type
	if typ == sql.JoinCross {
		typ = sql.JoinInner
	}
	proj.Input = NewJoin(typ, left, right, Conjunction(keys))
	return proj, nil
}

// usingColumn is the value of a USING column in the join output.
func usingColumn(typ sql.JoinType, l, r Expr) Expr {
	switch typ {
	case sql.JoinRight:
		return r
	case sql.JoinFull:
		return &Call{Fn: FnCoalesce, Args: []Expr{l, r}, T: l.Type()}
	}
	return l
}
