package sql

// Update is UPDATE name [[AS] alias] SET col = expr, … [WHERE cond].
type Update struct {
	Table ObjectName
	Alias string
	Set   []Assignment
	Where Expr
	Pos   Pos
}

// Assignment is col = expr of UPDATE … SET and of MERGE's UPDATE SET. Column
// may be written qualified (t.col); only its last part is kept.
type Assignment struct {
	Column string
	Value  Expr
	Pos    Pos
}

// Merge is MERGE INTO target [[AS] alias] USING source ON cond followed by
// its WHEN clauses, in the order written. Source is a *TableName or a
// *SubqueryTable, with its alias.
type Merge struct {
	Target      ObjectName
	TargetAlias string
	Source      TableExpr
	On          Expr
	Clauses     []MergeClause
	Pos         Pos
}

// MergeMatch says which rows a WHEN clause of MERGE applies to.
type MergeMatch int

const (
	// Matched is WHEN MATCHED: target rows the ON condition pairs with a source row.
	Matched MergeMatch = iota
	// NotMatched is WHEN NOT MATCHED [BY TARGET]: source rows no target row pairs with.
	NotMatched
	// NotMatchedBySource is WHEN NOT MATCHED BY SOURCE: target rows no source row pairs with.
	NotMatchedBySource
)

// MergeAction is what a WHEN clause of MERGE does.
type MergeAction int

const (
	MergeUpdate MergeAction = iota // UPDATE SET … or UPDATE SET *
	MergeDelete                    // DELETE
	MergeInsert                    // INSERT (cols) VALUES (…) or INSERT *
)

// MergeClause is WHEN [NOT] MATCHED [BY SOURCE|TARGET] [AND cond] THEN action.
// Star is set for UPDATE SET * and INSERT *; Set holds UPDATE's assignments;
// Columns (empty: every column in order) and Values hold INSERT's.
type MergeClause struct {
	Match   MergeMatch
	Cond    Expr
	Action  MergeAction
	Star    bool
	Set     []Assignment
	Columns []string
	Values  []Expr
	Pos     Pos
}

// TruncateTable is TRUNCATE TABLE name.
type TruncateTable struct {
	Name ObjectName
	Pos  Pos
}

// ReplaceTable is CREATE OR REPLACE TABLE … (OrCreate) or REPLACE TABLE …,
// with the clauses of CREATE TABLE (whose IfNotExists is never set).
type ReplaceTable struct {
	Table    *CreateTable
	OrCreate bool
}

func (Update) stmt()        {}
func (Merge) stmt()         {}
func (TruncateTable) stmt() {}
func (ReplaceTable) stmt()  {}
