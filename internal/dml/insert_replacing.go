package dml

import (
	"context"
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/iceberg-go"

	"github.com/lakesql/lakesql/internal/engine"
	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/sql"
	"github.com/lakesql/lakesql/storage"
)

// insertReplacing runs Delta's INSERT INTO t REPLACE WHERE cond … and
// Spark's static INSERT OVERWRITE t PARTITION (col = value, …) …: in one
// snapshot, the rows where cond holds (for PARTITION, where every col =
// value) leave the table, copy-on-write as DELETE does, and the source's
// rows come in. Every new row must satisfy cond, or nothing changes; under
// PARTITION the named columns take their values and the source gives the
// others, so they do. As in Spark, a source without rows still clears the
// partition.
func insertReplacing(ctx context.Context, s *engine.Session, target *planner.TableRef, st *sql.Insert) (*engine.Result, error) {
	where, clause := st.ReplaceWhere, "REPLACE WHERE"
	if st.Partition != nil {
		var err error
		if st, where, err = withStaticPartition(target, st); err != nil {
			return nil, err
		}
		clause = "PARTITION (…)"
	}
	sel, err := newRowSelection(ctx, s, st.Table, "", where, "INSERT … "+clause)
	if err != nil {
		return nil, err
	}
	rows, err := runInsertSource(ctx, s, target, st)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	w, err := storage.NewTableWriter(sel.target.Table, sel.target.FS, rows.types)
	if err != nil {
		return nil, err
	}
	inserted, added, err := w.WriteAll(ctx, func() (arrow.RecordBatch, error) {
		b, err := rows.next()
		if b == nil || err != nil {
			return b, err
		}
		if n, err := countTrue(ctx, isTrue(sel.cond), b); err != nil || n != b.NumRows() {
			b.Release()
			if err == nil {
				err = fmt.Errorf("INSERT INTO %s %s: a new row does not satisfy %s; nothing was changed", sel.target.QualifiedName(), clause, sel.cond)
			}
			return nil, err
		}
		return b, nil
	})
	if err == nil {
		err = replaceSelected(ctx, sel, added)
	}
	if err != nil {
		w.Abort()
		return nil, err
	}
	return engine.RowCount(inserted, "inserted"), nil
}

// replaceSelected removes the selected rows of sel's table and adds the
// files added, in one snapshot.
func replaceSelected(ctx context.Context, sel *rowSelection, added []iceberg.DataFile) error {
	var files []selectedFile
	if sel.target.Snapshot != nil {
		var err error
		if files, err = sel.files(ctx); err != nil {
			return err
		}
	}
	removed, rewrite, _ := copyOnWrite(files)
	return sel.rewrite(ctx, removed, rewrite, withoutSelected(sel.cond), added...)
}

// withStaticPartition turns INSERT … PARTITION (col = value, …) source into
// INSERT … (other columns…, col, …) SELECT source.*, value, … FROM (source)
// and returns the condition col = value AND … the replaced rows meet.
func withStaticPartition(target *planner.TableRef, st *sql.Insert) (*sql.Insert, sql.Expr, error) {
	static := map[string]bool{}
	var where sql.Expr
	items := []sql.SelectItem{{Expr: &sql.Star{Table: []string{partitionSource}}}}
	for _, a := range st.Partition {
		f, ok := target.Schema.FindFieldByNameCaseInsensitive(a.Column)
		if !ok {
			return nil, nil, &planner.Error{Kind: planner.ErrUnknownColumn, Pos: a.Pos, Msg: fmt.Sprintf("PARTITION: %s has no column %s", target.QualifiedName(), a.Column)}
		}
		if static[strings.ToLower(f.Name)] {
			return nil, nil, &planner.Error{Pos: a.Pos, Msg: fmt.Sprintf("PARTITION names %s twice", f.Name)}
		}
		static[strings.ToLower(f.Name)] = true
		eq := &sql.BinaryExpr{Op: "=", L: &sql.ColumnRef{Parts: []string{f.Name}, Pos: a.Pos}, R: a.Value, Pos: a.Pos}
		if where == nil {
			where = eq
		} else {
			where = &sql.BinaryExpr{Op: "AND", L: where, R: eq, Pos: a.Pos}
		}
		items = append(items, sql.SelectItem{Expr: a.Value, Alias: f.Name, Pos: a.Pos})
	}
	cols := st.Columns
	if cols == nil {
		for _, f := range target.Schema.Fields() {
			if !static[strings.ToLower(f.Name)] {
				cols = append(cols, f.Name)
			}
		}
	}
	for _, c := range cols {
		if static[strings.ToLower(c)] {
			return nil, nil, &planner.Error{Pos: st.Pos, Msg: fmt.Sprintf("column %s is given both by PARTITION and in the column list", c)}
		}
	}
	for _, a := range st.Partition {
		cols = append(cols, a.Column)
	}
	out := *st
	out.Columns, out.Partition = cols, nil
	out.Source = &sql.Query{Body: &sql.Select{Items: items, From: &sql.SubqueryTable{Query: st.Source, Alias: partitionSource}, Pos: st.Pos}, Pos: st.Pos}
	return &out, where, nil
}

// partitionSource names the source of a static partition insert inside the
// query withStaticPartition writes.
const partitionSource = "partition_source"
