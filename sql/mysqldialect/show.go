package mysqldialect

import (
	"cmp"
	"fmt"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"

	"github.com/lakesql/lakesql/sql"
)

// ErrNoDatabase is the kind of error of SHOW TABLES and SHOW COLUMNS
// without a database while none is selected (MySQL's error 1046).
var ErrNoDatabase = fmt.Errorf("no database selected")

// show translates SHOW statements into queries over information_schema
// (which the engine serves over the catalog) or over the connection's
// variables, with the column names MySQL gives them, so that clients read
// them as they read MySQL's.
func (t *translator) show(st *ast.ShowStmt) (sql.Statement, error) {
	switch st.Tp {
	case ast.ShowDatabases:
		return t.showQuery(st, `SELECT schema_name AS "Database" FROM information_schema.schemata`, "", "ORDER BY 1", "Database")
	case ast.ShowTables:
		db, err := t.database(st, st.DBName)
		if err != nil {
			return nil, err
		}
		cols := fmt.Sprintf(`table_name AS "Tables_in_%s"`, ident(db))
		if st.Full {
			cols += `, table_type AS "Table_type"`
		}
		return t.showQuery(st, "SELECT "+cols+" FROM information_schema.tables", "table_schema = "+stringLit(db), "ORDER BY 1", "Tables_in_"+db)
	case ast.ShowColumns:
		return t.showColumns(st)
	case ast.ShowTableStatus:
		db, err := t.database(st, st.DBName)
		if err != nil {
			return nil, err
		}
		return t.showQuery(st, `SELECT table_name AS "Name", engine AS "Engine", version AS "Version", row_format AS "Row_format",
			table_rows AS "Rows", CAST(NULL AS BIGINT) AS "Avg_row_length", data_length AS "Data_length",
			CAST(NULL AS BIGINT) AS "Max_data_length", CAST(0 AS BIGINT) AS "Index_length", CAST(0 AS BIGINT) AS "Data_free",
			CAST(NULL AS BIGINT) AS "Auto_increment", create_time AS "Create_time", update_time AS "Update_time",
			CAST(NULL AS STRING) AS "Check_time", table_collation AS "Collation", CAST(NULL AS BIGINT) AS "Checksum",
			'' AS "Create_options", table_comment AS "Comment" FROM information_schema.tables`,
			"table_schema = "+stringLit(db), "ORDER BY 1", "Name")
	case ast.ShowIndex:
		db, err := t.database(st, cmp.Or(st.Table.Schema.O, st.DBName))
		if err != nil {
			return nil, err
		}
		return t.showQuery(st, `SELECT table_name AS "Table", non_unique AS "Non_unique", index_name AS "Key_name",
			seq_in_index AS "Seq_in_index", column_name AS "Column_name", collation AS "Collation",
			cardinality AS "Cardinality", sub_part AS "Sub_part", packed AS "Packed", nullable AS "Null",
			index_type AS "Index_type", comment AS "Comment", index_comment AS "Index_comment"
			FROM information_schema.statistics`,
			"table_schema = "+stringLit(db)+" AND table_name = "+stringLit(st.Table.Name.O), "", "")
	case ast.ShowVariables:
		return t.showVariables(st)
	case ast.ShowStatus:
		return t.emptyResult(st, "Variable_name", "Value")
	case ast.ShowWarnings, ast.ShowErrors:
		if st.CountWarningsOrErrors {
			return t.showQuery(st, `SELECT 0 AS "@@session.warning_count"`, "", "", "")
		}
		// lakesql reports problems as errors, never as warnings.
		return t.emptyResult(st, "Level", "Code", "Message")
	case ast.ShowCharset:
		return t.showQuery(st, `SELECT * FROM (VALUES ('utf8mb4', 'UTF-8 Unicode', 'utf8mb4_0900_ai_ci', 4))
			AS c("Charset", "Description", "Default collation", "Maxlen")`, "", "", "Charset")
	case ast.ShowCollation:
		return t.showQuery(st, `SELECT * FROM (VALUES ('utf8mb4_0900_ai_ci', 'utf8mb4', 255, 'Yes', 'Yes', 0, 'NO PAD'))
			AS c("Collation", "Charset", "Id", "Default", "Compiled", "Sortlen", "Pad_attribute")`, "", "", "Collation")
	case ast.ShowEngines:
		return t.showQuery(st, `SELECT * FROM (VALUES ('Iceberg', 'DEFAULT', 'Apache Iceberg tables in Parquet', 'NO', 'NO', 'NO'))
			AS e("Engine", "Support", "Comment", "Transactions", "XA", "Savepoints")`, "", "", "Engine")
	case ast.ShowCreateTable:
		return &sql.ShowCreateTable{Name: t.tableName(st.Table), MySQL: true, Pos: t.pos(st)}, nil
	case ast.ShowCreateDatabase:
		return t.showQuery(st, fmt.Sprintf(`SELECT schema_name AS "Database", 'CREATE DATABASE `+"`%s`"+`' AS "Create Database"
			FROM information_schema.schemata`, strings.ReplaceAll(st.DBName, "'", "''")), "schema_name = "+stringLit(st.DBName), "", "")
	}
	return nil, t.unsupported(st, "this SHOW statement")
}

