package planner

import (
	"fmt"

	"github.com/lakesql/lakesql/sql"
)

func (b *binder) bindFrom(from sql.TableExpr) (Plan, error) {
	switch t := from.(type) {
	case *sql.TableName:
		ref, err := b.res.ResolveTable(b.ctx, t.Name, t.TimeTravel)
		if err != nil {
			return nil, err
		}
		return NewScan(ref, t.Alias)
	case *sql.TableFunc:
		return nil, errorf(t.Pos, "table function %s is not supported yet", t.Name)
	case *sql.SubqueryTable:
		return nil, errorf(t.Pos, "subqueries in FROM are not supported yet")
	case *sql.Join:
		return nil, errorf(t.Pos, "joins are not supported yet")
	}
	return nil, fmt.Errorf("unknown FROM item %T", from)
}

// NewScan scans every column of a table; projection pruning narrows it later.
func NewScan(ref *TableRef, alias string) (*Scan, error) {
	scan := &Scan{Table: ref, Alias: alias}
	for _, f := range ref.Schema.Fields() {
		t, err := ArrowTypeOf(f.Type)
		if err != nil {
			return nil, fmt.Errorf("table %s column %s: %w", ref.QualifiedName(), f.Name, err)
		}
		scan.Columns = append(scan.Columns, ScanColumn{FieldID: f.ID, Name: f.Name, T: t})
	}
	return scan, nil
}
