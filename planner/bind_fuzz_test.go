package planner_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/apache/iceberg-go"

	"github.com/lakesql/lakesql/internal/testutil"
	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/sql"
)

// fuzzTables resolves every table name to the fuzz schema
// (testutil.FuzzColumns), with no snapshot: binding needs only the schema.
type fuzzTables struct{}

func (fuzzTables) ResolveTable(_ context.Context, name sql.ObjectName, _ *sql.TimeTravel) (*planner.TableRef, error) {
	schema := iceberg.NewSchema(0,
		iceberg.NestedField{ID: 1, Name: "i", Type: iceberg.PrimitiveTypes.Int32},
		iceberg.NestedField{ID: 2, Name: "b", Type: iceberg.PrimitiveTypes.Int64},
		iceberg.NestedField{ID: 3, Name: "d", Type: iceberg.PrimitiveTypes.Float64},
		iceberg.NestedField{ID: 4, Name: "m", Type: iceberg.DecimalTypeOf(10, 2)},
		iceberg.NestedField{ID: 5, Name: "s", Type: iceberg.PrimitiveTypes.String},
		iceberg.NestedField{ID: 6, Name: "dt", Type: iceberg.PrimitiveTypes.Date},
		iceberg.NestedField{ID: 7, Name: "ts", Type: iceberg.PrimitiveTypes.Timestamp},
		iceberg.NestedField{ID: 8, Name: "ok", Type: iceberg.PrimitiveTypes.Bool},
	)
	return &planner.TableRef{Namespace: "db", Name: name.Parts[len(name.Parts)-1], Schema: schema}, nil
}

func (fuzzTables) ResolveMetadataTable(_ context.Context, name sql.ObjectName) (*planner.Rows, error) {
	return nil, fmt.Errorf("no metadata table %s", strings.Join(name.Parts, "."))
}

// FuzzBind binds random queries over the fuzz schema (built from the fuzz
// input by testutil.Choices): binding returns a plan or a one-line error,
// never panics, and the plan prints.
func FuzzBind(f *testing.F) {
	// Seeds: testdata/fuzz/FuzzBind.
	f.Fuzz(func(t *testing.T, data []byte) {
		query := testutil.NewChoices(data).Query()
		stmt, err := sql.ParseOne(query)
		if err != nil {
			t.Fatalf("generated SQL does not parse: %s: %v", query, err)
		}
		qs, ok := stmt.(*sql.QueryStmt)
		if !ok {
			t.Fatalf("generated SQL is not a query: %s", query)
		}
		plan, err := planner.BindQuery(context.Background(), fuzzTables{}, qs.Query)
		if err != nil {
			if msg := err.Error(); msg == "" || strings.Contains(msg, "\n") {
				t.Fatalf("%s: error %q is not one line", query, msg)
			}
			return
		}
		planner.Format(plan)
	})
}
