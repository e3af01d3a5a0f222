package sql

// ExportDatabase is EXPORT DATABASE [namespace TO] 'dir' [(options)], as
// DuckDB has it: every table of the namespace named, else of the current
// namespace, else of every namespace, is written to a file in dir, with a
// schema.sql that creates the tables and a load.sql that fills them, which
// IMPORT DATABASE 'dir' runs.
type ExportDatabase struct {
	Namespace *ObjectName // nil: the current namespace, or every one when none is current
	Path      string
	Options   []CopyOption // FORMAT parquet|csv and the options COPY takes for it
	Pos       Pos
}

// ImportDatabase is IMPORT DATABASE 'dir': it runs dir/schema.sql, then
// dir/load.sql, as EXPORT DATABASE wrote them.
type ImportDatabase struct {
	Path string
	Pos  Pos
}

func (ExportDatabase) stmt() {}
func (ImportDatabase) stmt() {}
