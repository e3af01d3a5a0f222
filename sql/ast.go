// Package sql parses lakesql's SQL dialect into statements.
//
// The dialect is standard analytic SQL (as DuckDB, Trino and Spark accept it) plus
// the Iceberg/Spark extensions: three-part names, PARTITIONED BY transforms,
// ALTER TABLE … PARTITION FIELD, CALL system.proc(name => value), time travel.
package sql

// Pos is a 1-based line and column in the statement text.
type Pos struct {
	Line, Col int
}

// Statement is one parsed SQL statement.
type Statement interface {
	stmt()
}

// Expr is a parsed, unbound expression. Position is where an error about the
// expression belongs: the operator of an operation (the "+" of a + b, the IS of
// x IS NULL, the "::" of x::INT) and the first token of anything else.
type Expr interface {
	Position() Pos
	expr()
}

// ObjectName is a dotted name such as t, ns.t, catalog.ns.t or ns.t.snapshots.
type ObjectName struct {
	Parts []string
	Pos   Pos
}

// ---- expressions ----

// ColumnRef is a possibly qualified column: a, t.a, ns.t.a.
type ColumnRef struct {
	Parts []string
	Pos   Pos
}

// Star is * or t.* in a select list (Table empty for a bare *), with
// DuckDB's modifiers: * EXCLUDE (a, t.b) leaves columns out, and
// * REPLACE (expr AS a) puts expr where column a would be, under a's name.
type Star struct {
	Table   []string
	Exclude []*ColumnRef
	Replace []SelectItem
	Pos     Pos
}

// LitKind says what a Literal holds.
type LitKind int

const (
	LitNull        LitKind = iota
	LitBool                // Value "true" or "false"
	LitInteger             // Value is the digits, e.g. "42"
	LitDecimal             // a number with a point and no exponent, e.g. "1.50"
	LitFloat               // a number with an exponent, e.g. "1e10"
	LitString              // Value is the unquoted string
	LitDate                // DATE '…': Value is the quoted text
	LitTimestamp           // TIMESTAMP '…'
	LitTimestampTZ         // TIMESTAMPTZ '…' or TIMESTAMP WITH TIME ZONE '…'
	LitTime                // TIME '…'
)

// Literal is a constant written in the SQL text.
type Literal struct {
	Kind  LitKind
	Value string
	Pos   Pos
}

// Interval is INTERVAL '1' DAY, INTERVAL 1 DAY or INTERVAL '1 day'.
// Unit is upper case (YEAR, MONTH, WEEK, DAY, HOUR, MINUTE, SECOND, MILLISECOND,
// MICROSECOND); it is empty when the unit is inside the string ('1 day').
type Interval struct {
	Value Expr
	Unit  string
	Pos   Pos
	// DateStays: a DATE plus or minus this interval of whole days,
	// months or years is a DATE, as MySQL's DATE_ADD gives it (lakesql's
	// own dialect gives a TIMESTAMP, as DuckDB does).
	DateStays bool
}

// UnaryExpr is -x, +x or NOT x (Op "-", "+", "NOT").
type UnaryExpr struct {
	Op  string
	X   Expr
	Pos Pos
}

// BinaryExpr is L Op R with Op one of
// + - * / % || = <> < <= > >= AND OR (!= is normalized to <>).
type BinaryExpr struct {
	Op   string
	L, R Expr
	Pos  Pos
}

// IsNullExpr is X IS [NOT] NULL.
type IsNullExpr struct {
	X   Expr
	Not bool
	Pos Pos
}

// IsBoolExpr is X IS [NOT] TRUE|FALSE.
type IsBoolExpr struct {
	X     Expr
	Value bool
	Not   bool
	Pos   Pos
}

// IsDistinctExpr is L IS [NOT] DISTINCT FROM R.
type IsDistinctExpr struct {
	L, R Expr
	Not  bool
	Pos  Pos
}

// BetweenExpr is X [NOT] BETWEEN Lo AND Hi.
type BetweenExpr struct {
	X, Lo, Hi Expr
	Not       bool
	Pos       Pos
}

// RowExpr is a row value (a, b, …): compared item by item in =, <>, <,
// IS [NOT] DISTINCT FROM and IN lists, and elsewhere a struct (Spark,
// DuckDB).
type RowExpr struct {
	Items []Expr
	Pos   Pos
}

