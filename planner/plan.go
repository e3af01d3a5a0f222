// Package planner binds parsed statements against the catalog: it resolves
// names and types and produces a logical plan of typed operators.
package planner

import (
	"fmt"
	"math"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/iceberg-go"
	icebergio "github.com/apache/iceberg-go/io"
	"github.com/apache/iceberg-go/table"

	"github.com/lakesql/lakesql/storage"
)

// Column is one output column of a plan node. Table is the name or alias that
// qualifies it (empty for computed columns).
type Column struct {
	Table string
	Name  string
	T     arrow.DataType
	ColumnMarks
}

// ColumnMarks say how names and stars see a column.
type ColumnMarks struct {
	// Hidden columns are found by name but are not part of *: a table's
	// metadata columns, and the inputs' copies of a JOIN … USING column,
	// which the merged column hides.
	Hidden bool
	// UsingCopy marks the latter: t.* includes them with the rest of t.
	UsingCopy bool
	// Merged marks the merged JOIN … USING column: it belongs to neither
	// input, so no qualified name or t.* finds it, even where its value
	// is one input's.
	Merged bool
}

// Plan is a logical plan node.
type Plan interface {
	Schema() []Column
	Children() []Plan
	// WithChildren returns a copy of the node with the given children.
	WithChildren(children []Plan) Plan
	// Describe is the node's one-line description for EXPLAIN.
	Describe() string
}

// TableRef is a resolved Iceberg table at one snapshot.
type TableRef struct {
	// Catalog names the table's catalog when it is not the session's
	// default one, which one- and two-part names mean; else "".
	Catalog         string
	Namespace, Name string
	Table           *table.Table
	Snapshot        *table.Snapshot // nil for a table without snapshots
	Schema          *iceberg.Schema // the schema rows are read with
	// FS is the file system the table's files are read and written
	// through: its catalog's, which a query over several catalogs does
	// not share.
	FS icebergio.WriteFileIO
}

// QualifiedName is namespace.table, or catalog.namespace.table in a
// catalog other than the default one.
func (t *TableRef) QualifiedName() string {
	if t.Catalog != "" {
		return t.Catalog + "." + t.Namespace + "." + t.Name
	}
	return t.Namespace + "." + t.Name
}

// ScanColumn is a table column a scan reads.
type ScanColumn struct {
	FieldID int
	Name    string
	T       arrow.DataType
}

// Scan reads columns of an Iceberg table. Filter, when set, is a predicate over
// the scan's own columns that the scan may use to skip data; rows that fail it
// are still removed by a Filter node above, so skipping is an optimization only.
type Scan struct {
	Table   *TableRef
	Alias   string
	Columns []ScanColumn
	Filter  Expr
	// RowsNeeded > 0 says a LIMIT directly above needs only that many rows,
	// so the scan may stop opening files once it has produced them.
	RowsNeeded int64
	// Files are the data files the scan reads and how pruning chose them,
	// decided by the optimizer's prune_files rule; nil when the rule did not
	// run, and then every file is read.
	Files *storage.ScanPlan
}

// Filter keeps rows where Cond is TRUE.
type Filter struct {
	Input Plan
	Cond  Expr
}

// Project computes Exprs over its input's rows.
type Project struct {
	Input Plan
	Exprs []Expr
	Names []string
	// Marks, when set, holds each output column's marks: the projections
	// that pass hidden columns on set it (JOIN … USING's, a sample of n
	// rows', the one dropping ORDER BY's hidden keys).
	Marks []ColumnMarks
}

// RowsThrough is how many rows LIMIT limit OFFSET offset reads, offset +
// limit, as many as an int64 counts when that sum is larger (LIMIT
// 9223372036854775807 OFFSET 1).
func RowsThrough(limit, offset int64) int64 {
	if limit > math.MaxInt64-offset {
		return math.MaxInt64
	}
	return offset + limit
}

// Limit skips Offset rows, then passes at most Limit rows (Limit < 0: no limit).
type Limit struct {
	Input         Plan
	Limit, Offset int64
}

// Values is a constant relation.
type Values struct {
	Columns []Column
	Rows    [][]Expr
}

func (s *Scan) Schema() []Column {
	qualifier := s.Alias
	if qualifier == "" {
		qualifier = s.Table.Name
	}
	cols := make([]Column, len(s.Columns))
	for i, c := range s.Columns {
		cols[i] = Column{Table: qualifier, Name: c.Name, T: c.T, ColumnMarks: ColumnMarks{Hidden: IsMetadataColumn(c.FieldID)}}
	}
	return cols
}
func (f *Filter) Schema() []Column { return f.Input.Schema() }
func (p *Project) Schema() []Column {
	cols := make([]Column, len(p.Exprs))
	// The input's schema is computed once: asking for it per column made a
	// stack of projections over joins exponential in its depth.
	var in []Column
	for i, e := range p.Exprs {
		cols[i] = Column{Name: p.Names[i], T: e.Type()}
		if ref, ok := e.(*ColumnRef); ok {
			if in == nil {
				in = p.Input.Schema()
			}
			cols[i].Table = in[ref.Index].Table
		}
		if i < len(p.Marks) {
			cols[i].ColumnMarks = p.Marks[i]
			if cols[i].Merged {
				cols[i].Table = ""
			}
		}
	}
	return cols
}
func (l *Limit) Schema() []Column  { return l.Input.Schema() }
func (v *Values) Schema() []Column { return v.Columns }

func (s *Scan) Children() []Plan    { return nil }
func (f *Filter) Children() []Plan  { return []Plan{f.Input} }
func (p *Project) Children() []Plan { return []Plan{p.Input} }
func (l *Limit) Children() []Plan   { return []Plan{l.Input} }
func (v *Values) Children() []Plan  { return nil }

func (s *Scan) Describe() string {
	names := make([]string, len(s.Columns))
	for i, c := range s.Columns {
		names[i] = c.Name
	}
	snap := "none"
	if s.Table.Snapshot != nil {
		snap = fmt.Sprint(s.Table.Snapshot.SnapshotID)
	}
	d := fmt.Sprintf("Scan %s snapshot=%s columns=[%s]", s.Table.QualifiedName(), snap, strings.Join(names, ", "))
	if s.RowsNeeded > 0 {
		d += fmt.Sprintf(" rows_needed=%d", s.RowsNeeded)
	}
	return d
}
func (f *Filter) Describe() string { return "Filter " + f.Cond.String() }
func (p *Project) Describe() string {
	items := make([]string, len(p.Exprs))
	for i, e := range p.Exprs {
		items[i] = e.String()
		if items[i] != p.Names[i] {
			items[i] += " AS " + p.Names[i]
		}
	}
	return "Project " + strings.Join(items, ", ")
}
func (l *Limit) Describe() string {
	switch {
	case l.Limit < 0:
		return fmt.Sprintf("Offset %d", l.Offset)
	case l.Offset > 0:
		return fmt.Sprintf("Limit %d offset %d", l.Limit, l.Offset)
	}
	return fmt.Sprintf("Limit %d", l.Limit)
}
func (v *Values) Describe() string { return fmt.Sprintf("Values %d rows", len(v.Rows)) }

// Format prints a plan as one line per node, children indented under parents.
func Format(p Plan) string {
	var b strings.Builder
	var walk func(Plan, int)
	walk = func(p Plan, depth int) {
		b.WriteString(strings.Repeat("  ", depth))
		b.WriteString(p.Describe())
		b.WriteByte('\n')
		for _, c := range p.Children() {
			walk(c, depth+1)
		}
	}
	walk(p, 0)
	return b.String()
}
