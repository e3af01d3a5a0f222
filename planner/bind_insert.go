package planner

import (
	"context"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakesql/lakesql/sql"
)

// BindInsert binds the source of INSERT INTO target [(cols)] query into a plan
// whose output columns are exactly the target table's columns, in order, with
// the table's types: listed columns come from the query, the rest are NULL.
func BindInsert(ctx context.Context, res Resolver, target *TableRef, ins *sql.Insert) (Plan, error) {
	b := &binder{ctx: ctx, res: res}
	source, err := b.bindQuery(ins.Source)
	if err != nil {
		return nil, err
	}
	fields := target.Schema.Fields()
	srcCols := source.Schema()
	// positions[i] is the source column feeding table column i, or -1.
	positions := make([]int, len(fields))
	if len(ins.Columns) == 0 {
		if len(srcCols) != len(fields) {
			return nil, errorf(ins.Pos, "INSERT into %s needs %d values per row (its columns: %s), got %d",
				target.QualifiedName(), len(fields), columnList(target), len(srcCols))
		}
		for i := range positions {
			positions[i] = i
		}
	} else {
		if len(ins.Columns) != len(srcCols) {
			return nil, errorf(ins.Pos, "INSERT lists %d columns but the query gives %d values per row", len(ins.Columns), len(srcCols))
		}
		for i := range positions {
			positions[i] = -1
		}
		for j, name := range ins.Columns {
			i := fieldIndex(target, name)
			if i < 0 {
				return nil, errorf(ins.Pos, "table %s has no column %q (its columns: %s)", target.QualifiedName(), name, columnList(target))
			}
			if positions[i] >= 0 {
				return nil, errorf(ins.Pos, "column %q is listed twice", name)
			}
			positions[i] = j
		}
	}
	proj := &Project{Input: source}
	for i, f := range fields {
		t, err := ArrowTypeOf(f.Type)
		if err != nil {
			return nil, err
		}
		var e Expr = &Literal{T: t}
		if positions[i] >= 0 {
			src := &ColumnRef{Index: positions[i], Name: srcCols[positions[i]].Name, T: srcCols[positions[i]].T}
			if e, err = insertCast(src, t, f.Name, ins.Pos); err != nil {
				return nil, err
			}
		} else if f.Required {
			return nil, errorf(ins.Pos, "column %s is NOT NULL and needs a value", f.Name)
		}
		proj.Exprs = append(proj.Exprs, e)
		proj.Names = append(proj.Names, f.Name)
	}
	return foldValuesCasts(proj), nil
}

// insertCast converts a source column to the table column's type. Implicit
// conversions follow the assignment rules of SQL: numbers widen, strings
// convert to anything (checked per value), anything converts to a string.
func insertCast(src Expr, t arrow.DataType, column string, pos sql.Pos) (Expr, error) {
	from := src.Type()
	ok := arrow.TypeEqual(from, t) || from.ID() == arrow.NULL || isString(from) || isString(t) ||
		IsNumeric(from) && IsNumeric(t) || isTemporal(from) && isTemporal(t)
	if !ok {
		return nil, errorf(pos, "cannot insert %s into column %s of type %s", TypeString(from), column, TypeString(t))
	}
	if arrow.TypeEqual(from, t) {
		return src, nil
	}
	return &Cast{X: src, T: t}, nil
}

// foldValuesCasts applies the insert casts to VALUES literals at plan time, so
// a value that cannot be converted is reported before anything is written.
func foldValuesCasts(p *Project) Plan {
	values, ok := p.Input.(*Values)
	if !ok {
		return p
	}
	rows := make([][]Expr, len(values.Rows))
	for r, row := range values.Rows {
		rows[r] = make([]Expr, len(p.Exprs))
		for i, e := range p.Exprs {
			rows[r][i] = substituteColumns(e, row)
		}
	}
	cols := make([]Column, len(p.Exprs))
	for i, e := range p.Exprs {
		cols[i] = Column{Name: p.Names[i], T: e.Type()}
	}
	return &Values{Columns: cols, Rows: rows}
}

// substituteColumns replaces column references with the row's expressions,
// folding casts of literals.
func substituteColumns(e Expr, row []Expr) Expr {
	switch e := e.(type) {
	case *ColumnRef:
		return row[e.Index]
	case *Cast:
		x := substituteColumns(e.X, row)
		if lit, ok := x.(*Literal); ok {
			if v, err := ConvertLiteral(lit.Value, lit.T, e.T); err == nil {
				return &Literal{Value: v, T: e.T}
			}
		}
		return &Cast{X: x, T: e.T, Try: e.Try}
	}
	return e
}

func fieldIndex(t *TableRef, name string) int {
	for i, f := range t.Schema.Fields() {
		if strings.EqualFold(f.Name, name) {
			return i
		}
	}
	return -1
}

func columnList(t *TableRef) string {
	names := make([]string, 0, len(t.Schema.Fields()))
	for _, f := range t.Schema.Fields() {
		names = append(names, f.Name)
	}
	return strings.Join(names, ", ")
}
