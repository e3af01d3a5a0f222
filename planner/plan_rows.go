package planner

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakesql/lakesql/sql"
)

// Rows is a relation already materialized in memory, such as an Iceberg
// metadata table (ns.t.snapshots): its rows come from table metadata, not
// from a scan of data files. Each batch has the schema of Columns.
type Rows struct {
	// Name is the relation as written, for EXPLAIN.
	Name string
	// Qualifier qualifies the columns: the alias, else the relation's last name part.
	Qualifier string
	Columns   []Column
	Batches   []arrow.RecordBatch
}

func (r *Rows) Schema() []Column {
	cols := make([]Column, len(r.Columns))
	for i, c := range r.Columns {
		cols[i] = Column{Table: r.Qualifier, Name: c.Name, T: c.T}
	}
	return cols
}

func (r *Rows) Children() []Plan { return nil }

func (r *Rows) Describe() string {
	var n int64
	for _, b := range r.Batches {
		n += b.NumRows()
	}
	return fmt.Sprintf("Rows %s (%d rows, in memory)", r.Name, n)
}

// bindMetadataTable binds t when the resolver knows it as a metadata table;
// ok is false for an ordinary table name.
func (b *binder) bindMetadataTable(t *sql.TableName) (plan Plan, ok bool, err error) {
	rows, err := b.res.ResolveMetadataTable(b.ctx, t.Name)
	if err != nil || rows == nil {
		return nil, err != nil, err
	}
	if t.TimeTravel != nil {
		return nil, true, errorf(t.Pos, "time travel on metadata table %s is not supported", rows.Name)
	}
	if t.Alias != "" {
		rows.Qualifier = t.Alias
	}
	return rows, true, nil
}
