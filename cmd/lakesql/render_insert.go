package main

import (
	"io"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/lakesql/lakesql/sql"
	"github.com/lakesql/lakesql/value"
)

// defaultInsertTable is the table name of ".mode insert" without one.
const defaultInsertTable = "tbl"

// insertRenderer writes one INSERT statement per row, so a result can be
// loaded into another table or database. Numbers and booleans are bare,
// NULL is NULL, everything else is a quoted string literal of its text form.
type insertRenderer struct {
	w      io.Writer
	prefix string // INSERT INTO t(a, b) VALUES (
	ncols  int
}

func newInsertRenderer(w io.Writer, o renderOptions) *insertRenderer {
	name := o.insertTable
	if name == "" {
		name = defaultInsertTable
	}
	parts := strings.Split(name, ".")
	for i, p := range parts {
		parts[i] = sql.QuoteIdent(p)
	}
	return &insertRenderer{w: w, prefix: "INSERT INTO " + strings.Join(parts, ".")}
}

func (ins *insertRenderer) begin(schema *arrow.Schema) error {
	ins.ncols = schema.NumFields()
	names := make([]string, ins.ncols)
	for i, f := range schema.Fields() {
		names[i] = sql.QuoteIdent(f.Name)
	}
	ins.prefix += "(" + strings.Join(names, ", ") + ") VALUES ("
	return nil
}

func (ins *insertRenderer) batch(rec arrow.RecordBatch) error {
	if err := checkColumns(ins.ncols, rec); err != nil {
		return err
	}
	var b strings.Builder
	for r := 0; r < int(rec.NumRows()); r++ {
		b.WriteString(ins.prefix)
		for c := 0; c < ins.ncols; c++ {
			if c > 0 {
				b.WriteString(", ")
			}
			b.WriteString(sqlLiteral(rec.Column(c), r))
		}
		b.WriteString(");\n")
	}
	_, err := io.WriteString(ins.w, b.String())
	return err
}

func (ins *insertRenderer) end() error { return nil }

// sqlLiteral is arr[i] as a SQL literal.
func sqlLiteral(arr arrow.Array, i int) string {
	if value.IsNull(arr, i) {
		return "NULL"
	}
	if nested, ok := nestedLiteral(arr, i); ok {
		return nested
	}
	s := value.Format(arr, i)
	if arr.DataType().ID() == arrow.BOOL || (isNumericType(arr.DataType()) && !isNonFinite(s)) {
		return s
	}
	return quoteNested(s)
}

// nestedLiteral writes a struct, array or map value as the constructor call
// that makes it again: named_struct('f', …), ARRAY[…], map(k, v, …).
func nestedLiteral(arr arrow.Array, i int) (string, bool) {
	var parts []string
	switch a := arr.(type) {
	case *array.Struct:
		typ := a.DataType().(*arrow.StructType)
		for f := range a.NumField() {
			parts = append(parts, quoteNested(typ.Field(f).Name), sqlLiteral(a.Field(f), i))
		}
		return "named_struct(" + strings.Join(parts, ", ") + ")", true
	case *array.Map:
		start, end := a.ValueOffsets(i)
		for j := start; j < end; j++ {
			parts = append(parts, sqlLiteral(a.Keys(), int(j)), sqlLiteral(a.Items(), int(j)))
		}
		return "map(" + strings.Join(parts, ", ") + ")", true
	case array.ListLike:
		start, end := a.ValueOffsets(i)
		for j := start; j < end; j++ {
			parts = append(parts, sqlLiteral(a.ListValues(), int(j)))
		}
		return "ARRAY[" + strings.Join(parts, ", ") + "]", true
	}
	return "", false
}

func isNonFinite(s string) bool { return s == "NaN" || s == "Infinity" || s == "-Infinity" }
