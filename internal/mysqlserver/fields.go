package mysqlserver

import (
	"github.com/apache/arrow-go/v18/arrow"
	querypb "github.com/dolthub/vitess/go/vt/proto/query"

	"github.com/lakesql/lakesql/sql/mysqldialect"
)

// MySQL character set ids of column definitions.
const (
	charsetUTF8MB4 = 255 // utf8mb4_0900_ai_ci
	charsetBinary  = 63  // numbers, dates and binary strings
)

// notFixedDecimals is the decimals of a column of floating-point numbers,
// whose digits after the point vary (MySQL's NOT_FIXED_DEC).
const notFixedDecimals = 31

// wireTypes map MySQL's type names (mysqldialect.TypeOf) to the protocol's
// column types, with the display length clients size columns by.
var wireTypes = map[string]struct {
	t      querypb.Type
	length uint32
}{
	"tinyint":  {querypb.Type_INT8, 4},
	"smallint": {querypb.Type_INT16, 6},
	"int":      {querypb.Type_INT32, 11},
	"bigint":   {querypb.Type_INT64, 20},
	"float":    {querypb.Type_FLOAT32, 12},
	"double":   {querypb.Type_FLOAT64, 22},
	"decimal":  {querypb.Type_DECIMAL, 0},
	"date":     {querypb.Type_DATE, 10},
	"time":     {querypb.Type_TIME, 17},
	"datetime": {querypb.Type_DATETIME, 26},
	"longtext": {querypb.Type_TEXT, 4294967295},
	"char":     {querypb.Type_VARCHAR, 144},
	"longblob": {querypb.Type_BLOB, 4294967295},
	"binary":   {querypb.Type_BINARY, 0},
	"json":     {querypb.Type_JSON, 4294967295},
	"null":     {querypb.Type_NULL_TYPE, 0},
}

// fieldsOf describes a result's columns to the client.
func fieldsOf(schema *arrow.Schema) []*querypb.Field {
	fields := make([]*querypb.Field, schema.NumFields())
	for i, f := range schema.Fields() {
		fields[i] = fieldOf(f)
	}
	return fields
}

func fieldOf(f arrow.Field) *querypb.Field {
	mt := mysqldialect.TypeOf(f.Type)
	w := wireTypes[mt.Name]
	field := &querypb.Field{Name: f.Name, OrgName: f.Name, Type: w.t, ColumnLength: w.length, Charset: charsetBinary}
	switch mt.Name {
	case "decimal":
		field.ColumnLength = uint32(mt.Precision + 2) // digits, sign and point
		field.Decimals = uint32(mt.Scale)
	case "time", "datetime":
		field.Decimals = uint32(mt.Scale)
	case "float", "double":
		field.Decimals = notFixedDecimals
	case "longtext", "char", "json":
		field.Charset = charsetUTF8MB4
	case "binary":
		field.ColumnLength = uint32(mt.Length)
	case "tinyint":
		if f.Type.ID() == arrow.BOOL {
			field.ColumnLength = 1 // TINYINT(1): drivers read it as a boolean
		}
	}
	if mt.Unsigned {
		field.Type = querypb.Type_UINT64
	}
	return field
}