// InListExpr is X [NOT] IN (e1, e2, …).
type InListExpr struct {
	X    Expr
	List []Expr
	Not  bool
	Pos  Pos
}

// InSubqueryExpr is X [NOT] IN (SELECT …).
type InSubqueryExpr struct {
	X     Expr
	Query *Query
	Not   bool
	Pos   Pos
}

// QuantifiedExpr is X op ANY|SOME|ALL (SELECT …): the comparison of X with
// every value of the subquery, TRUE when it holds for some (ANY) or for
// every (ALL) value.
type QuantifiedExpr struct {
	X     Expr
	Op    string // = <> < <= > >=
	All   bool
	Query *Query
	Pos   Pos
}

// ExistsExpr is [NOT] EXISTS (SELECT …).
type ExistsExpr struct {
	Query *Query
	Not   bool
	Pos   Pos
}

// SubqueryExpr is a scalar subquery (SELECT …) used as a value.
type SubqueryExpr struct {
	Query *Query
	Pos   Pos
}

// LikeExpr is X [NOT] LIKE|ILIKE Pattern [ESCAPE Escape].
type LikeExpr struct {
	X, Pattern      Expr
	Escape          Expr // nil when absent
	Not             bool
	CaseInsensitive bool // ILIKE
	Pos             Pos
}

// When is one WHEN … THEN … arm of a CASE.
type When struct {
	Cond, Result Expr
}

// CaseExpr is CASE [Operand] WHEN … THEN … [ELSE …] END.
type CaseExpr struct {
	Operand Expr // nil for a searched CASE
	Whens   []When
	Else    Expr // nil when absent
	Pos     Pos
}

// CastExpr is CAST(X AS Type), TRY_CAST(X AS Type) or X::Type.
type CastExpr struct {
	X   Expr
	To  TypeName
	Try bool
	Pos Pos
}

// FuncCall is name(args) with optional DISTINCT, count(*), FILTER (WHERE …) and OVER (…).
// Name is lower case and may be dotted (system.rewrite_data_files).
// EXTRACT(field FROM x) is parsed as FuncCall{Name: "extract", Args: [Literal string field (upper case), x]}.
// SUBSTRING(x FROM a FOR b) becomes FuncCall{Name: "substring", Args: [x, a, b]}.
// TRIM([BOTH|LEADING|TRAILING] [chars] FROM x) becomes trim/ltrim/rtrim(x [, chars]).
type FuncCall struct {
	Name     string
	Args     []Expr // may hold *NamedArg
	Distinct bool
	Star     bool // count(*)
	// OrderBy orders the values of an aggregate inside its parentheses:
	// string_agg(x, sep ORDER BY y), MySQL's GROUP_CONCAT(x ORDER BY y).
	OrderBy []OrderItem
	// Filter is the condition of agg(…) FILTER (WHERE cond); nil without.
	Filter Expr
	// IgnoreNulls is IGNORE NULLS (lag, lead, first_value, …: skip rows
	// whose value is NULL); RESPECT NULLS is the default.
	IgnoreNulls bool
	Over        *WindowSpec
	Pos         Pos
}

// NamedArg is name => value inside a CALL or table function argument list.
type NamedArg struct {
	Name  string // lower case
	Value Expr
	Pos   Pos
}

// WindowSpec is the OVER (…) clause.
type WindowSpec struct {
	PartitionBy []Expr
	OrderBy     []OrderItem
	Frame       *Frame // nil when absent
}

// Frame is ROWS|RANGE|GROUPS BETWEEN Start AND End [EXCLUDE …] (End is
// CURRENT ROW for a single bound).
type Frame struct {
	Unit       string // ROWS, RANGE or GROUPS
	Start, End FrameBound
	Exclude    FrameExclusion
}

// FrameExclusion is what a frame's EXCLUDE clause takes out of it: nothing,
// the current row, its peer group (the rows with its ORDER BY values) or
// its peers but not itself.
type FrameExclusion int

const (
	ExcludeNoOthers FrameExclusion = iota
	ExcludeCurrentRow
	ExcludeGroup
	ExcludeTies
)

func (x FrameExclusion) String() string {
	return [...]string{"NO OTHERS", "CURRENT ROW", "GROUP", "TIES"}[x]
}

// FrameBoundKind is the kind of one end of a window frame.
type FrameBoundKind int

const (
	UnboundedPreceding FrameBoundKind = iota
	Preceding
	CurrentRow
	Following
	UnboundedFollowing
)

