package planner

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"net/url"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/apache/arrow-go/v18/arrow"
	icebergio "github.com/apache/iceberg-go/io"

	"github.com/lakesql/lakesql/sql"
	"github.com/lakesql/lakesql/storage"
	"github.com/lakesql/lakesql/value"
)

// FileSystem is implemented by resolvers that let table functions read
// files. Files are opened through FileIO; only glob patterns are expanded on
// the local file system.
type FileSystem interface {
	FileIO() icebergio.IO
	// FileSchema reads the columns of a file: a Parquet file's from its
	// footer, a CSV (read with csv) or JSON file's inferred from its
	// leading records.
	FileSchema(ctx context.Context, format FileFormat, file FileRef, csv CSVOptions) ([]FileField, error)
}

// tableFunc is a table function: its named arguments and how it binds.
type tableFunc struct {
	named []string
	bind  func(call *tableFuncCall) (*FileScan, error)
}

var tableFuncs = map[string]tableFunc{
	"read_parquet": {named: []string{"hive_partitioning"}, bind: bindReadParquet},
	"read_csv":     {named: []string{"header", "delim", "all_varchar", "hive_partitioning"}, bind: bindReadCSV},
	// JSON records, one per line or in a top-level array: read_json tells
	// the two apart itself, so the DuckDB spellings are the same function.
	"read_json":      {named: []string{"hive_partitioning"}, bind: bindReadJSON},
	"read_json_auto": {named: []string{"hive_partitioning"}, bind: bindReadJSON},
	"read_ndjson":    {named: []string{"hive_partitioning"}, bind: bindReadJSON},
}

// tableFuncCall is a table function call with its arguments evaluated.
type tableFuncCall struct {
	ctx   context.Context
	name  string
	pos   sql.Pos
	fsys  FileSystem
	files []FileRef // every file the path arguments name
	roots []string  // per file, the folder its pattern's wildcards start below
	named map[string]*Literal
}

// bindTableFunc binds name(paths, option => value, …) in FROM.
func (b *binder) bindTableFunc(t *sql.TableFunc) (Plan, error) {
	if generators[t.Name] {
		return b.bindUnnest(&Values{Rows: [][]Expr{{}}}, t, false)
	}
	if _, ok := seriesFuncs[t.Name]; ok {
		return b.bindSeries(t)
	}
	fn, ok := tableFuncs[t.Name]
	if !ok {
		names := slices.Sorted(slices.Values(append(slices.Collect(maps.Keys(tableFuncs)), slices.Collect(maps.Keys(seriesFuncs))...)))
		if near := sql.Closest(t.Name, names); near != "" {
			return nil, kindErrorf(ErrUnknownFunction, t.Pos, "unknown table function %s (did you mean %s?)", t.Name, near)
		}
		return nil, kindErrorf(ErrUnknownFunction, t.Pos, "unknown table function %s (table functions: %s)", t.Name, strings.Join(names, ", "))
	}
	fsys, ok := b.res.(FileSystem)
	if !ok {
		return nil, errorf(t.Pos, "%s cannot read files here", t.Name)
	}
	call := &tableFuncCall{ctx: b.ctx, name: t.Name, pos: t.Pos, fsys: fsys, named: map[string]*Literal{}}
	if err := b.tableFuncArgs(call, fn, t.Args); err != nil {
		return nil, err
	}
	scan, err := fn.bind(call)
	if err != nil {
		return nil, err
	}
	scan.Func, scan.Alias, scan.Files = t.Name, t.Alias, call.files
	if len(t.ColAliases) == 0 {
		return scan, nil
	}
	alias := t.Alias
	if alias == "" {
		alias = t.Name
	}
	out, err := NewSubqueryAlias(scan, alias, t.ColAliases)
	if err != nil {
		return nil, errorf(t.Pos, "%v", err)
	}
	return out, nil
}

