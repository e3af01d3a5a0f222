package planner

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
)

// AsStored is p with each column converted to the type a table created
// from p stores it as (IcebergTypeOf, then read back): Iceberg has no
// TINYINT, SMALLINT or NULL type, so CREATE TABLE … AS SELECT 1::TINYINT,
// NULL stores an INT and a STRING, and the rows written must have those
// types. p itself when every column already has its stored type.
func AsStored(p Plan) (Plan, error) {
	cols := p.Schema()
	proj := &Project{Input: p}
	changed := false
	for i, c := range cols {
		it, err := IcebergTypeOf(c.T)
		if err != nil {
			return nil, fmt.Errorf("column %s: %w", c.Name, err)
		}
		t, err := ArrowTypeOf(it)
		if err != nil {
			return nil, fmt.Errorf("column %s: %w", c.Name, err)
		}
		var e Expr = &ColumnRef{Index: i, Name: c.Name, T: c.T}
		if !arrow.TypeEqual(c.T, t) {
			e = &Cast{X: e, T: t}
			changed = true
		}
		proj.Exprs = append(proj.Exprs, e)
		proj.Names = append(proj.Names, c.Name)
	}
	if !changed {
		return p, nil
	}
	return proj, nil
}
