package planner

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/iceberg-go"

	"github.com/lakesql/lakesql/sql"
	"github.com/lakesql/lakesql/storage"
)

// Nested Iceberg types map to Arrow's struct, list and map types. Every
// Arrow field carries its Iceberg field id (storage.FieldIDKey), which is how
// the Parquet reader finds it in files written under older schemas.

// arrowNestedOf maps an Iceberg struct, list or map type; ok is false for
// other types.
func arrowNestedOf(t iceberg.Type) (arrow.DataType, bool, error) {
	switch t := t.(type) {
	case *iceberg.StructType:
		fields := make([]arrow.Field, len(t.FieldList))
		for i, f := range t.FieldList {
			af, err := arrowFieldOf(f)
			if err != nil {
				return nil, true, err
			}
			fields[i] = af
		}
		return arrow.StructOf(fields...), true, nil
	case *iceberg.ListType:
		elem, err := arrowFieldOf(t.ElementField())
		if err != nil {
			return nil, true, err
		}
		return arrow.ListOfField(elem), true, nil
	case *iceberg.MapType:
		key, err := arrowFieldOf(t.KeyField())
		if err != nil {
			return nil, true, err
		}
		val, err := arrowFieldOf(t.ValueField())
		if err != nil {
			return nil, true, err
		}
		key.Nullable = false
		return arrow.MapOfFields(key, val), true, nil
	}
	return nil, false, nil
}

func arrowFieldOf(f iceberg.NestedField) (arrow.Field, error) {
	t, err := ArrowTypeOf(f.Type)
	if err != nil {
		return arrow.Field{}, err
	}
	return storage.WithFieldID(arrow.Field{Name: f.Name, Type: t, Nullable: !f.Required}, f.ID), nil
}

// icebergNestedOf maps an Arrow struct, list or map type to the Iceberg type
// a table stores. Field ids are left 0: the table's creation assigns them.
func icebergNestedOf(t arrow.DataType) (iceberg.Type, bool, error) {
	switch t := t.(type) {
	case *arrow.StructType:
		fields := make([]iceberg.NestedField, t.NumFields())
		for i, f := range t.Fields() {
			ft, err := IcebergTypeOf(f.Type)
			if err != nil {
				return nil, true, err
			}
			fields[i] = iceberg.NestedField{Name: f.Name, Type: ft, Required: !f.Nullable}
		}
		return &iceberg.StructType{FieldList: fields}, true, nil
	case *arrow.ListType:
		elem, err := IcebergTypeOf(t.Elem())
		if err != nil {
			return nil, true, err
		}
		return &iceberg.ListType{Element: elem, ElementRequired: !t.ElemField().Nullable}, true, nil
	case *arrow.MapType:
		key, err := IcebergTypeOf(t.KeyType())
		if err != nil {
			return nil, true, err
		}
		val, err := IcebergTypeOf(t.ItemType())
		if err != nil {
			return nil, true, err
		}
		return &iceberg.MapType{KeyType: key, ValueType: val, ValueRequired: !t.ItemField().Nullable}, true, nil
	}
	return nil, false, nil
}

// icebergNestedType maps STRUCT<…>, ARRAY<…> and MAP<…, …> of SQL.
func icebergNestedType(t sql.TypeName) (iceberg.Type, error) {
	switch t.Name {
	case "ARRAY":
		elem, err := IcebergType(t.Args[0])
		if err != nil {
			return nil, err
		}
		return &iceberg.ListType{Element: elem, ElementRequired: t.Args[0].NotNull}, nil
	case "MAP":
		key, err := IcebergType(t.Args[0])
		if err != nil {
			return nil, err
		}
		if _, nested := key.(iceberg.NestedType); nested {
			return nil, errorf(t.Args[0].Pos, "map keys must be of a primitive type, not %s", sql.FormatType(t.Args[0]))
		}
		val, err := IcebergType(t.Args[1])
		if err != nil {
			return nil, err
		}
		return &iceberg.MapType{KeyType: key, ValueType: val, ValueRequired: t.Args[1].NotNull}, nil
	case "STRUCT":
		fields := make([]iceberg.NestedField, len(t.Args))
		seen := map[string]bool{}
		for i, a := range t.Args {
			if seen[a.Field] {
				return nil, errorf(a.Pos, "struct field %s is defined twice", a.Field)
			}
			seen[a.Field] = true
			ft, err := IcebergType(a)
			if err != nil {
				return nil, err
			}
			fields[i] = iceberg.NestedField{Name: a.Field, Type: ft, Required: a.NotNull}
		}
		return &iceberg.StructType{FieldList: fields}, nil
	}
	return nil, fmt.Errorf("not a nested type: %s", t.Name)
}

// nestedTypeString names a nested Arrow type in SQL's syntax.
func nestedTypeString(t arrow.DataType) string {
	switch t := t.(type) {
	case *arrow.ListType:
		return "ARRAY<" + TypeString(t.Elem()) + ">"
	case *arrow.MapType:
		return "MAP<" + TypeString(t.KeyType()) + ", " + TypeString(t.ItemType()) + ">"
	case *arrow.StructType:
		s := "STRUCT<"
		for i, f := range t.Fields() {
			if i > 0 {
				s += ", "
			}
			s += sql.QuoteIdent(f.Name) + ": " + TypeString(f.Type)
		}
		return s + ">"
	}
	return t.String()
}

// TableSchema is the schema of a new table with the given fields: every
// field, nested ones included, numbered afresh from 1.
func TableSchema(fields ...iceberg.NestedField) (*iceberg.Schema, error) {
	return iceberg.AssignFreshSchemaIDs(iceberg.NewSchema(0, fields...), nil)
}