// tableFuncArgs reads the positional path arguments (a string, or an
// array(…) of strings) and the named options, which must be constants.
func (b *binder) tableFuncArgs(call *tableFuncCall, fn tableFunc, args []sql.Expr) error {
	var patterns []string
	for _, a := range args {
		if named, ok := a.(*sql.NamedArg); ok {
			if !slices.Contains(fn.named, named.Name) {
				return unknownArg(call.name, named, fn.named)
			}
			lit, err := b.constantArg(call.name, named.Name, named.Value)
			if err != nil {
				return err
			}
			call.named[named.Name] = lit
			continue
		}
		ps, err := b.pathArgs(call.name, a)
		if err != nil {
			return err
		}
		patterns = append(patterns, ps...)
	}
	if len(patterns) == 0 {
		return errorf(call.pos, "%s needs a file path or glob", call.name)
	}
	for _, p := range patterns {
		if err := call.expand(p); err != nil {
			return errorf(call.pos, "%v", err)
		}
	}
	return nil
}

func unknownArg(fn string, arg *sql.NamedArg, known []string) error {
	if near := sql.Closest(arg.Name, known); near != "" {
		return errorf(arg.Pos, "%s has no argument %s (did you mean %s?)", fn, arg.Name, near)
	}
	return errorf(arg.Pos, "%s has no argument %s (its arguments: %s)", fn, arg.Name, strings.Join(known, ", "))
}

// pathArgs reads a path argument: 'path' or array('a', 'b').
func (b *binder) pathArgs(fn string, e sql.Expr) ([]string, error) {
	elems := []sql.Expr{e}
	if arr, ok := e.(*sql.FuncCall); ok && arr.Name == "array" {
		elems = arr.Args
	}
	var out []string
	for _, el := range elems {
		lit, err := b.constantArg(fn, "path", el)
		if err != nil {
			return nil, err
		}
		s, ok := lit.Value.(string)
		if !ok || s == "" {
			return nil, errorf(el.Position(), "%s: a path must be a non-empty string", fn)
		}
		out = append(out, s)
	}
	return out, nil
}

func (b *binder) constantArg(fn, name string, e sql.Expr) (*Literal, error) {
	x, err := b.bindExpr(e, &scope{})
	if err != nil {
		return nil, err
	}
	lit, ok := x.(*Literal)
	if !ok {
		return nil, errorf(e.Position(), "argument %s of %s must be a constant", name, fn)
	}
	return lit, nil
}

// boolArg returns a BOOLEAN option, or def when it is not given.
func (c *tableFuncCall) boolArg(name string, def bool) (bool, error) {
	lit, ok := c.named[name]
	if !ok {
		return def, nil
	}
	v, ok := lit.Value.(bool)
	if !ok {
		return false, errorf(c.pos, "argument %s of %s must be true or false", name, c.name)
	}
	return v, nil
}

// expand adds the files a path or glob names, in name order.
func (c *tableFuncCall) expand(pattern string) error {
	paths := []string{pattern}
	root := filepath.Dir(pattern)
	if err := CheckFileAccess(c.ctx, globRoot(pattern), false); err != nil {
		return fmt.Errorf("%s: %w", c.name, err)
	}
	if hasMeta(pattern) {
		var err error
		// doublestar adds ** (any depth of folders) to filepath.Glob.
		if paths, err = doublestar.FilepathGlob(pattern); err != nil {
			return fmt.Errorf("%s: bad glob %s: %w", c.name, pattern, err)
		}
		slices.Sort(paths)
		if len(paths) == 0 {
			return fmt.Errorf("%s: no files match %s", c.name, pattern)
		}
		root = globRoot(pattern)
	}
	for _, p := range paths {
		// Each file too: a symlink below an allowed folder may lead out.
		if err := CheckFileAccess(c.ctx, p, false); err != nil {
			return fmt.Errorf("%s: %w", c.name, err)
		}
		size, err := c.fileSize(p)
		if err != nil {
			return err
		}
		c.files = append(c.files, FileRef{Path: p, Size: size})
		c.roots = append(c.roots, root)
	}
	return nil
}

func hasMeta(path string) bool { return strings.ContainsAny(path, "*?[") }

