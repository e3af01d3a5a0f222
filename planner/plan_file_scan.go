package planner

import (
	"fmt"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
)

// FileFormat is the format of the files a FileScan reads.
type FileFormat int

const (
	FormatParquet FileFormat = iota
	FormatCSV
	FormatJSON // newline-delimited JSON objects, or a top-level array of them
)

// FileRef is one file a FileScan reads, with the values of its hive
// partition columns (one per FileScan.HiveNames; NULL literals for missing
// values).
type FileRef struct {
	Path string
	Size int64
	Hive []*Literal
}

// FileField is a column of the files a FileScan reads. FieldID is the
// Parquet field id, 0 in files without ids (and in CSV files).
type FileField struct {
	FieldID int
	Name    string
	Type    arrow.DataType
}

// CSVOptions say how read_csv splits a file into records and fields.
type CSVOptions struct {
	Header bool // the first record names the columns
	Delim  rune
}

// FileColumn is a column a FileScan produces: a column of the files (Hive < 0)
// or the Hive-th hive partition column.
type FileColumn struct {
	FileField
	Hive int
}

// FileScan reads files named by a table function (read_parquet, read_csv,
// read_json)
// rather than a table. FileSchema is the files' own schema (every file must
// have it); Columns is what the scan produces, narrowed by projection
// pruning. Filter, when set, holds the conjuncts of a WHERE over hive
// partition columns only: files whose partition values fail it are skipped.
// Like Scan.Filter it is an optimization; a Filter node above keeps the rows
// correct.
type FileScan struct {
	Func       string // the table function, for EXPLAIN and errors
	Format     FileFormat
	Alias      string
	Files      []FileRef
	FileSchema []FileField
	HiveNames  []string
	Columns    []FileColumn
	CSV        CSVOptions
	Filter     Expr
}

func (s *FileScan) Schema() []Column {
	qualifier := s.Alias
	if qualifier == "" {
		qualifier = s.Func
	}
	cols := make([]Column, len(s.Columns))
	for i, c := range s.Columns {
		cols[i] = Column{Table: qualifier, Name: c.Name, T: c.Type}
	}
	return cols
}

func (s *FileScan) Children() []Plan { return nil }

func (s *FileScan) Describe() string {
	names := make([]string, len(s.Columns))
	for i, c := range s.Columns {
		names[i] = c.Name
	}
	d := fmt.Sprintf("FileScan %s files=%d columns=[%s]", s.Func, len(s.Files), strings.Join(names, ", "))
	if s.Filter != nil {
		d += " hive_filter=" + s.Filter.String()
	}
	return d
}

// WithFilter returns a copy of the scan that also skips files by the
// conjuncts of cond that reference hive partition columns only; the others
// cannot be decided before reading a file and are left to the Filter above.
func (s *FileScan) WithFilter(cond Expr) *FileScan {
	keep := []Expr{s.Filter}
	for _, c := range Conjuncts(cond) {
		if s.onlyHive(c) {
			keep = append(keep, c)
		}
	}
	out := *s
	out.Filter = Conjunction(keep)
	return &out
}

// onlyHive reports whether e reads hive partition columns and nothing else
// that varies by row (no subqueries, which would run once per file).
func (s *FileScan) onlyHive(e Expr) bool {
	ok := true
	Walk(e, func(x Expr) {
		switch x := x.(type) {
		case *ColumnRef:
			ok = ok && s.Columns[x.Index].Hive >= 0
		case *Subquery:
			ok = false
		}
	})
	return ok
}

// Narrow returns a copy of the scan producing only the needed columns (and
// those its filter reads), with, for each old column, its new index or -1.
// One file column is always kept: row counts come from the files.
func (s *FileScan) Narrow(needed []bool) (*FileScan, []int) {
	needed = slices.Clone(needed)
	if s.Filter != nil {
		Walk(s.Filter, func(x Expr) {
			if ref, ok := x.(*ColumnRef); ok {
				needed[ref.Index] = true
			}
		})
	}
	if i := slices.IndexFunc(s.Columns, func(c FileColumn) bool { return c.Hive < 0 }); i >= 0 && !s.readsFile(needed) {
		needed[i] = true
	}
	out := *s
	out.Columns = nil
	mapping := make([]int, len(s.Columns))
	for i, c := range s.Columns {
		mapping[i] = -1
		if needed[i] {
			mapping[i] = len(out.Columns)
			out.Columns = append(out.Columns, c)
		}
	}
	if s.Filter != nil {
		out.Filter = Rewrite(s.Filter, func(x Expr) Expr {
			if ref, ok := x.(*ColumnRef); ok {
				return &ColumnRef{Index: mapping[ref.Index], Name: ref.Name, T: ref.T}
			}
			return x
		})
	}
	return &out, mapping
}

// readsFile reports whether a needed column comes from the files.
func (s *FileScan) readsFile(needed []bool) bool {
	for i, c := range s.Columns {
		if needed[i] && c.Hive < 0 {
			return true
		}
	}
	return false
}
