package sql

import (
	"reflect"
	"strings"
	"testing"
)

// TestTableChangingStatements checks the trees of UPDATE, MERGE, TRUNCATE
// and REPLACE TABLE (positions aside).
func TestTableChangingStatements(t *testing.T) {
	eq := func(l, r Expr) Expr { return &BinaryExpr{Op: "=", L: l, R: r} }
	tests := []struct {
		in   string
		want Statement
	}{
		{"UPDATE db.t SET a = 1, t.b = 'x' WHERE a > 2", &Update{Table: name("db", "t"),
			Set:   []Assignment{{Column: "a", Value: num("1")}, {Column: "b", Value: str("x")}},
			Where: &BinaryExpr{Op: ">", L: col("a"), R: num("2")}}},
		{"UPDATE t AS x SET a = NULL", &Update{Table: name("t"), Alias: "x",
			Set: []Assignment{{Column: "a", Value: &Literal{Kind: LitNull}}}}},
		{"UPDATE t x SET a = 1", &Update{Table: name("t"), Alias: "x", Set: []Assignment{{Column: "a", Value: num("1")}}}},
		{`MERGE INTO db.t AS t USING db.s s ON t.id = s.id
		  WHEN MATCHED AND s.op = 'd' THEN DELETE
		  WHEN MATCHED THEN UPDATE SET *
		  WHEN MATCHED THEN UPDATE SET v = s.v
		  WHEN NOT MATCHED BY TARGET THEN INSERT *
		  WHEN NOT MATCHED AND s.v > 1 THEN INSERT (id, v) VALUES (s.id, s.v)
		  WHEN NOT MATCHED BY SOURCE AND t.v IS NULL THEN DELETE
		  WHEN NOT MATCHED BY SOURCE THEN UPDATE SET v = 0`,
			&Merge{Target: name("db", "t"), TargetAlias: "t",
				Source: &TableName{Name: name("db", "s"), Alias: "s"},
				On:     eq(col("t", "id"), col("s", "id")),
				Clauses: []MergeClause{
					{Match: Matched, Cond: eq(col("s", "op"), str("d")), Action: MergeDelete},
					{Match: Matched, Action: MergeUpdate, Star: true},
					{Match: Matched, Action: MergeUpdate, Set: []Assignment{{Column: "v", Value: col("s", "v")}}},
					{Match: NotMatched, Action: MergeInsert, Star: true},
					{Match: NotMatched, Cond: &BinaryExpr{Op: ">", L: col("s", "v"), R: num("1")}, Action: MergeInsert,
						Columns: []string{"id", "v"}, Values: []Expr{col("s", "id"), col("s", "v")}},
					{Match: NotMatchedBySource, Cond: &IsNullExpr{X: col("t", "v")}, Action: MergeDelete},
					{Match: NotMatchedBySource, Action: MergeUpdate, Set: []Assignment{{Column: "v", Value: num("0")}}},
				}}},
		{"MERGE INTO t USING (SELECT 1 AS id) AS s ON t.id = s.id WHEN MATCHED THEN DELETE",
			&Merge{Target: name("t"),
				Source:  &SubqueryTable{Query: &Query{Body: &Select{Items: []SelectItem{{Expr: num("1"), Alias: "id"}}}}, Alias: "s"},
				On:      eq(col("t", "id"), col("s", "id")),
				Clauses: []MergeClause{{Match: Matched, Action: MergeDelete}}}},
		{"TRUNCATE TABLE db.t", &TruncateTable{Name: name("db", "t")}},
		{"REPLACE TABLE db.t (a INT)", &ReplaceTable{Table: &CreateTable{Name: name("db", "t"),
			Columns: []ColumnDef{{Name: "a", Type: TypeName{Name: "INT"}}}}}},
		{"CREATE OR REPLACE TABLE db.t PARTITIONED BY (a) AS SELECT 1 AS a", &ReplaceTable{OrCreate: true,
			Table: &CreateTable{Name: name("db", "t"), PartitionBy: []PartitionField{{Transform: "identity", Column: "a"}},
				AsQuery: &Query{Body: &Select{Items: []SelectItem{{Expr: num("1"), Alias: "a"}}}}}}},
	}
	for _, tt := range tests {
		got := mustParseOne(t, tt.in)
		clearPos(reflect.ValueOf(got))
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s:\n got %#v\nwant %#v", tt.in, got, tt.want)
		}
	}
}

func TestTableChangingStatementErrors(t *testing.T) {
	tests := []struct{ in, want string }{
		{"MERGE INTO t USING s ON t.id = s.id", "unexpected end of statement, expected WHEN"},
		{"MERGE INTO t USING s ON t.id = s.id WHEN MATCHED THEN INSERT *", "line 1, column 55: WHEN MATCHED can only UPDATE or DELETE"},
		{"MERGE INTO t USING s ON t.id = s.id WHEN NOT MATCHED THEN DELETE", "line 1, column 59: WHEN NOT MATCHED can only INSERT"},
		{"MERGE INTO t USING s ON a WHEN NOT MATCHED BY SOURCE THEN INSERT *", "WHEN NOT MATCHED BY SOURCE can only UPDATE or DELETE"},
		{"MERGE INTO t USING range(3) ON a WHEN MATCHED THEN DELETE", "MERGE … USING needs a table or a subquery"},
		{"UPDATE t WHERE a = 1", "expected AS or SET"},
		{"CREATE OR REPLACE TABLE IF NOT EXISTS t (a INT)", "REPLACE TABLE takes no IF NOT EXISTS"},
		{"TRUNCATE t", "expected TABLE"},
	}
	for _, tt := range tests {
		_, err := ParseOne(tt.in)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: got %v, want %q", tt.in, err, tt.want)
		}
	}
}
