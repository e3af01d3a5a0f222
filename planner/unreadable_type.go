package planner

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/iceberg-go"
)

// UnreadableType is the type of a table column whose Iceberg type lakesql
// cannot read yet (variant, geometry, geography, unknown). The table stays
// usable — count(*) and queries on its other columns answer — and a query
// that names the column, or selects *, fails saying which column and why.
type UnreadableType struct {
	arrow.NullType
	Iceberg iceberg.Type
}

func (t *UnreadableType) String() string { return t.Iceberg.String() }

// scanTypeOf is the type a scan gives a table column of Iceberg type t.
func scanTypeOf(t iceberg.Type) (arrow.DataType, error) {
	switch t.(type) {
	case iceberg.UnknownType, iceberg.VariantType, iceberg.GeometryType, iceberg.GeographyType:
		return &UnreadableType{Iceberg: t}, nil
	}
	at, err := ArrowTypeOf(t)
	if _, nested := t.(iceberg.NestedType); nested && err != nil {
		// A struct, list or map holding such a type: unreadable as a whole.
		return &UnreadableType{Iceberg: t}, nil
	}
	return at, err
}

// UnreadableColumn is the error of a query that reads column name of type t,
// or nil when lakesql can read it.
func UnreadableColumn(name string, t arrow.DataType) error {
	u, ok := t.(*UnreadableType)
	if !ok {
		return nil
	}
	return fmt.Errorf("column %s has Iceberg type %s, which lakesql cannot read yet", name, u.Iceberg)
}