// FrameBound is one end of a frame; Offset is set for Preceding and Following.
type FrameBound struct {
	Kind   FrameBoundKind
	Offset Expr
}

// TypeName is a SQL type as written, normalized: Name upper case and canonical
// (INT for INT/INTEGER, BIGINT for BIGINT/LONG, FLOAT for FLOAT/REAL, DOUBLE for
// DOUBLE/DOUBLE PRECISION, STRING for STRING/VARCHAR/CHAR/TEXT, TIMESTAMPTZ for
// TIMESTAMPTZ/TIMESTAMP WITH TIME ZONE/TIMESTAMP_LTZ, TIMESTAMP for TIMESTAMP/TIMESTAMP_NTZ
// /DATETIME, BINARY for BINARY/VARBINARY/BYTEA/BLOB, plus BOOLEAN, SMALLINT, TINYINT,
// DECIMAL, DATE, TIME, UUID). Params holds (p, s) for DECIMAL, (n) for VARCHAR(n) etc.
type TypeName struct {
	Name   string
	Params []int
	Pos    Pos
	// Args are the element type of ARRAY, the key and value types of MAP
	// and the fields of STRUCT (see parse_type_nested.go).
	Args []TypeName
	// Field names a STRUCT field; NotNull marks a STRUCT field, ARRAY
	// element or MAP value declared NOT NULL.
	Field   string
	NotNull bool
}

// ---- queries ----

// Query is [WITH …] body [ORDER BY …] [LIMIT …] [OFFSET …].
type Query struct {
	With []CTE
	// Recursive is WITH RECURSIVE: a WITH query of the form anchor UNION
	// [ALL] step may read its own rows in step.
	Recursive bool
	Body      SetExpr
	OrderBy   []OrderItem
	Limit     Expr // nil when absent
	Offset    Expr // nil when absent
	Pos       Pos
}

// CTE is one WITH name [(cols)] AS (query).
type CTE struct {
	Name    string
	Columns []string
	Query   *Query
	Pos     Pos
}

// SetExpr is the body of a query: *Select, *SetOp, *Values or a parenthesized *Query.
type SetExpr interface {
	setExpr()
}

// Select is one SELECT block.
type Select struct {
	Distinct bool
	Items    []SelectItem
	From     TableExpr // nil for SELECT without FROM
	Where    Expr
	GroupBy  []Expr
	// GroupByAll is DuckDB's GROUP BY ALL: group by every select item that
	// calls no aggregate or window function (GroupBy is then empty).
	GroupByAll bool
	Having     Expr
	// Sample is DuckDB's USING SAMPLE: FROM's rows are sampled before WHERE.
	Sample *Sample
	// Qualify filters the rows after the window functions are computed
	// (DuckDB, Snowflake, Spark, BigQuery).
	Qualify Expr
	Pos     Pos
}

// SelectItem is expr [AS alias]; Expr may be *Star. Aliases holds the
// names of AS (a, b), for a generator's columns (Spark's SELECT
// posexplode(arr) AS (pos, x)).
type SelectItem struct {
	Expr    Expr
	Alias   string
	Aliases []string
	Pos     Pos
}

// SetOp is L UNION|INTERSECT|EXCEPT [ALL] R, or L UNION [ALL] BY NAME R.
type SetOp struct {
	Op  string // UNION, INTERSECT, EXCEPT
	All bool
	// ByName is DuckDB's UNION [ALL] BY NAME: columns pair by name, not
	// position, and a column one side lacks is NULL there.
	ByName bool
	L, R   SetExpr
	Pos    Pos
}

// Values is VALUES (…), (…).
type Values struct {
	Rows [][]Expr
	Pos  Pos
}

// OrderItem is one ORDER BY key.
type OrderItem struct {
	Expr       Expr // nil for ORDER BY ALL
	Desc       bool
	NullsFirst *bool // nil: the default, NULLS LAST in both directions
	// All is DuckDB's ORDER BY ALL: every output column, left to right, the
	// query's only ORDER BY item.
	All bool
}

// TableExpr is an item of FROM: *TableName, *TableFunc, *SubqueryTable or *Join.
type TableExpr interface {
	tableExpr()
}

// TableName is a table reference, possibly with time travel and an alias.
type TableName struct {
	Name       ObjectName
	Alias      string
	TimeTravel *TimeTravel
	Pos        Pos
}

