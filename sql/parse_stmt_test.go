package sql

import (
	"reflect"
	"testing"
)

func name(parts ...string) ObjectName { return ObjectName{Parts: parts} }
func col(parts ...string) *ColumnRef  { return &ColumnRef{Parts: parts} }
func str(s string) *Literal           { return &Literal{Kind: LitString, Value: s} }
func num(s string) *Literal           { return &Literal{Kind: LitInteger, Value: s} }
func ptr[T any](v T) *T               { return &v }

// TestStatements checks the tree of every statement form (positions aside).
func TestStatements(t *testing.T) {
	selectOne := &Query{Body: &Select{Items: []SelectItem{{Expr: num("1")}}}}
	tests := []struct {
		in   string
		want Statement
	}{
		{"SELECT 1", &QueryStmt{Query: selectOne}},
		{"(SELECT 1);", &QueryStmt{Query: selectOne}},
		{"EXPLAIN SELECT 1", &Explain{Stmt: &QueryStmt{Query: selectOne}}},
		{"EXPLAIN ANALYZE SELECT 1", &Explain{Analyze: true, Stmt: &QueryStmt{Query: selectOne}}},
		// namespaces
		{"CREATE NAMESPACE ns", &CreateNamespace{Name: name("ns")}},
		{"CREATE SCHEMA IF NOT EXISTS cat.ns", &CreateNamespace{Name: name("cat", "ns"), IfNotExists: true}},
		{"CREATE DATABASE db", &CreateNamespace{Name: name("db")}},
		{"DROP NAMESPACE ns", &DropNamespace{Name: name("ns")}},
		{"DROP SCHEMA IF EXISTS ns CASCADE", &DropNamespace{Name: name("ns"), IfExists: true, Cascade: true}},
		{"DROP DATABASE ns RESTRICT", &DropNamespace{Name: name("ns")}},
		{"SHOW NAMESPACES", &ShowNamespaces{}},
		{"SHOW SCHEMAS", &ShowNamespaces{}},
		{"SHOW DATABASES", &ShowNamespaces{}},
		{"SHOW NAMESPACES IN prod", &ShowNamespaces{Catalog: &ObjectName{Parts: []string{"prod"}}}},
		{"SHOW CATALOGS", &ShowCatalogs{}},
		{"USE cat.ns", &Use{Name: name("cat", "ns")}},
		// tables
		{"CREATE TABLE ns.t (id BIGINT NOT NULL COMMENT 'key', ts TIMESTAMP, data STRING NULL, \"Day\" date)",
			&CreateTable{Name: name("ns", "t"), Columns: []ColumnDef{
				{Name: "id", Type: TypeName{Name: "BIGINT"}, NotNull: true, Comment: "key"},
				{Name: "ts", Type: TypeName{Name: "TIMESTAMP"}},
				{Name: "data", Type: TypeName{Name: "STRING"}},
				{Name: "Day", Type: TypeName{Name: "DATE"}},
			}}},
		{`CREATE TABLE IF NOT EXISTS t (id int, ts timestamptz, s string, c string)
		  USING iceberg
		  PARTITIONED BY (day(ts), days(ts), years(ts), month(ts), hours(ts), date_hour(ts), bucket(16, id), truncate(4, s), void(c), c)
		  COMMENT 'ignored'
		  TBLPROPERTIES ('format-version' = '2', write.format.default = 'parquet', 'n' = 3)`,
			&CreateTable{Name: name("t"), IfNotExists: true,
				Columns: []ColumnDef{
					{Name: "id", Type: TypeName{Name: "INT"}},
					{Name: "ts", Type: TypeName{Name: "TIMESTAMPTZ"}},
					{Name: "s", Type: TypeName{Name: "STRING"}},
					{Name: "c", Type: TypeName{Name: "STRING"}},
				},
				PartitionBy: []PartitionField{
					{Transform: "day", Column: "ts"}, {Transform: "day", Column: "ts"},
					{Transform: "year", Column: "ts"}, {Transform: "month", Column: "ts"},
					{Transform: "hour", Column: "ts"}, {Transform: "hour", Column: "ts"},
					{Transform: "bucket", Param: 16, Column: "id"}, {Transform: "truncate", Param: 4, Column: "s"},
					{Transform: "void", Column: "c"}, {Transform: "identity", Column: "c"},
				},
				Properties: []Property{{"format-version", "2"}, {"write.format.default", "parquet"}, {"n", "3"}},
			}},
		{"CREATE TABLE t TBLPROPERTIES ('a'='b') PARTITIONED BY (day) AS SELECT 1",
			&CreateTable{Name: name("t"), PartitionBy: []PartitionField{{Transform: "identity", Column: "day"}},
				Properties: []Property{{"a", "b"}}, AsQuery: selectOne}},
		{"CREATE TABLE t AS (SELECT 1)", &CreateTable{Name: name("t"), AsQuery: selectOne}},
		{"DROP TABLE t", &DropTable{Name: name("t")}},
		{"DROP TABLE IF EXISTS ns.t PURGE", &DropTable{Name: name("ns", "t"), IfExists: true, Purge: true}},
		{"SHOW TABLES", &ShowTables{}},
		{"SHOW TABLES IN ns", &ShowTables{Namespace: ptr(name("ns"))}},
		{"SHOW TABLES FROM cat.ns", &ShowTables{Namespace: ptr(name("cat", "ns"))}},
		{"DESCRIBE t", &Describe{Name: name("t")}},
		{"DESC TABLE ns.t", &Describe{Name: name("ns", "t")}},
		{"DESCRIBE TABLE EXTENDED t", &Describe{Name: name("t"), Extended: true}},
		{"DESCRIBE FORMATTED t", &Describe{Name: name("t"), Extended: true}},
		{"DESCRIBE HISTORY t", &Describe{Name: name("t"), Kind: "HISTORY"}},
		{"DESCRIBE DETAIL t", &Describe{Name: name("t"), Kind: "DETAIL"}},
		{"DESCRIBE history", &Describe{Name: name("history")}},
		{"SHOW CREATE TABLE t", &ShowCreateTable{Name: name("t")}},
		{"SHOW PARTITIONS ns.t", &ShowPartitions{Name: name("ns", "t")}},
		// DML
		{"INSERT INTO t SELECT 1", &Insert{Table: name("t"), Source: selectOne}},
		{"INSERT INTO TABLE t (a, b) VALUES (1, 'x')", &Insert{Table: name("t"), Columns: []string{"a", "b"},
			Source: &Query{Body: &Values{Rows: [][]Expr{{num("1"), str("x")}}}}}},
		{"INSERT INTO t (SELECT 1)", &Insert{Table: name("t"), Source: selectOne}},
		{"INSERT OVERWRITE TABLE t SELECT 1", &Insert{Table: name("t"), Overwrite: true, Source: selectOne}},
		{"INSERT OVERWRITE t WITH x AS (SELECT 1) SELECT * FROM x", &Insert{Table: name("t"), Overwrite: true,
			Source: &Query{With: []CTE{{Name: "x", Query: selectOne}},
				Body: &Select{Items: []SelectItem{{Expr: &Star{}}}, From: &TableName{Name: name("x")}}}}},
		{"DELETE FROM t", &Delete{Table: name("t")}},
		{"DELETE FROM ns.t WHERE a = 1", &Delete{Table: name("ns", "t"), Where: &BinaryExpr{Op: "=", L: col("a"), R: num("1")}}},
		// CALL
		{"CALL system.rollback_to_snapshot('db.t', 123)", &Call{Name: name("system", "rollback_to_snapshot"),
			Args: []Expr{str("db.t"), num("123")}}},
		{"CALL cat.system.expire_snapshots(table => 'db.t', older_than => TIMESTAMP '2024-01-01 00:00:00', retain_last => 5)",
			&Call{Name: name("cat", "system", "expire_snapshots"), Args: []Expr{
				&NamedArg{Name: "table", Value: str("db.t")},
				&NamedArg{Name: "older_than", Value: &Literal{Kind: LitTimestamp, Value: "2024-01-01 00:00:00"}},
				&NamedArg{Name: "retain_last", Value: num("5")},
			}}},
		{"CALL system.rewrite_data_files(table => 't', options => map('min-input-files', '2'), ids => array(1, 2))",
			&Call{Name: name("system", "rewrite_data_files"), Args: []Expr{
				&NamedArg{Name: "table", Value: str("t")},
				&NamedArg{Name: "options", Value: &FuncCall{Name: "map", Args: []Expr{str("min-input-files"), str("2")}}},
				&NamedArg{Name: "ids", Value: &FuncCall{Name: "array", Args: []Expr{num("1"), num("2")}}},
			}}},
		{"CALL system.f()", &Call{Name: name("system", "f")}},
		// SET
		{"SET x = 1", &Set{Name: "x", Value: "1"}},
		{"SET spark.sql.session.timeZone = 'UTC'", &Set{Name: "spark.sql.session.timezone", Value: "UTC"}},
		{"SET a.b.c.d.e TO off", &Set{Name: "a.b.c.d.e", Value: "off"}},
		{"SET enabled = TRUE", &Set{Name: "enabled", Value: "TRUE"}},
		{"SET n = -1.5", &Set{Name: "n", Value: "-1.5"}},
		{"SET TIME ZONE 'America/New_York'", &Set{Name: "timezone", Value: "America/New_York"}},
		{"SET TIME ZONE UTC", &Set{Name: "timezone", Value: "UTC"}},
		// ALTER TABLE
		{"ALTER TABLE t ADD PARTITION FIELD bucket(16, id) AS shard", &AlterTable{Name: name("t"),
			Action: &AddPartitionField{Field: PartitionField{Transform: "bucket", Param: 16, Column: "id", Name: "shard"}}}},
		{"ALTER TABLE t ADD PARTITION FIELD category", &AlterTable{Name: name("t"),
			Action: &AddPartitionField{Field: PartitionField{Transform: "identity", Column: "category"}}}},
		{"ALTER TABLE t DROP PARTITION FIELD days(ts)", &AlterTable{Name: name("t"),
			Action: &DropPartitionField{Field: PartitionField{Transform: "day", Column: "ts"}}}},
		{"ALTER TABLE t DROP PARTITION FIELD shard", &AlterTable{Name: name("t"),
			Action: &DropPartitionField{Field: PartitionField{Transform: "identity", Column: "shard"}}}},
		{"ALTER TABLE t REPLACE PARTITION FIELD ts_day WITH hour(ts) AS ts_hour", &AlterTable{Name: name("t"),
			Action: &ReplacePartitionField{Old: PartitionField{Transform: "identity", Column: "ts_day"},
				New: PartitionField{Transform: "hour", Column: "ts", Name: "ts_hour"}}}},
		{"ALTER TABLE t WRITE ORDERED BY a, b DESC NULLS LAST", &AlterTable{Name: name("t"),
			Action: &WriteOrderedBy{Keys: []OrderItem{{Expr: col("a")}, {Expr: col("b"), Desc: true, NullsFirst: ptr(false)}}}}},
		{"ALTER TABLE t WRITE LOCALLY ORDERED BY bucket(16, id)", &AlterTable{Name: name("t"),
			Action: &WriteOrderedBy{Locally: true, Keys: []OrderItem{{Expr: &FuncCall{Name: "bucket", Args: []Expr{num("16"), col("id")}}}}}}},
		{"ALTER TABLE t WRITE UNORDERED", &AlterTable{Name: name("t"), Action: &WriteOrderedBy{}}},
		{"ALTER TABLE t ADD COLUMN c INT", &AlterTable{Name: name("t"),
			Action: &AddColumns{Columns: []ColumnDef{{Name: "c", Type: TypeName{Name: "INT"}}}}}},
		{"ALTER TABLE t ADD COLUMNS c INT COMMENT 'x', d DECIMAL(10, 2) NOT NULL", &AlterTable{Name: name("t"),
			Action: &AddColumns{Columns: []ColumnDef{{Name: "c", Type: TypeName{Name: "INT"}, Comment: "x"},
				{Name: "d", Type: TypeName{Name: "DECIMAL", Params: []int{10, 2}}, NotNull: true}}}}},
		{"ALTER TABLE t ADD COLUMNS (c INT)", &AlterTable{Name: name("t"),
			Action: &AddColumns{Columns: []ColumnDef{{Name: "c", Type: TypeName{Name: "INT"}}}}}},
		{"ALTER TABLE t DROP COLUMN c", &AlterTable{Name: name("t"), Action: &DropColumn{Name: "c"}}},
		{"ALTER TABLE t DROP COLUMN IF EXISTS c", &AlterTable{Name: name("t"), Action: &DropColumn{Name: "c", IfExists: true}}},
		{"ALTER TABLE t RENAME COLUMN a TO b", &AlterTable{Name: name("t"), Action: &RenameColumn{Old: "a", New: "b"}}},
		{"ALTER TABLE t ALTER COLUMN a TYPE BIGINT", &AlterTable{Name: name("t"),
			Action: &AlterColumnType{Name: "a", Type: TypeName{Name: "BIGINT"}}}},
		{"ALTER TABLE t ALTER COLUMN a SET DATA TYPE DOUBLE", &AlterTable{Name: name("t"),
			Action: &AlterColumnType{Name: "a", Type: TypeName{Name: "DOUBLE"}}}},
		{"ALTER TABLE t SET TBLPROPERTIES ('k' = 'v', 'k2' = 'v2')", &AlterTable{Name: name("t"),
			Action: &SetProperties{Properties: []Property{{"k", "v"}, {"k2", "v2"}}}}},
		{"ALTER TABLE t UNSET TBLPROPERTIES IF EXISTS ('k', 'k2')", &AlterTable{Name: name("t"),
			Action: &UnsetProperties{Keys: []string{"k", "k2"}}}},
		{"ALTER TABLE ns.t RENAME TO ns.u", &AlterTable{Name: name("ns", "t"), Action: &RenameTable{To: name("ns", "u")}}},
		// maintenance
		{"OPTIMIZE t", &Optimize{Table: name("t")}},
		{"OPTIMIZE t WHERE d >= DATE '2024-01-01' ZORDER BY (a, b)", &Optimize{Table: name("t"),
			Where:  &BinaryExpr{Op: ">=", L: col("d"), R: &Literal{Kind: LitDate, Value: "2024-01-01"}},
			ZOrder: []string{"a", "b"}}},
		{"OPTIMIZE t ZORDER BY a, b", &Optimize{Table: name("t"), ZOrder: []string{"a", "b"}}},
		{"VACUUM t", &Vacuum{Table: name("t")}},
		{"VACUUM t RETAIN 168 HOURS DRY RUN", &Vacuum{Table: name("t"), RetainHours: ptr(168.0), DryRun: true}},
		{"VACUUM t RETAIN 0.5 HOURS", &Vacuum{Table: name("t"), RetainHours: ptr(0.5)}},
	}
	for _, tt := range tests {
		got := mustParseOne(t, tt.in)
		clearPos(reflect.ValueOf(got))
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s\n got %#v\nwant %#v", tt.in, got, tt.want)
		}
	}
}

