package dml

import (
	"context"
	"fmt"
	"strings"

	"github.com/lakesql/lakesql/internal/engine"
	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/sql"
)

// MERGE INTO target USING source ON cond WHEN … is copy-on-write, as Iceberg
// does it in Spark by default:
//
//  1. The source is read into memory; its join keys, with the ON
//     condition's target-only conjuncts, prune the target's files as a
//     query's WHERE and a hash join's dynamic filter would.
//  2. The remaining target files are read, each row named by its file and
//     its position in it, and joined with the source (the target side preserved, the
//     source side too when rows may be inserted). A row whose ON condition
//     is NULL does not match, as in any join.
//  3. Each joined row takes the first WHEN clause of its kind whose
//     condition is TRUE. A target row matched by two source rows is an
//     error when any WHEN MATCHED clause could apply to it (Spark's rule).
//  4. The files holding an updated or deleted row are replaced by copies
//     with the changes; inserted rows go to new files; all in one snapshot.
//     Files without a changed row are not rewritten. Under write.merge.mode
//     = merge-on-read no file is rewritten: the updated and deleted rows'
//     positions go to position delete files, and the new versions of the
//     updated rows to new data files with the inserted ones.
//
// The joined rows of the candidate files are held in memory until the
// changed files are known.

// Column layout of the joined rows: the source's columns, then a source
// marker (TRUE on every source row, NULL where no source row joined), then
// the target's columns, then the row's position in its data file and the
// file's index (NULL where no target row joined).

// merge is one MERGE statement, bound.
type merge struct {
	s        *engine.Session
	st       *sql.Merge
	target   *planner.TableRef
	scan     *planner.Scan
	source   planner.Plan
	srcCols  []planner.Column // qualified by the source's alias
	tgtCols  []planner.Column // qualified by the target's alias
	on       planner.Expr     // over the joined layout
	clauses  []mergeClause
	matched  bool // some WHEN MATCHED clause exists
	inserts  bool // some WHEN NOT MATCHED clause exists
	bySource bool // some WHEN NOT MATCHED BY SOURCE clause exists
}

// mergeClause is a WHEN clause bound over the joined layout.
type mergeClause struct {
	match  sql.MergeMatch
	action sql.MergeAction
	cond   planner.Expr   // nil: always
	values []planner.Expr // per target column: UPDATE's new values (nil: unchanged), INSERT's values
}

// Merge runs MERGE INTO.
func Merge(ctx context.Context, s *engine.Session, st *sql.Merge) (*engine.Result, error) {
	m := &merge{s: s, st: st}
	if err := m.bind(ctx); err != nil {
		return nil, err
	}
	return m.run(ctx)
}

func (m *merge) srcMark() int { return len(m.srcCols) }
func (m *merge) tgtBase() int { return len(m.srcCols) + 1 }
func (m *merge) rowCol() int  { return len(m.srcCols) + 1 + len(m.tgtCols) }
func (m *merge) fileCol() int { return m.rowCol() + 1 }

// bind resolves the target and the source and binds ON and every clause.
func (m *merge) bind(ctx context.Context) error {
	var err error
	if m.target, err = m.s.ResolveTable(ctx, m.st.Target, nil); err != nil {
		return err
	}
	if m.scan, err = planner.NewScan(m.target, m.st.TargetAlias); err != nil {
		return err
	}
	m.tgtCols = m.scan.Schema()
	if err := m.bindSource(ctx); err != nil {
		return err
	}
	on, err := m.s.BindConditionOver(ctx, append(append([]planner.Column(nil), m.srcCols...), m.tgtCols...), m.st.On, "MERGE … ON")
	if err != nil {
		return err
	}
	m.on = m.shift(on, sql.Matched)
	for _, c := range m.st.Clauses {
		bc, err := m.bindClause(ctx, c)
		if err != nil {
			return err
		}
		m.clauses = append(m.clauses, bc)
		switch c.Match {
		case sql.Matched:
			m.matched = true
		case sql.NotMatched:
			m.inserts = true
		case sql.NotMatchedBySource:
			m.bySource = true
		}
	}
	return nil
}

// bindSource plans SELECT * FROM source; its columns are qualified by the
// source's alias, or its table name.
func (m *merge) bindSource(ctx context.Context) error {
	alias := ""
	switch src := m.st.Source.(type) {
	case *sql.TableName:
		alias = src.Alias
		if alias == "" {
			alias = src.Name.Parts[len(src.Name.Parts)-1]
		}
	case *sql.SubqueryTable:
		alias = src.Alias
	}
	q := &sql.Query{Body: &sql.Select{Items: []sql.SelectItem{{Expr: &sql.Star{Pos: m.st.Pos}}}, From: m.st.Source, Pos: m.st.Pos}}
	p, err := m.s.Plan(ctx, q)
	if err != nil {
		return err
	}
	m.source = p
	for _, c := range p.Schema() {
		m.srcCols = append(m.srcCols, planner.Column{Table: alias, Name: c.Name, T: c.T})
	}
	return nil
}

// scope is the columns a clause of kind match may read — both sides for ON
// and WHEN MATCHED, the source's for WHEN NOT MATCHED, the target's for WHEN
// NOT MATCHED BY SOURCE — as expressions bound over them number them.
func (m *merge) scope(match sql.MergeMatch) []planner.Column {
	switch match {
	case sql.NotMatched:
		return m.srcCols
	case sql.NotMatchedBySource:
		return m.tgtCols
	}
	return append(append([]planner.Column(nil), m.srcCols...), m.tgtCols...)
}

