package ddl

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/table"

	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/sql"
)

// sortOrder builds the table sort order of WRITE ORDERED BY or CLUSTER BY
// keys over schema; no keys is the unsorted order.
func sortOrder(schema *iceberg.Schema, keys []sql.OrderItem) (table.SortOrder, error) {
	if len(keys) == 0 {
		return table.UnsortedSortOrder, nil
	}
	fields := make([]table.SortField, len(keys))
	for i, key := range keys {
		f, err := sortField(schema, key)
		if err != nil {
			return table.SortOrder{}, err
		}
		fields[i] = f
	}
	// The order id is a placeholder: the metadata builder assigns the real one.
	return table.NewSortOrder(1, fields)
}

// sortField resolves one WRITE ORDERED BY key: a column or a partition
// transform of one (day(ts), bucket(16, id), truncate(4, s)). Without NULLS
// FIRST|LAST, nulls sort first ascending and last descending: Iceberg's and
// Spark's default for sort orders, which other writers of the table apply.
func sortField(schema *iceberg.Schema, key sql.OrderItem) (table.SortField, error) {
	f, err := sortKeyField(key.Expr)
	if err != nil {
		return table.SortField{}, err
	}
	if _, ok := schema.FindFieldByNameCaseInsensitive(f.Column); !ok {
		return table.SortField{}, &planner.Error{Pos: f.Pos, Msg: fmt.Sprintf("column %s does not exist%s", f.Column, columnHint(schema, f.Column))}
	}
	pf, err := PartitionField(schema, f, 0)
	if err != nil {
		return table.SortField{}, err
	}
	sf := table.SortField{SourceIDs: []int{pf.SourceID()}, Transform: pf.Transform, Direction: table.SortASC, NullOrder: table.NullsFirst}
	if key.Desc {
		sf.Direction, sf.NullOrder = table.SortDESC, table.NullsLast
	}
	if key.NullsFirst != nil {
		sf.NullOrder = table.NullsLast
		if *key.NullsFirst {
			sf.NullOrder = table.NullsFirst
		}
	}
	return sf, nil
}

// sortTransforms maps the transform spellings a sort key may use.
var sortTransforms = map[string]string{
	"identity": "identity", "bucket": "bucket", "truncate": "truncate",
	"year": "year", "years": "year", "month": "month", "months": "month",
	"day": "day", "days": "day", "hour": "hour", "hours": "hour",
}

// sortKeyField reads a sort key expression as a partition field: a column, or
// transform(column), bucket(N, column), truncate(W, column).
func sortKeyField(e sql.Expr) (sql.PartitionField, error) {
	bad := &planner.Error{Pos: e.Position(), Msg: "WRITE ORDERED BY and CLUSTER BY take columns and transforms such as day(ts) or bucket(16, id)"}
	switch e := e.(type) {
	case *sql.ColumnRef:
		if len(e.Parts) != 1 {
			return sql.PartitionField{}, bad
		}
		return sql.PartitionField{Transform: "identity", Column: e.Parts[0], Pos: e.Pos}, nil
	case *sql.FuncCall:
		f := sql.PartitionField{Transform: sortTransforms[strings.ToLower(e.Name)], Pos: e.Pos}
		args := e.Args
		if f.Transform == "bucket" || f.Transform == "truncate" {
			if len(args) != 2 {
				return f, bad
			}
			lit, ok := args[0].(*sql.Literal)
			if !ok || lit.Kind != sql.LitInteger {
				return f, bad
			}
			f.Param, _ = strconv.Atoi(lit.Value)
			args = args[1:]
		}
		if f.Transform == "" || len(args) != 1 {
			return f, bad
		}
		ref, ok := args[0].(*sql.ColumnRef)
		if !ok || len(ref.Parts) != 1 {
			return f, bad
		}
		f.Column = ref.Parts[0]
		return f, nil
	}
	return sql.PartitionField{}, bad
}