// globRoot is the folder above the first path segment with a wildcard.
func globRoot(pattern string) string {
	dir := filepath.Dir(pattern)
	for hasMeta(dir) {
		dir = filepath.Dir(dir)
	}
	return dir
}

func (c *tableFuncCall) fileSize(path string) (int64, error) {
	f, err := c.fsys.FileIO().Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, fmt.Errorf("%s: file %s does not exist", c.name, path)
	}
	if err != nil {
		return 0, fmt.Errorf("%s: open %s: %w", c.name, path, err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return 0, fmt.Errorf("%s: stat %s: %w", c.name, path, err)
	}
	if info.IsDir() {
		return 0, fmt.Errorf("%s: %s is a folder (use a glob such as %s)", c.name, path, filepath.Join(path, "*"))
	}
	// A device or pipe (/dev/zero) would be read without end.
	if !info.Mode().IsRegular() {
		return 0, fmt.Errorf("%s: %s is not a regular file (a %s)", c.name, path, storage.FileKind(info.Mode()))
	}
	return info.Size(), nil
}

// bindReadParquet takes the schema from the first file's footer.
func bindReadParquet(call *tableFuncCall) (*FileScan, error) {
	return call.fileScan(FormatParquet, CSVOptions{})
}

// bindReadJSON infers the schema from the first file's leading records.
func bindReadJSON(call *tableFuncCall) (*FileScan, error) {
	return call.fileScan(FormatJSON, CSVOptions{})
}

// bindReadCSV infers the schema from the first file's leading records.
func bindReadCSV(call *tableFuncCall) (*FileScan, error) {
	opts := CSVOptions{Delim: ','}
	var err error
	if opts.Header, err = call.boolArg("header", true); err != nil {
		return nil, err
	}
	if lit, ok := call.named["delim"]; ok {
		s, isString := lit.Value.(string)
		r, size := utf8.DecodeRuneInString(s)
		if !isString || size == 0 || size != len(s) || r == '"' || r == '\n' || r == '\r' {
			return nil, errorf(call.pos, "read_csv: delim must be one character other than a quote or a line break")
		}
		opts.Delim = r
	}
	allVarchar, err := call.boolArg("all_varchar", false)
	if err != nil {
		return nil, err
	}
	scan, err := call.fileScan(FormatCSV, opts)
	if err != nil || !allVarchar {
		return scan, err
	}
	// all_varchar, as DuckDB's: the files' columns are text, whatever
	// inference makes of them, for a reader that casts them itself (the
	// load.sql of EXPORT DATABASE), so '007' stays '007'.
	for i := range scan.FileSchema {
		scan.FileSchema[i].Type = arrow.BinaryTypes.String
	}
	for i := range scan.Columns {
		if scan.Columns[i].Hive < 0 {
			scan.Columns[i].Type = arrow.BinaryTypes.String
		}
	}
	return scan, nil
}

// fileScan builds the scan of the files' columns, read from the first file,
// then of the hive partition columns when hive_partitioning is on.
func (c *tableFuncCall) fileScan(format FileFormat, opts CSVOptions) (*FileScan, error) {
	cols, err := c.fsys.FileSchema(c.ctx, format, c.files[0], opts)
	if err != nil {
		return nil, errorf(c.pos, "%s: %v", c.name, err)
	}
	scan := &FileScan{Format: format, FileSchema: cols, CSV: opts}
	for _, col := range cols {
		scan.Columns = append(scan.Columns, FileColumn{FileField: col, Hive: -1})
	}
	hive, err := c.boolArg("hive_partitioning", c.looksHivePartitioned(cols))
	if err != nil || !hive {
		return scan, err
	}
	if err := c.hiveColumns(scan); err != nil {
		return nil, errorf(c.pos, "%v", err)
	}
	return scan, nil
}