// shift renumbers an expression bound over scope(match) to the joined layout.
func (m *merge) shift(e planner.Expr, match sql.MergeMatch) planner.Expr {
	if e == nil {
		return nil
	}
	to := func(i int) int {
		switch {
		case match == sql.NotMatchedBySource:
			return m.tgtBase() + i // bound over the target's columns alone
		case match == sql.Matched && i >= len(m.srcCols):
			return i + 1 // a target column, past the source marker
		}
		return i // a source column
	}
	return planner.Rewrite(e, func(x planner.Expr) planner.Expr {
		if ref, ok := x.(*planner.ColumnRef); ok {
			return &planner.ColumnRef{Index: to(ref.Index), Name: ref.Name, T: ref.T}
		}
		return x
	})
}

func (m *merge) bindClause(ctx context.Context, c sql.MergeClause) (mergeClause, error) {
	bc := mergeClause{match: c.Match, action: c.Action}
	cols := m.scope(c.Match)
	if c.Cond != nil {
		cond, err := m.s.BindConditionOver(ctx, cols, c.Cond, c.Match.String()+" AND")
		if err != nil {
			return bc, err
		}
		bc.cond = m.shift(cond, c.Match)
	}
	var err error
	switch c.Action {
	case sql.MergeUpdate:
		bc.values, err = m.bindUpdate(ctx, c, cols)
	case sql.MergeInsert:
		bc.values, err = m.bindInsert(ctx, c)
	}
	return bc, err
}

// bindUpdate binds UPDATE SET … (or SET *, every target column from the
// source column of its name).
func (m *merge) bindUpdate(ctx context.Context, c sql.MergeClause, cols []planner.Column) ([]planner.Expr, error) {
	if c.Star && c.Match == sql.NotMatchedBySource {
		return nil, &planner.Error{Pos: c.Pos, Msg: "WHEN NOT MATCHED BY SOURCE cannot UPDATE SET *: its rows have no source row; name the columns to set"}
	}
	if c.Star {
		return m.fromSource(ctx, c, "UPDATE SET *")
	}
	values := make([]planner.Expr, len(m.tgtCols))
	for _, a := range c.Set {
		i := columnIndex(m.scan, a.Column)
		if i < 0 {
			return nil, &planner.Error{Pos: a.Pos, Msg: fmt.Sprintf("table %s has no column %s (its columns: %s)", m.target.QualifiedName(), a.Column, columnNames(m.scan))}
		}
		if values[i] != nil {
			return nil, &planner.Error{Pos: a.Pos, Msg: "column " + m.tgtCols[i].Name + " is assigned twice"}
		}
		v, err := planner.BindAssignment(ctx, m.s, a.Value, cols, m.tgtCols[i].T, m.tgtCols[i].Name)
		if err != nil {
			return nil, err
		}
		values[i] = m.shift(v, c.Match)
	}
	return values, nil
}

// bindInsert binds INSERT (cols) VALUES (…), INSERT VALUES (…) (every
// column, in order) or INSERT * over the source's columns; columns not
// listed are NULL.
func (m *merge) bindInsert(ctx context.Context, c sql.MergeClause) ([]planner.Expr, error) {
	if c.Star {
		return m.fromSource(ctx, c, "INSERT *")
	}
	names := c.Columns
	if len(names) == 0 {
		for _, col := range m.tgtCols {
			names = append(names, col.Name)
		}
	}
	if len(names) != len(c.Values) {
		return nil, &planner.Error{Pos: c.Pos, Msg: fmt.Sprintf("INSERT lists %d columns but %d values", len(names), len(c.Values))}
	}
	values := make([]planner.Expr, len(m.tgtCols))
	for k, name := range names {
		i := columnIndex(m.scan, name)
		if i < 0 {
			return nil, &planner.Error{Pos: c.Pos, Msg: fmt.Sprintf("table %s has no column %s (its columns: %s)", m.target.QualifiedName(), name, columnNames(m.scan))}
		}
		if values[i] != nil {
			return nil, &planner.Error{Pos: c.Pos, Msg: "column " + m.tgtCols[i].Name + " is listed twice"}
		}
		v, err := planner.BindAssignment(ctx, m.s, c.Values[k], m.srcCols, m.tgtCols[i].T, m.tgtCols[i].Name)
		if err != nil {
			return nil, err
		}
		values[i] = v
	}
	for i, f := range m.target.Schema.Fields() {
		if values[i] != nil {
			continue
		}
		if f.Required {
			return nil, &planner.Error{Pos: c.Pos, Msg: "column " + f.Name + " is NOT NULL and needs a value"}
		}
		values[i] = &planner.Literal{T: m.tgtCols[i].T}
	}
	return values, nil
}

// fromSource binds, for every target column, the source column of the same
// name (UPDATE SET *, INSERT *), converted to the target column's type.
func (m *merge) fromSource(ctx context.Context, c sql.MergeClause, what string) ([]planner.Expr, error) {
	values := make([]planner.Expr, len(m.tgtCols))
	for i, col := range m.tgtCols {
		found := false
		for _, sc := range m.srcCols {
			found = found || strings.EqualFold(sc.Name, col.Name)
		}
		if !found {
			return nil, &planner.Error{Pos: c.Pos, Msg: fmt.Sprintf("%s needs a source column for every column of %s: the source has no column %s", what, m.target.QualifiedName(), col.Name)}
		}
		ref := &sql.ColumnRef{Parts: []string{col.Name}, Pos: c.Pos}
		v, err := planner.BindAssignment(ctx, m.s, ref, m.srcCols, col.T, col.Name)
		if err != nil {
			return nil, err
		}
		values[i] = v // source columns sit where they were bound
	}
	return values, nil
}
