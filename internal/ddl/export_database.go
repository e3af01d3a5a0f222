package ddl

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/table"

	"github.com/lakesql/lakesql/internal/dml"
	"github.com/lakesql/lakesql/internal/engine"
	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/sql"
	"github.com/lakesql/lakesql/storage"
)

// exportOptionNames are the options EXPORT DATABASE takes: the format and
// the COPY options of the file format that load.sql can read back (a CSV
// file keeps its header, which load.sql reads the columns by).
var exportOptionNames = []string{"format", "compression", "delimiter", "delim", "sep"}

// Export file names: the DDL and the statements that load the data, as
// DuckDB names them.
const (
	exportSchemaFile = "schema.sql"
	exportLoadFile   = "load.sql"
)

// exportFormat is what EXPORT DATABASE writes each table as.
type exportFormat struct {
	name  string // parquet or csv
	delim string // csv: the delimiter given, "" for ','
	copy  []sql.CopyOption
}

// ExportDatabase runs EXPORT DATABASE [namespace TO] 'dir' [(options)]: each
// table is copied (COPY … TO) into a file of dir, and schema.sql and
// load.sql get the statements that recreate and refill it. Tables of one
// namespace (the one named, else the current one) are written unqualified,
// so that IMPORT DATABASE recreates them in whatever namespace is current
// then; with no namespace, every namespace is exported under its own name.
// dir must be new or empty; it is written in a staging folder and moved into
// place at the end, so a failed export leaves nothing behind.
func ExportDatabase(ctx context.Context, s *engine.Session, st *sql.ExportDatabase) (*engine.Result, error) {
	format, err := exportFormatOf(st)
	if err != nil {
		return nil, err
	}
	nss, qualify, err := exportNamespaces(ctx, s, st)
	if err != nil {
		return nil, err
	}
	if err := planner.CheckFileAccess(ctx, st.Path, true); err != nil {
		return nil, fmt.Errorf("EXPORT DATABASE: %w", err)
	}
	target, err := storage.NewFolderTarget(st.Path, false, nil)
	if errors.Is(err, storage.ErrFolderNotEmpty) {
		return nil, fmt.Errorf("EXPORT DATABASE: folder %s is not empty; export to a new or empty folder", st.Path)
	}
	if err != nil {
		return nil, fmt.Errorf("EXPORT DATABASE: %w", err)
	}
	tables, err := exportTables(ctx, s, st, format, target, nss, qualify)
	if err != nil {
		target.Discard()
		return nil, err
	}
	if err := target.Place(); err != nil {
		target.Discard()
		return nil, fmt.Errorf("EXPORT DATABASE: %w", err)
	}
	return engine.Message(fmt.Sprintf("exported %d %s to %s", tables, plural(tables, "table"), st.Path)), nil
}

// exportTables writes every table of nss and the two scripts into the
// staging folder and returns how many tables it wrote.
func exportTables(ctx context.Context, s *engine.Session, st *sql.ExportDatabase, format exportFormat, target *storage.FolderTarget, nss []string, qualify bool) (int, error) {
	var schema, load strings.Builder
	files := map[string]bool{}
	count := 0
	for _, ns := range nss {
		if qualify {
			fmt.Fprintf(&schema, "CREATE NAMESPACE IF NOT EXISTS %s;\n\n", sql.QuoteIdent(ns))
		}
		names, err := s.Warehouse().Tables(ctx, ns)
		if err != nil {
			return 0, err
		}
		for _, name := range names {
			tbl, err := s.Warehouse().LoadTable(ctx, ns, name)
			if err != nil {
				return 0, err
			}
			if err := csvCanHold(tbl, format); err != nil {
				return 0, fmt.Errorf("EXPORT DATABASE: table %s.%s: %w", ns, name, err)
			}
			written := sql.QuoteIdent(name)
			if qualify {
				written = sql.QuoteIdent(ns) + "." + written
			}
			file := exportFileName(ns, name, qualify, format.name, files)
			cp := &sql.Copy{Query: selectAllOf(ns, name, st.Pos), Path: filepath.Join(target.Staging, file), Options: format.copy, Pos: st.Pos}
			res, err := dml.Copy(ctx, s, cp)
			if err != nil {
				return 0, fmt.Errorf("EXPORT DATABASE: table %s.%s: %w", ns, name, err)
			}
			res.Close()
			fmt.Fprintf(&schema, "%s;\n\n", CreateTableText(tbl, written))
			fmt.Fprintf(&load, "%s;\n", loadStatement(tbl, written, filepath.Join(st.Path, file), format))
			count++
		}
	}
	for file, text := range map[string]string{exportSchemaFile: schema.String(), exportLoadFile: load.String()} {
		err := storage.WriteNewFile(filepath.Join(target.Staging, file), false, func(w io.Writer) error {
			_, err := io.WriteString(w, text)
			return err
		})
		if err != nil {
			return 0, fmt.Errorf("EXPORT DATABASE: %w", err)
		}
	}
	return count, nil
}