// TestStatementPositions checks the positions statements and names carry.
func TestStatementPositions(t *testing.T) {
	stmts, err := Parse("SELECT 1;\n  DROP TABLE\n    ns.t;")
	if err != nil {
		t.Fatal(err)
	}
	d := stmts[1].(*DropTable)
	if d.Pos != (Pos{2, 3}) || d.Name.Pos != (Pos{3, 5}) {
		t.Errorf("DROP TABLE at %v, name at %v; want 2:3 and 3:5", d.Pos, d.Name.Pos)
	}
	ct := mustParseOne(t, "CREATE TABLE t (a int,\n b date) PARTITIONED BY (day(b))").(*CreateTable)
	if ct.Columns[1].Pos != (Pos{2, 2}) || ct.Columns[1].Type.Pos != (Pos{2, 4}) || ct.PartitionBy[0].Pos != (Pos{2, 26}) {
		t.Errorf("column at %v, its type at %v, partition field at %v", ct.Columns[1].Pos, ct.Columns[1].Type.Pos, ct.PartitionBy[0].Pos)
	}
}

func TestParseMultiple(t *testing.T) {
	stmts, err := Parse(";; SELECT 1; ; SHOW TABLES;\nUSE ns -- done\n")
	if err != nil {
		t.Fatal(err)
	}
	if len(stmts) != 3 {
		t.Fatalf("got %d statements, want 3", len(stmts))
	}
	for i, want := range []Statement{&QueryStmt{}, &ShowTables{}, &Use{}} {
		if reflect.TypeOf(stmts[i]) != reflect.TypeOf(want) {
			t.Errorf("statement %d is %T, want %T", i, stmts[i], want)
		}
	}
	if stmts, err := Parse(" ; -- nothing\n"); err != nil || len(stmts) != 0 {
		t.Errorf("Parse of empty statements = %v, %v", stmts, err)
	}
}