// TimeTravel is FOR SYSTEM_VERSION AS OF / VERSION AS OF (Kind "VERSION") or
// FOR SYSTEM_TIME AS OF / TIMESTAMP AS OF (Kind "TIMESTAMP").
type TimeTravel struct {
	Kind  string
	Value Expr
}

// TableFunc is name(args) in FROM, such as read_parquet('x/*.parquet', hive_partitioning => true).
type TableFunc struct {
	Name       string
	Args       []Expr // may hold *NamedArg
	Alias      string
	ColAliases []string
	Pos        Pos
	Ordinality bool // UNNEST(…) WITH ORDINALITY
}

// SubqueryTable is (query) [AS] alias [(cols)] in FROM.
type SubqueryTable struct {
	Query      *Query
	Alias      string
	ColAliases []string
	// Lateral is LATERAL (query): the query may read the columns of the
	// FROM items before it, and runs for each of their rows.
	Lateral bool
	Pos     Pos
}

// JoinType is the kind of a join.
type JoinType string

const (
	JoinInner JoinType = "INNER"
	JoinLeft  JoinType = "LEFT"
	JoinRight JoinType = "RIGHT"
	JoinFull  JoinType = "FULL"
	JoinCross JoinType = "CROSS" // also FROM a, b
	// JoinSemi keeps each left row once when a right row matches it, JoinAnti
	// when none does (NOT EXISTS); both output the left columns only.
	JoinSemi JoinType = "SEMI"
	JoinAnti JoinType = "ANTI"
)

// Join is L [type] JOIN R [ON cond | USING (cols)].
type Join struct {
	Type  JoinType
	L, R  TableExpr
	On    Expr
	Using []string
	// Natural joins on the columns the two sides share by name (USING
	// those), as NATURAL JOIN does.
	Natural bool
	Pos     Pos
}

// ---- statements ----

// QueryStmt is a SELECT/WITH/VALUES statement.
type QueryStmt struct{ Query *Query }

// Explain is EXPLAIN [ANALYZE] statement.
type Explain struct {
	Analyze bool
	Stmt    Statement
	Pos     Pos
}

// CreateNamespace is CREATE NAMESPACE|SCHEMA|DATABASE [IF NOT EXISTS] name.
type CreateNamespace struct {
	Name        ObjectName
	IfNotExists bool
	Pos         Pos
}

// DropNamespace is DROP NAMESPACE|SCHEMA|DATABASE [IF EXISTS] name [CASCADE].
type DropNamespace struct {
	Name     ObjectName
	IfExists bool
	Cascade  bool
	Pos      Pos
}

// ShowNamespaces is SHOW NAMESPACES|SCHEMAS|DATABASES [IN|FROM catalog].
type ShowNamespaces struct {
	Catalog *ObjectName // nil for the default catalog
	Pos     Pos
}

// ShowCatalogs is SHOW CATALOGS.
type ShowCatalogs struct{ Pos Pos }

// Use is USE [catalog.]namespace.
type Use struct {
	Name ObjectName
	Pos  Pos
}

// ColumnDef is one column of CREATE TABLE or ALTER TABLE ADD COLUMN.
type ColumnDef struct {
	Name    string
	Type    TypeName
	NotNull bool
	Comment string
	Pos     Pos
}

// PartitionField is one entry of PARTITIONED BY or ADD PARTITION FIELD:
// Transform is identity, year, month, day, hour, bucket, truncate or void
// (years/months/days/hours/date_hour are normalized); Param is N for bucket, W for truncate.
// Name is the AS name, empty when absent.
type PartitionField struct {
	Transform string
	Param     int
	Column    string
	Name      string
	Pos       Pos
}

// Property is 'key' = 'value' of TBLPROPERTIES.
type Property struct {
	Key, Value string
}

// CreateTable is CREATE TABLE [IF NOT EXISTS] name (cols) [USING iceberg]
// [PARTITIONED BY (…)] [CLUSTER BY (…)] [TBLPROPERTIES (…)] [AS query].
type CreateTable struct {
	Name        ObjectName
	IfNotExists bool
	Columns     []ColumnDef // empty for CTAS without a column list
	PartitionBy []PartitionField
	ClusterBy   []OrderItem // Delta's CLUSTER BY (…): the table's sort order
	Properties  []Property
	AsQuery     *Query
	Pos         Pos
}

