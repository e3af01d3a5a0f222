package mysqldialect

import (
	"github.com/pingcap/tidb/pkg/parser/ast"

	"github.com/lakesql/lakesql/sql"
)

// insert is INSERT INTO t [(cols)] VALUES … | SELECT ….
func (t *translator) insert(st *ast.InsertStmt) (sql.Statement, error) {
	switch {
	case st.IsReplace:
		return nil, t.unsupported(st, "REPLACE INTO")
	case len(st.OnDuplicate) > 0:
		return nil, t.unsupported(st, "ON DUPLICATE KEY UPDATE")
	case st.Setlist:
		return nil, t.unsupported(st, "INSERT … SET")
	}
	target, ok := st.Table.TableRefs.Left.(*ast.TableSource)
	if !ok {
		return nil, t.unsupported(st, "this INSERT target")
	}
	tn, ok := target.Source.(*ast.TableName)
	if !ok {
		return nil, t.unsupported(st, "this INSERT target")
	}
	ins := &sql.Insert{Table: t.tableName(tn), Pos: t.pos(st)}
	for _, c := range st.Columns {
		ins.Columns = append(ins.Columns, c.Name.O)
	}
	if st.Select != nil {
		q, err := t.query(st.Select)
		if err != nil {
			return nil, err
		}
		ins.Source = q
		return ins, nil
	}
	values := &sql.Values{Pos: t.pos(st)}
	for _, row := range st.Lists {
		r, err := t.exprs(row)
		if err != nil {
			return nil, err
		}
		values.Rows = append(values.Rows, r)
	}
	ins.Source = &sql.Query{Body: values, Pos: t.pos(st)}
	return ins, nil
}

// singleTable is the one table of DELETE or UPDATE.
func (t *translator) singleTable(refs *ast.TableRefsClause, st ast.Node) (*ast.TableName, string, error) {
	if refs == nil || refs.TableRefs.Right != nil {
		return nil, "", t.unsupported(st, "a statement over several tables")
	}
	ts, ok := refs.TableRefs.Left.(*ast.TableSource)
	if !ok {
		return nil, "", t.unsupported(st, "this table reference")
	}
	tn, ok := ts.Source.(*ast.TableName)
	if !ok {
		return nil, "", t.unsupported(st, "this table reference")
	}
	return tn, ts.AsName.O, nil
}

func (t *translator) delete(st *ast.DeleteStmt) (sql.Statement, error) {
	if st.IsMultiTable || st.Order != nil || st.Limit != nil {
		return nil, t.unsupported(st, "DELETE with several tables, ORDER BY or LIMIT")
	}
	tn, _, err := t.singleTable(st.TableRefs, st)
	if err != nil {
		return nil, err
	}
	where, err := t.optExpr(st.Where)
	if err != nil {
		return nil, err
	}
	return &sql.Delete{Table: t.tableName(tn), Where: where, Pos: t.pos(st)}, nil
}

func (t *translator) update(st *ast.UpdateStmt) (sql.Statement, error) {
	if st.MultipleTable || st.Order != nil || st.Limit != nil || st.With != nil {
		return nil, t.unsupported(st, "UPDATE with several tables, ORDER BY, LIMIT or WITH")
	}
	tn, alias, err := t.singleTable(st.TableRefs, st)
	if err != nil {
		return nil, err
	}
	up := &sql.Update{Table: t.tableName(tn), Alias: alias, Pos: t.pos(st)}
	for _, a := range st.List {
		v, err := t.expr(a.Expr)
		if err != nil {
			return nil, err
		}
		up.Set = append(up.Set, sql.Assignment{Column: a.Column.Name.O, Value: v, Pos: t.pos(a)})
	}
	if up.Where, err = t.optExpr(st.Where); err != nil {
		return nil, err
	}
	return up, nil
}

// createTable is CREATE TABLE t (col type [NOT NULL] [COMMENT '…'], …) or
// CREATE TABLE t AS SELECT …. Keys, indexes and MySQL partitioning have no
// Iceberg counterpart and are refused; lakesql's own dialect (PARTITIONED BY
// with transforms) is tried next.
func (t *translator) createTable(st *ast.CreateTableStmt) (sql.Statement, error) {
	switch {
	case st.Partition != nil:
		return nil, t.unsupported(st.Partition, "MySQL partitioning")
	case st.ReferTable != nil:
		return nil, t.unsupported(st, "CREATE TABLE … LIKE")
	case len(st.Constraints) > 0:
		return nil, t.unsupported(st, "keys and indexes")
	case st.TemporaryKeyword != ast.TemporaryNone:
		return nil, t.unsupported(st, "temporary tables")
	}
	ct := &sql.CreateTable{Name: t.tableName(st.Table), IfNotExists: st.IfNotExists, Pos: t.pos(st)}
	for _, c := range st.Cols {
		tn, err := t.typeName(c, c.Tp)
		if err != nil {
			return nil, err
		}
		def := sql.ColumnDef{Name: c.Name.Name.O, Type: tn, Pos: t.pos(c)}
		for _, o := range c.Options {
			switch o.Tp {
			case ast.ColumnOptionNotNull:
				def.NotNull = true
			case ast.ColumnOptionNull:
			case ast.ColumnOptionComment:
				lit, err := t.expr(o.Expr)
				if err != nil {
					return nil, err
				}
				if l, ok := lit.(*sql.Literal); ok {
					def.Comment = l.Value
				}
			default:
				return nil, t.unsupported(o, "this column option")
			}
		}
		ct.Columns = append(ct.Columns, def)
	}
	if st.Select != nil {
		q, err := t.query(st.Select)
		if err != nil {
			return nil, err
		}
		ct.AsQuery = q
	}
	return ct, nil
}
