package sql

// FileTable is a quoted path in FROM, as in SELECT * FROM 'data/*.parquet':
// the files it names are read by the reader their extension calls for.
type FileTable struct {
	Path       string
	Alias      string
	ColAliases []string
	Pos        Pos
}

// Copy is COPY (query) TO 'path' [(options)] or COPY table TO 'path'
// [(options)]; a table is read as SELECT * FROM table.
type Copy struct {
	Query   *Query
	Path    string
	Options []CopyOption
	Pos     Pos
}

// CopyOption is one option of COPY: a name with an optional value (a bare
// word, such as parquet in FORMAT parquet, is a LitString literal).
type CopyOption struct {
	Name  string // lower case
	Value Expr   // nil when only the name is given, as in HEADER
	Pos   Pos
}

// DescribeQuery is DESCRIBE of a query, a quoted file path or a table
// function: the columns the query returns.
type DescribeQuery struct {
	Query *Query
	Pos   Pos
}

// Summarize is SUMMARIZE of a table, a quoted file path, a table function or
// a query: statistics of every column of what it returns.
type Summarize struct {
	Query *Query
	Pos   Pos
}

func (FileTable) tableExpr() {}
func (Copy) stmt()           {}
func (DescribeQuery) stmt()  {}
func (Summarize) stmt()      {}
