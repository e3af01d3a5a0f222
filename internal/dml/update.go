package dml

import (
	"context"
	"strings"

	"github.com/apache/iceberg-go"

	"github.com/lakesql/lakesql/exec"
	"github.com/lakesql/lakesql/internal/engine"
	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/sql"
)

// Update runs UPDATE t SET c = e, … [WHERE cond]. The data files holding
// rows the condition is TRUE for are chosen as DELETE chooses them; by
// default (copy-on-write) they are replaced, in one snapshot, by copies in
// which those rows carry the new values; under write.update.mode =
// merge-on-read the rows' positions go to position delete files and their
// new versions to new data files. Rows where the condition is NULL keep
// their values. A row whose partition values change is written to its new
// partition.
func Update(ctx context.Context, s *engine.Session, st *sql.Update) (*engine.Result, error) {
	sel, err := newRowSelection(ctx, s, st.Table, st.Alias, st.Where, "UPDATE … WHERE")
	if err != nil {
		return nil, err
	}
	values, err := bindSet(ctx, s, sel.scan, st.Set)
	if err != nil {
		return nil, err
	}
	if sel.target.Snapshot == nil {
		return engine.RowCount(0, "updated"), nil
	}
	mor, err := mergeOnRead(sel.target.Table, updateModeProperty)
	if err != nil {
		return nil, err
	}
	files, err := sel.files(ctx)
	if err != nil {
		return nil, err
	}
	var (
		removed []iceberg.DataFile
		rewrite []exec.ScanFile
		updated int64
	)
	for _, sf := range files {
		removed = append(removed, sf.df)
		rewrite = append(rewrite, sf.f)
		updated += sf.matched
	}
	if updated == 0 {
		return engine.RowCount(0, "updated"), nil
	}
	if mor {
		if err := sel.mergeOnRead(ctx, files, values); err != nil {
			return nil, err
		}
		return engine.RowCount(updated, "updated"), nil
	}
	exprs, names := make([]planner.Expr, len(values)), make([]string, len(values))
	for i, c := range sel.scan.Columns {
		names[i] = c.Name
		exprs[i] = &planner.ColumnRef{Index: i, Name: c.Name, T: c.T}
		switch {
		case values[i] == nil:
		case sel.cond == nil:
			exprs[i] = values[i]
		default:
			// CASE evaluates the new value only on the rows it updates, so
			// SET v = 1 / x WHERE x <> 0 cannot fail on the other rows.
			exprs[i] = &planner.Case{Whens: []planner.CaseWhen{{Cond: sel.cond, Result: values[i]}}, Else: exprs[i], T: c.T}
		}
	}
	err = sel.rewrite(ctx, removed, rewrite, func(scan exec.Operator) exec.Operator { return exec.NewProject(scan, exprs, names) })
	if err != nil {
		return nil, err
	}
	return engine.RowCount(updated, "updated"), nil
}

// bindSet binds the assignments of UPDATE SET over the columns of scan: the
// new value of each column, nil for those not assigned.
func bindSet(ctx context.Context, s *engine.Session, scan *planner.Scan, set []sql.Assignment) ([]planner.Expr, error) {
	cols := scan.Schema()
	values := make([]planner.Expr, len(scan.Columns))
	for _, a := range set {
		i := columnIndex(scan, a.Column)
		if i < 0 {
			return nil, &planner.Error{Pos: a.Pos, Msg: "table " + scan.Table.QualifiedName() + " has no column " + a.Column + " (its columns: " + columnNames(scan) + ")"}
		}
		if values[i] != nil {
			return nil, &planner.Error{Pos: a.Pos, Msg: "column " + scan.Columns[i].Name + " is assigned twice"}
		}
		v, err := planner.BindAssignment(ctx, s, a.Value, cols, scan.Columns[i].T, scan.Columns[i].Name)
		if err != nil {
			return nil, err
		}
		values[i] = v
	}
	return values, nil
}

// columnIndex finds a column of scan by name, ignoring case as SQL names do.
func columnIndex(scan *planner.Scan, name string) int {
	for i, c := range scan.Columns {
		if strings.EqualFold(c.Name, name) {
			return i
		}
	}
	return -1
}

func columnNames(scan *planner.Scan) string {
	names := make([]string, len(scan.Columns))
	for i, c := range scan.Columns {
		names[i] = c.Name
	}
	return strings.Join(names, ", ")
}