// DropTable is DROP TABLE [IF EXISTS] name [PURGE].
type DropTable struct {
	Name     ObjectName
	IfExists bool
	Purge    bool
	Pos      Pos
}

// ShowTables is SHOW TABLES [IN|FROM namespace].
type ShowTables struct {
	Namespace *ObjectName
	Pos       Pos
}

// Describe is DESCRIBE|DESC [TABLE] [EXTENDED|FORMATTED] name, DESCRIBE HISTORY name
// or DESCRIBE DETAIL name (Kind "", "HISTORY", "DETAIL").
// Extended is set by EXTENDED or FORMATTED, which ask for the table's metadata too.
type Describe struct {
	Name     ObjectName
	Kind     string
	Extended bool
	Pos      Pos
}

// ShowCreateTable is SHOW CREATE TABLE name. MySQL asks for MySQL's
// answer: a Table, Create Table row with MySQL's column types.
type ShowCreateTable struct {
	Name  ObjectName
	MySQL bool
	Pos   Pos
}

// ShowPartitions is SHOW PARTITIONS name.
type ShowPartitions struct {
	Name ObjectName
	Pos  Pos
}

// Insert is INSERT INTO|OVERWRITE [TABLE] name [(cols)] query (VALUES is a query).
type Insert struct {
	Table     ObjectName
	Columns   []string
	Overwrite bool
	// ByName is DuckDB's INSERT INTO t BY NAME query: the query's column
	// names say which table columns it fills, as a column list would.
	ByName bool
	// Partition is Spark's static PARTITION (col = value, …): those columns
	// take the values, and the source gives the others.
	Partition []Assignment
	// ReplaceWhere is Delta's INSERT INTO t REPLACE WHERE cond: the rows
	// where cond holds are replaced by the source's, which must satisfy it.
	ReplaceWhere Expr
	Source       *Query
	Pos          Pos
}

// Delete is DELETE FROM name [WHERE cond].
type Delete struct {
	Table ObjectName
	Where Expr
	Pos   Pos
}

// Call is CALL [catalog.]system.name(args); Args may hold *NamedArg.
type Call struct {
	Name ObjectName
	Args []Expr
	Pos  Pos
}

// Set is SET name = value, SET name TO value, or SET TIME ZONE 'zone' (Name "timezone").
// Name is lower case; Value is the literal text (unquoted for strings).
// SET name alone (Show) shows one setting, SET alone (Name "") all of them.
type Set struct {
	Name  string
	Value string
	Show  bool
	Pos   Pos
}

// AlterTable is ALTER TABLE name action.
type AlterTable struct {
	Name   ObjectName
	Action AlterAction
	Pos    Pos
}

// AlterAction is one of the Alter* action types below.
type AlterAction interface {
	alterAction()
}

// AddPartitionField is ADD PARTITION FIELD transform(col) [AS name].
type AddPartitionField struct{ Field PartitionField }

// DropPartitionField is DROP PARTITION FIELD name | transform(col).
// When written as a bare name, Field.Transform is "identity" and Field.Column the name.
type DropPartitionField struct{ Field PartitionField }

// ReplacePartitionField is REPLACE PARTITION FIELD old WITH transform(col) [AS name].
type ReplacePartitionField struct{ Old, New PartitionField }

// WriteOrderedBy is WRITE [LOCALLY] ORDERED BY keys, or WRITE UNORDERED (Keys
// empty); Delta's CLUSTER BY (keys) and CLUSTER BY NONE parse to it too.
type WriteOrderedBy struct {
	Locally bool
	Keys    []OrderItem
}

// AddColumns is ADD COLUMN[S] col type, … (or ADD COLUMNS (…)).
type AddColumns struct{ Columns []ColumnDef }

// DropColumn is DROP COLUMN [IF EXISTS] name.
type DropColumn struct {
	Name     string
	IfExists bool
}

// RenameColumn is RENAME COLUMN old TO new.
type RenameColumn struct{ Old, New string }

// AlterColumnType is ALTER COLUMN name [SET DATA] TYPE type.
type AlterColumnType struct {
	Name string
	Type TypeName
}

// SetProperties is SET TBLPROPERTIES ('k'='v', …).
type SetProperties struct{ Properties []Property }

// UnsetProperties is UNSET TBLPROPERTIES [IF EXISTS] ('k', …).
type UnsetProperties struct{ Keys []string }

// RenameTable is RENAME TO name.
type RenameTable struct{ To ObjectName }