// exportNamespaces are the namespaces to export, and whether their tables
// are written with their namespace's name.
func exportNamespaces(ctx context.Context, s *engine.Session, st *sql.ExportDatabase) ([]string, bool, error) {
	ns := s.Namespace()
	if st.Namespace != nil {
		wh, n, err := s.NamespaceName(ctx, *st.Namespace)
		if err != nil {
			return nil, false, err
		}
		if err := s.InDefaultCatalog(wh, *st.Namespace, "EXPORT DATABASE of namespace"); err != nil {
			return nil, false, err
		}
		ns = n
	}
	if ns == "" {
		nss, err := s.Warehouse().Namespaces(ctx)
		return nss, true, err
	}
	if ok, err := s.Warehouse().NamespaceExists(ctx, ns); err != nil || !ok {
		if err == nil {
			err = s.Warehouse().NoSuchNamespace(ctx, ns)
		}
		return nil, false, err
	}
	return []string{ns}, false, nil
}

// exportFormatOf reads EXPORT DATABASE's options: FORMAT parquet (the
// default) or csv, and the options COPY takes for it.
func exportFormatOf(st *sql.ExportDatabase) (exportFormat, error) {
	f := exportFormat{name: "parquet"}
	for _, o := range st.Options {
		if !slices.Contains(exportOptionNames, o.Name) {
			return f, &planner.Error{Pos: o.Pos, Msg: fmt.Sprintf("EXPORT DATABASE has no option %s (its options: %s)", o.Name, strings.Join(exportOptionNames, ", "))}
		}
		lit, _ := o.Value.(*sql.Literal)
		text, isText := "", lit != nil && lit.Kind == sql.LitString
		if isText {
			text = lit.Value
		}
		switch o.Name {
		case "format":
			if !isText || !slices.Contains([]string{"parquet", "csv"}, strings.ToLower(text)) {
				return f, &planner.Error{Pos: o.Pos, Msg: "EXPORT DATABASE writes FORMAT parquet or csv"}
			}
			f.name = strings.ToLower(text)
			continue
		case "delimiter", "delim", "sep":
			if !isText {
				return f, &planner.Error{Pos: o.Pos, Msg: fmt.Sprintf("EXPORT DATABASE option %s needs a string, as in DELIMITER '|'", strings.ToUpper(o.Name))}
			}
			f.delim = text
		}
		f.copy = append(f.copy, o)
	}
	// Checked before anything is written, as COPY would check it per table.
	for _, o := range f.copy {
		if forCSV := o.Name != "compression"; forCSV != (f.name == "csv") {
			return f, &planner.Error{Pos: o.Pos, Msg: fmt.Sprintf("EXPORT DATABASE option %s is not one of FORMAT %s", strings.ToUpper(o.Name), f.name)}
		}
	}
	// COPY checks the options against the format, as for its own files.
	f.copy = append(f.copy, sql.CopyOption{Name: "format", Value: &sql.Literal{Kind: sql.LitString, Value: f.name, Pos: st.Pos}, Pos: st.Pos})
	return f, nil
}

// exportFileName is the file a table is written to: table.<format> for a
// namespace exported alone, namespace.table.<format> otherwise, with the
// characters a file name cannot hold replaced and a number added when two
// tables would share a name.
func exportFileName(ns, name string, qualify bool, format string, taken map[string]bool) string {
	base := name
	if qualify {
		base = ns + "." + name
	}
	base = strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r < ' ' {
			return '_'
		}
		return r
	}, base)
	file := base + "." + format
	for i := 2; taken[strings.ToLower(file)] || file == exportSchemaFile || file == exportLoadFile; i++ {
		file = fmt.Sprintf("%s_%d.%s", base, i, format)
	}
	taken[strings.ToLower(file)] = true
	return file
}

// csvCanHold refuses a CSV export of a nested column: COPY writes it as
// text, which load.sql could not cast back.
func csvCanHold(tbl *table.Table, f exportFormat) error {
	if f.name != "csv" {
		return nil
	}
	for _, field := range tbl.Schema().Fields() {
		if _, nested := field.Type.(iceberg.NestedType); nested {
			return fmt.Errorf("column %s is %s, which a CSV file cannot hold for IMPORT DATABASE to read back; use FORMAT parquet", field.Name, sqlTypeName(field.Type))
		}
	}
	return nil
}

// selectAllOf is SELECT * FROM ns.name.
func selectAllOf(ns, name string, pos sql.Pos) *sql.Query {
	from := &sql.TableName{Name: sql.ObjectName{Parts: []string{ns, name}, Pos: pos}, Pos: pos}
	return &sql.Query{Body: &sql.Select{Items: []sql.SelectItem{{Expr: &sql.Star{Pos: pos}, Pos: pos}}, From: from, Pos: pos}, Pos: pos}
}

// loadStatement is the INSERT of load.sql that refills a table from its
// file. A Parquet file keeps the column types; a CSV file is read as text
// (all_varchar) and each column cast back to its type, so that type
// inference cannot change a value (a string '007' stays '007').
func loadStatement(tbl *table.Table, name, path string, f exportFormat) string {
	if f.name == "parquet" {
		return fmt.Sprintf("INSERT INTO %s SELECT * FROM read_parquet(%s)", name, quoteString(path))
	}
	var cols []string
	for _, field := range tbl.Schema().Fields() {
		col := sql.QuoteIdent(field.Name)
		cols = append(cols, fmt.Sprintf("CAST(%s AS %s) AS %s", col, sqlTypeName(field.Type), col))
	}
	args := quoteString(path) + ", all_varchar => true"
	if f.delim != "" {
		args += ", delim => " + quoteString(f.delim)
	}
	return fmt.Sprintf("INSERT INTO %s SELECT %s FROM read_csv(%s)", name, strings.Join(cols, ", "), args)
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}
