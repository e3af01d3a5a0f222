package sql

import (
	"reflect"
	"testing"
)

// clearPos zeroes every Pos in the tree under v, so tests can compare parsed
// nodes with literals that leave positions out.
func clearPos(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			clearPos(v.Elem())
		}
	case reflect.Struct:
		if v.Type() == reflect.TypeOf(Pos{}) {
			if v.CanSet() {
				v.Set(reflect.Zero(v.Type()))
			}
			return
		}
		for i := range v.NumField() {
			clearPos(v.Field(i))
		}
	case reflect.Slice:
		for i := range v.Len() {
			clearPos(v.Index(i))
		}
	}
}

// mustParseOne parses text as one statement and fails the test on an error.
func mustParseOne(t *testing.T, text string) Statement {
	t.Helper()
	stmt, err := ParseOne(text)
	if err != nil {
		t.Fatalf("ParseOne(%q): %v", text, err)
	}
	return stmt
}

// formatSelectExpr parses "SELECT <expr>" and formats the expression back.
func formatSelectExpr(t *testing.T, expr string) string {
	t.Helper()
	q := mustParseOne(t, "SELECT "+expr).(*QueryStmt).Query
	return Format(q.Body.(*Select).Items[0].Expr)
}
