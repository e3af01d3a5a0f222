package planner

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/iceberg-go"

	"github.com/lakesql/lakesql/storage"
)

func TestNestedTypeMapping(t *testing.T) {
	it := &iceberg.StructType{FieldList: []iceberg.NestedField{
		{ID: 2, Name: "a", Type: iceberg.PrimitiveTypes.Int32, Required: true},
		{ID: 3, Name: "l", Type: &iceberg.ListType{ElementID: 4, Element: iceberg.PrimitiveTypes.String}},
		{ID: 5, Name: "m", Type: &iceberg.MapType{KeyID: 6, KeyType: iceberg.PrimitiveTypes.String, ValueID: 7, ValueType: iceberg.PrimitiveTypes.Float64, ValueRequired: true}},
	}}
	at, err := ArrowTypeOf(it)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := TypeString(at), "STRUCT<a: INT, l: ARRAY<STRING>, m: MAP<STRING, DOUBLE>>"; got != want {
		t.Errorf("TypeString = %s, want %s", got, want)
	}
	st := at.(*arrow.StructType)
	l, m := st.Field(1).Type.(*arrow.ListType), st.Field(2).Type.(*arrow.MapType)
	ids := []int{storage.FieldIDOf(st.Field(0)), storage.FieldIDOf(l.ElemField()), storage.FieldIDOf(m.KeyField()), storage.FieldIDOf(m.ItemField())}
	if ids[0] != 2 || ids[1] != 4 || ids[2] != 6 || ids[3] != 7 {
		t.Errorf("field ids %v", ids)
	}
	if st.Field(0).Nullable || !l.ElemField().Nullable || m.ItemField().Nullable {
		t.Errorf("nullability does not follow required: %s", at)
	}
	// Back to Iceberg (CTAS): the same shape, ids left to the new table.
	back, err := IcebergTypeOf(at)
	if err != nil {
		t.Fatal(err)
	}
	if got := back.String(); got != "struct<0: a: required int, 0: l: optional list<string>, 0: m: optional map<string, double>>" {
		t.Errorf("IcebergTypeOf = %s", got)
	}
	// A struct holding a type lakesql cannot read makes the column, not the
	// table, unreadable.
	withVariant := &iceberg.StructType{FieldList: []iceberg.NestedField{{ID: 2, Name: "v", Type: iceberg.VariantType{}}}}
	if st, err := scanTypeOf(withVariant); err != nil || UnreadableColumn("s", st) == nil {
		t.Errorf("struct<variant>: %v, %v", st, err)
	}
}