// Optimize is OPTIMIZE name [WHERE cond] [ZORDER BY (cols)].
type Optimize struct {
	Table  ObjectName
	Where  Expr
	ZOrder []string
	Pos    Pos
}

// Vacuum is VACUUM name [RETAIN n HOURS] [DRY RUN].
type Vacuum struct {
	Table       ObjectName
	RetainHours *float64
	DryRun      bool
	Pos         Pos
}

func (QueryStmt) stmt()       {}
func (Explain) stmt()         {}
func (CreateNamespace) stmt() {}
func (DropNamespace) stmt()   {}
func (ShowNamespaces) stmt()  {}
func (ShowCatalogs) stmt()    {}
func (Use) stmt()             {}
func (CreateTable) stmt()     {}
func (DropTable) stmt()       {}
func (ShowTables) stmt()      {}
func (Describe) stmt()        {}
func (ShowCreateTable) stmt() {}
func (ShowPartitions) stmt()  {}
func (Insert) stmt()          {}
func (Delete) stmt()          {}
func (Call) stmt()            {}
func (Set) stmt()             {}
func (AlterTable) stmt()      {}
func (Optimize) stmt()        {}
func (Vacuum) stmt()          {}

func (AddPartitionField) alterAction()     {}
func (DropPartitionField) alterAction()    {}
func (ReplacePartitionField) alterAction() {}
func (WriteOrderedBy) alterAction()        {}
func (AddColumns) alterAction()            {}
func (DropColumn) alterAction()            {}
func (RenameColumn) alterAction()          {}
func (AlterColumnType) alterAction()       {}
func (SetProperties) alterAction()         {}
func (UnsetProperties) alterAction()       {}
func (RenameTable) alterAction()           {}

func (Select) setExpr() {}
func (SetOp) setExpr()  {}
func (Values) setExpr() {}
func (Query) setExpr()  {}

func (TableName) tableExpr()     {}
func (TableFunc) tableExpr()     {}
func (SubqueryTable) tableExpr() {}
func (Join) tableExpr()          {}

func (e *ColumnRef) Position() Pos      { return e.Pos }
func (e *Star) Position() Pos           { return e.Pos }
func (e *Literal) Position() Pos        { return e.Pos }
func (e *Interval) Position() Pos       { return e.Pos }
func (e *UnaryExpr) Position() Pos      { return e.Pos }
func (e *BinaryExpr) Position() Pos     { return e.Pos }
func (e *IsNullExpr) Position() Pos     { return e.Pos }
func (e *IsBoolExpr) Position() Pos     { return e.Pos }
func (e *IsDistinctExpr) Position() Pos { return e.Pos }
func (e *BetweenExpr) Position() Pos    { return e.Pos }
func (e *InListExpr) Position() Pos     { return e.Pos }
func (e *RowExpr) Position() Pos        { return e.Pos }
func (e *InSubqueryExpr) Position() Pos { return e.Pos }
func (e *QuantifiedExpr) Position() Pos { return e.Pos }
func (e *ExistsExpr) Position() Pos     { return e.Pos }
func (e *SubqueryExpr) Position() Pos   { return e.Pos }
func (e *LikeExpr) Position() Pos       { return e.Pos }
func (e *CaseExpr) Position() Pos       { return e.Pos }
func (e *CastExpr) Position() Pos       { return e.Pos }
func (e *FuncCall) Position() Pos       { return e.Pos }
func (e *NamedArg) Position() Pos       { return e.Pos }

func (*ColumnRef) expr()      {}
func (*Star) expr()           {}
func (*Literal) expr()        {}
func (*Interval) expr()       {}
func (*UnaryExpr) expr()      {}
func (*BinaryExpr) expr()     {}
func (*IsNullExpr) expr()     {}
func (*IsBoolExpr) expr()     {}
func (*IsDistinctExpr) expr() {}
func (*BetweenExpr) expr()    {}
func (*InListExpr) expr()     {}
func (*RowExpr) expr()        {}
func (*InSubqueryExpr) expr() {}
func (*QuantifiedExpr) expr() {}
func (*ExistsExpr) expr()     {}
func (*SubqueryExpr) expr()   {}
func (*LikeExpr) expr()       {}
func (*CaseExpr) expr()       {}
func (*CastExpr) expr()       {}
func (*FuncCall) expr()       {}
func (*NamedArg) expr()       {}
