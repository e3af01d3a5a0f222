package sql

import (
	"reflect"
	"strings"
	"testing"
)

// TestFileStatements checks the trees of COPY, DESCRIBE of a query or file,
// SUMMARIZE and FROM 'path' (positions aside).
func TestFileStatements(t *testing.T) {
	star := func(from TableExpr) *Query {
		return &Query{Body: &Select{Items: []SelectItem{{Expr: &Star{}}}, From: from}}
	}
	file := &FileTable{Path: "x/*.parquet"}
	tests := []struct {
		in   string
		want Statement
	}{
		{"COPY db.t TO 'o.csv' (HEADER, DELIMITER '|', OVERWRITE false, FORMAT csv)", &Copy{
			Query: star(&TableName{Name: name("db", "t")}), Path: "o.csv",
			Options: []CopyOption{{Name: "header"}, {Name: "delimiter", Value: str("|")},
				{Name: "overwrite", Value: &Literal{Kind: LitBool, Value: "false"}}, {Name: "format", Value: str("csv")}}}},
		{"COPY (SELECT * FROM 'x/*.parquet') TO 'o.parquet'", &Copy{Query: star(file), Path: "o.parquet"}},
		{"COPY read_csv('a.csv') TO 'o.json' WITH (FORMAT json)", &Copy{
			Query: star(&TableFunc{Name: "read_csv", Args: []Expr{str("a.csv")}}), Path: "o.json",
			Options: []CopyOption{{Name: "format", Value: str("json")}}}},
		{"DESCRIBE 'x/*.parquet'", &DescribeQuery{Query: star(file)}},
		{"DESCRIBE SELECT * FROM 'x/*.parquet'", &DescribeQuery{Query: star(file)}},
		{"DESC read_csv('a.csv')", &DescribeQuery{Query: star(&TableFunc{Name: "read_csv", Args: []Expr{str("a.csv")}})}},
		{"SUMMARIZE db.t", &Summarize{Query: star(&TableName{Name: name("db", "t")})}},
		{"SUMMARIZE 'x/*.parquet'", &Summarize{Query: star(file)}},
		{"SELECT * FROM 'f.csv' AS f(a, b)", &QueryStmt{Query: star(&FileTable{Path: "f.csv", Alias: "f", ColAliases: []string{"a", "b"}})}},
	}
	for _, tc := range tests {
		got := mustParseOne(t, tc.in)
		clearPos(reflect.ValueOf(got))
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s:\n got %#v\nwant %#v", tc.in, got, tc.want)
		}
	}
	// A table named like the keywords DESCRIBE takes is still a table.
	if _, ok := mustParseOne(t, "DESCRIBE history").(*Describe); !ok {
		t.Error("DESCRIBE history is not DESCRIBE of a table")
	}
	q := mustParseOne(t, "SELECT a FROM 'dir/f.parquet' x").(*QueryStmt).Query
	if got := FormatQuery(q); !strings.Contains(got, "FROM 'dir/f.parquet' AS x") {
		t.Errorf("FormatQuery = %s", got)
	}
	for _, bad := range []string{"COPY t TO o.csv", "COPY t TO 'o.csv' (", "COPY t 'o.csv'", "COPY t TO 'o.csv' (FORMAT csv,)"} {
		if _, err := ParseOne(bad); err == nil {
			t.Errorf("%s: parsed", bad)
		}
	}
}
