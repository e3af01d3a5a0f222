package planner

import (
	"path/filepath"
	"strings"

	"github.com/lakesql/lakesql/sql"
)

// readerByExtension is the table function that reads a quoted path in FROM,
// by the path's extension, as DuckDB chooses.
var readerByExtension = map[string]string{
	".parquet": "read_parquet",
	".csv":     "read_csv",
	".tsv":     "read_csv",
	".json":    "read_json",
	".jsonl":   "read_ndjson",
	".ndjson":  "read_ndjson",
}

// bindFileTable binds FROM 'path' as the reader its extension names would:
// FROM 'x/*.parquet' is FROM read_parquet('x/*.parquet') AS x. Its columns
// are qualified by the file name without its extension, as in DuckDB (by
// the reader's name when the name is a wildcard).
func (b *binder) bindFileTable(t *sql.FileTable) (Plan, error) {
	ext := strings.ToLower(filepath.Ext(t.Path))
	fn, ok := readerByExtension[ext]
	if !ok {
		return nil, errorf(t.Pos, "cannot tell the format of %s from its extension (known: .parquet, .csv, .tsv, .json, .jsonl, .ndjson); use read_parquet, read_csv or read_json", t.Path)
	}
	args := []sql.Expr{&sql.Literal{Kind: sql.LitString, Value: t.Path, Pos: t.Pos}}
	if ext == ".tsv" {
		args = append(args, &sql.NamedArg{Name: "delim", Value: &sql.Literal{Kind: sql.LitString, Value: "\t", Pos: t.Pos}, Pos: t.Pos})
	}
	alias := t.Alias
	if base := strings.TrimSuffix(filepath.Base(t.Path), filepath.Ext(t.Path)); alias == "" && !hasMeta(base) {
		alias = base
	}
	return b.bindTableFunc(&sql.TableFunc{Name: fn, Args: args, Alias: alias, ColAliases: t.ColAliases, Pos: t.Pos})
}