// looksHivePartitioned is hive_partitioning's default, as DuckDB's: every
// file lies in key=value folders below its pattern's root, with the same
// keys, none of them a column of the files.
func (c *tableFuncCall) looksHivePartitioned(cols []FileField) bool {
	var first []string
	for i, f := range c.files {
		keys, _, err := hiveSegments(c.roots[i], f.Path)
		if err != nil || len(keys) == 0 || i > 0 && !slices.Equal(keys, first) {
			return false
		}
		first = keys
	}
	for _, k := range first {
		for _, col := range cols {
			if strings.EqualFold(col.Name, k) {
				return false
			}
		}
	}
	return len(first) > 0
}

// hiveColumns adds a column per key=value folder between each file and its
// pattern's root, e.g. order_date=2024-03-22/part-0.parquet. Every file must
// have the same keys in the same order. A column is BIGINT when every value
// is an integer, DATE when every value is a date, else STRING;
// __HIVE_DEFAULT_PARTITION__ and null are NULL.
func (c *tableFuncCall) hiveColumns(scan *FileScan) error {
	var texts [][]*string // per file, per key
	for i, f := range c.files {
		keys, values, err := hiveSegments(c.roots[i], f.Path)
		if err != nil {
			return fmt.Errorf("%s: %w", c.name, err)
		}
		if i == 0 {
			scan.HiveNames = keys
		} else if !slices.Equal(keys, scan.HiveNames) {
			return fmt.Errorf("%s: %s has partition folders %s, %s has %s", c.name,
				f.Path, strings.Join(keys, "/"), c.files[0].Path, strings.Join(scan.HiveNames, "/"))
		}
		texts = append(texts, values)
	}
	for k, name := range scan.HiveNames {
		for _, col := range scan.FileSchema {
			if strings.EqualFold(col.Name, name) {
				return fmt.Errorf("%s: partition folder %s= names a column the files already have", c.name, name)
			}
		}
		column := make([]*string, len(texts))
		for i := range texts {
			column[i] = texts[i][k]
		}
		t, parse := hiveType(column)
		for i := range c.files {
			c.files[i].Hive = append(c.files[i].Hive, parse(column[i]))
		}
		scan.Columns = append(scan.Columns, FileColumn{FileField: FileField{Name: name, Type: t}, Hive: k})
	}
	return nil
}

// hiveSegments splits the key=value folders of path below root.
func hiveSegments(root, path string) (keys []string, values []*string, err error) {
	rel, err := filepath.Rel(root, filepath.Dir(path))
	if err != nil || rel == "." {
		return nil, nil, nil
	}
	for _, seg := range strings.Split(rel, string(filepath.Separator)) {
		key, value, ok := strings.Cut(seg, "=")
		if !ok || key == "" {
			continue
		}
		if v, err := url.PathUnescape(value); err == nil {
			value = v
		}
		keys = append(keys, key)
		if value == "__HIVE_DEFAULT_PARTITION__" || value == "null" {
			values = append(values, nil)
		} else {
			values = append(values, &value)
		}
	}
	return keys, values, nil
}

// hiveType picks the type of a hive column from all its values and returns
// the parser of its values.
func hiveType(values []*string) (t arrow.DataType, parse func(*string) *Literal) {
	allMatch := func(ok func(string) bool) bool {
		for _, v := range values {
			if v != nil && !ok(*v) {
				return false
			}
		}
		return true
	}
	isInt := func(s string) bool { _, err := strconv.ParseInt(s, 10, 64); return err == nil }
	isDate := func(s string) bool {
		_, err := value.ParseDate(s)
		return err == nil && len(s) == len("2006-01-02") && s[4] == '-' && s[7] == '-'
	}
	switch {
	case allMatch(isInt):
		return TypeBigint, hiveParser(TypeBigint, func(s string) any { n, _ := strconv.ParseInt(s, 10, 64); return n })
	case allMatch(isDate):
		return TypeDate, hiveParser(TypeDate, func(s string) any { d, _ := value.ParseDate(s); return d })
	}
	return TypeVarchar, hiveParser(TypeVarchar, func(s string) any { return s })
}

func hiveParser(t arrow.DataType, conv func(string) any) func(*string) *Literal {
	return func(s *string) *Literal {
		if s == nil {
			return &Literal{T: t}
		}
		return &Literal{Value: conv(*s), T: t}
	}
}
