package planner

import (
	"context"
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakesql/lakesql/sql"
	"github.com/lakesql/lakesql/storage"
)

// BindInsert binds the source of INSERT INTO target [(cols) | BY NAME] query
// into a plan whose output columns are exactly the target table's columns, in
// order, with the table's types: listed columns (BY NAME: the query's
// columns, by their names) come from the query, the rest are NULL.
func BindInsert(ctx context.Context, res Resolver, target *TableRef, ins *sql.Insert) (Plan, error) {
	b := &binder{ctx: ctx, res: res, loc: timeZoneOf(ctx)}
	if values, ok := plainValues(ins.Source); ok {
		if ins.ByName {
			return nil, errorf(ins.Pos, "INSERT … BY NAME takes the column names of a query (SELECT …); VALUES rows have none")
		}
		// VALUES rows convert straight to the table's column types, so a
		// value that does not fit is reported where it is written.
		return b.bindInsertValues(target, ins, values)
	}
	source, err := b.bindQuery(ins.Source)
	if err != nil {
		return nil, err
	}
	fields := target.Schema.Fields()
	srcCols := source.Schema()
	if ins.ByName {
		byName := *ins
		for _, c := range srcCols {
			byName.Columns = append(byName.Columns, c.Name)
		}
		ins = &byName
	}
	positions, err := insertPositions(target, ins, len(srcCols))
	if err != nil {
		return nil, err
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
			if e, err = b.localize(e); err != nil {
				return nil, err
			}
		}
		proj.Exprs = append(proj.Exprs, e)
		proj.Names = append(proj.Names, f.Name)
	}
	return proj, nil
}

// insertPositions maps each table column to the source column that feeds
// it, or -1 for columns the INSERT does not list.
func insertPositions(target *TableRef, ins *sql.Insert, width int) ([]int, error) {
	fields := target.Schema.Fields()
	positions := make([]int, len(fields))
	if len(ins.Columns) == 0 {
		if width != len(fields) {
			return nil, errorf(ins.Pos, "INSERT into %s needs %d values per row (its columns: %s), got %d",
				target.QualifiedName(), len(fields), columnList(target), width)
		}
		for i := range positions {
			positions[i] = i
		}
		return positions, nil
	}
	if len(ins.Columns) != width {
		return nil, errorf(ins.Pos, "INSERT lists %s but the query gives %s per row", plural(len(ins.Columns), "column"), plural(width, "value"))
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
	for i, f := range fields {
		if positions[i] < 0 && f.Required {
			return nil, errorf(ins.Pos, "column %s is NOT NULL and needs a value", f.Name)
		}
	}
	return positions, nil
}

// insertCast converts a source column to the table column's type. Implicit
// conversions follow the assignment rules of SQL: numbers widen, strings
// convert to anything (checked per value), anything converts to a string.
func insertCast(src Expr, t arrow.DataType, column string, pos sql.Pos) (Expr, error) {
	from := src.Type()
	if !assignable(from, t) {
		return nil, kindErrorf(ErrType, pos, "cannot insert %s into column %s of type %s", TypeString(from), column, TypeString(t))
	}
	if arrow.TypeEqual(from, t) {
		return src, nil
	}
	return &Cast{X: src, T: t}, nil
}

// assignable reports whether INSERT converts values of type from to to.
func assignable(from, to arrow.DataType) bool {
	return arrow.TypeEqual(from, to) || from.ID() == arrow.NULL || isString(from) && !storage.IsNested(to) || isString(to) ||
		IsNumeric(from) && IsNumeric(to) || isTemporal(from) && isTemporal(to) || nestedAssignable(from, to)
}

// plainValues returns the VALUES list of a query that is nothing else.
func plainValues(q *sql.Query) (*sql.Values, bool) {
	v, ok := q.Body.(*sql.Values)
	return v, ok && len(q.With) == 0 && len(q.OrderBy) == 0 && q.Limit == nil && q.Offset == nil
}

// bindInsertValues binds INSERT … VALUES rows directly against the target
// columns: each value is converted to its column's type, NULL fills columns
// not listed.
func (b *binder) bindInsertValues(target *TableRef, ins *sql.Insert, values *sql.Values) (Plan, error) {
	fields := target.Schema.Fields()
	positions, err := insertPositions(target, ins, len(values.Rows[0]))
	if err != nil {
		return nil, err
	}
	cols := make([]Column, len(fields))
	for i, f := range fields {
		t, err := ArrowTypeOf(f.Type)
		if err != nil {
			return nil, err
		}
		cols[i] = Column{Name: f.Name, T: t}
	}
	rows := make([][]Expr, len(values.Rows))
	for r, row := range values.Rows {
		if len(row) != len(values.Rows[0]) {
			return nil, errorf(values.Pos, "VALUES row %d has %d values, the first row has %d", r+1, len(row), len(values.Rows[0]))
		}
		rows[r] = make([]Expr, len(fields))
		for i, f := range fields {
			if positions[i] < 0 {
				rows[r][i] = &Literal{T: cols[i].T}
				continue
			}
			e := row[positions[i]]
			x, err := b.bindExpr(e, &scope{})
			if err != nil {
				return nil, err
			}
			if x, err = insertCast(x, cols[i].T, f.Name, e.Position()); err != nil {
				return nil, err
			}
			if x, err = b.localize(x); err != nil {
				return nil, errorf(e.Position(), "value for column %s: %v", f.Name, err)
			}
			if lit, ok := x.(*Literal); ok {
				x, err = castTo(lit, cols[i].T)
				if err != nil {
					return nil, errorf(e.Position(), "value for column %s: %v", f.Name, err)
				}
			}
			rows[r][i] = x
		}
	}
	return &Values{Columns: cols, Rows: rows}, nil
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

// plural writes a count with its noun: 1 column, 2 columns.
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