// database is the database a SHOW names, else the current one.
func (t *translator) database(n ast.Node, named string) (string, error) {
	if named != "" {
		return named, nil
	}
	if t.env.Namespace == "" {
		pos := t.pos(n)
		return "", fmt.Errorf("line %d, column %d: %w (USE a database or name one)", pos.Line, pos.Col, ErrNoDatabase)
	}
	return t.env.Namespace, nil
}

func (t *translator) showColumns(st *ast.ShowStmt) (sql.Statement, error) {
	db, err := t.database(st, cmp.Or(st.Table.Schema.O, st.DBName))
	if err != nil {
		return nil, err
	}
	cols := `column_name AS "Field", column_type AS "Type"`
	if st.Full {
		cols += `, collation_name AS "Collation"`
	}
	cols += `, is_nullable AS "Null", column_key AS "Key", column_default AS "Default", extra AS "Extra"`
	if st.Full {
		cols += `, privileges AS "Privileges", column_comment AS "Comment"`
	}
	where := "table_schema = " + stringLit(db) + " AND table_name = " + stringLit(st.Table.Name.O)
	if st.Column != nil {
		where += " AND column_name = " + stringLit(st.Column.Name.O)
	}
	return t.showQuery(st, "SELECT "+cols+" FROM information_schema.columns", where, "ORDER BY ordinal_position", "Field")
}

// showVariables lists the connection's system variables.
func (t *translator) showVariables(st *ast.ShowStmt) (sql.Statement, error) {
	var rows []string
	for _, name := range t.env.Vars.Names() {
		v, _ := t.env.Vars.Get(name)
		rows = append(rows, "("+stringLit(name)+", "+stringLit(v)+")")
	}
	from := `SELECT * FROM (VALUES ` + strings.Join(rows, ", ") + `) AS v("Variable_name", "Value")`
	return t.showQuery(st, from, "", "ORDER BY 1", "Variable_name")
}

// emptyResult is a result with these columns (all strings) and no rows.
func (t *translator) emptyResult(st *ast.ShowStmt, cols ...string) (sql.Statement, error) {
	items := make([]string, len(cols))
	for i, c := range cols {
		items[i] = fmt.Sprintf(`CAST(NULL AS STRING) AS "%s"`, ident(c))
	}
	return t.showQuery(st, "SELECT "+strings.Join(items, ", "), "", "LIMIT 0", cols[0])
}

// showQuery builds "SELECT … FROM … WHERE filter [AND LIKE/WHERE of the SHOW] order",
// wrapped so that SHOW's LIKE and WHERE see the columns by their MySQL names.
func (t *translator) showQuery(st *ast.ShowStmt, selectFrom, filter, order, likeColumn string) (sql.Statement, error) {
	text := selectFrom
	if filter != "" {
		text += " WHERE " + filter
	}
	cond, err := t.showCondition(st, likeColumn)
	if err != nil {
		return nil, err
	}
	if cond != "" {
		// The filter keeps the order of the rows it passes.
		text = "SELECT * FROM (" + text + " " + order + ") AS s WHERE " + cond
	} else {
		text += " " + order
	}
	stmt, err := sql.ParseOne(text)
	if err != nil {
		return nil, t.errorAt(st, "internal: SHOW translated into invalid SQL: %v", err)
	}
	return stmt, nil
}

// showCondition is SHOW … LIKE 'pattern' (on likeColumn, the first) or WHERE cond.
func (t *translator) showCondition(st *ast.ShowStmt, likeColumn string) (string, error) {
	switch {
	case st.Pattern != nil:
		p, err := t.expr(st.Pattern.Pattern)
		if err != nil {
			return "", err
		}
		if likeColumn == "" {
			return "", t.unsupported(st.Pattern, "LIKE on this SHOW statement")
		}
		return `"` + ident(likeColumn) + `" LIKE ` + sql.Format(p), nil
	case st.Where != nil:
		w, err := t.expr(st.Where)
		if err != nil {
			return "", err
		}
		return sql.Format(w), nil
	}
	return "", nil
}

// stringLit is s as a SQL string literal.
func stringLit(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// ident is s for the inside of a "quoted" identifier.
func ident(s string) string { return strings.ReplaceAll(s, `"`, `""`) }
