package mysqldialect

import (
	"cmp"
	"maps"
	"strconv"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	driver "github.com/pingcap/tidb/pkg/parser/test_driver"

	"github.com/lakesql/lakesql/sql"
)

// set translates SET. MySQL system variables (SET NAMES, SET autocommit = 1,
// SET SESSION sql_mode = …, SET @@session.x = …) are recorded in the
// connection's variables and leave nothing to run; any other name is a
// lakesql setting (SET statement_timeout = '5s', SET sql_dialect = 'lakesql').
func (t *translator) set(st *ast.SetStmt) (sql.Statement, error) {
	if len(st.Variables) == 1 {
		v := st.Variables[0]
		if _, known := t.env.Vars.Get(v.Name); v.IsSystem && !known {
			value, err := t.setValue(v)
			if err != nil {
				return nil, err
			}
			return &sql.Set{Name: strings.ToLower(v.Name), Value: value, Pos: t.pos(st)}, nil
		}
	}
	type assignment struct{ name, value string }
	var assignments []assignment
	users := map[string]*sql.Literal{}
	for _, v := range st.Variables {
		switch {
		case v.Name == ast.SetNames || v.Name == ast.SetCharset:
			cs, err := t.setValue(v)
			if err != nil {
				return nil, err
			}
			assignments = append(assignments, assignment{"character_set_client", cs},
				assignment{"character_set_connection", cs}, assignment{"character_set_results", cs})
			if coll, ok := v.ExtendValue.(*driver.ValueExpr); ok && coll != nil {
				assignments = append(assignments, assignment{"collation_connection", coll.GetString()})
			}
		case !v.IsSystem:
			lit, err := t.userValue(v)
			if err != nil {
				return nil, err
			}
			users[strings.ToLower(v.Name)] = lit
		case v.IsGlobal:
			return nil, t.unsupported(v, "SET GLOBAL")
		default:
			if _, known := t.env.Vars.Get(v.Name); !known {
				return nil, t.errorAt(v, "unknown system variable '%s' (lakesql settings are set one per SET)", v.Name)
			}
			value, err := t.setValue(v)
			if err != nil {
				return nil, err
			}
			assignments = append(assignments, assignment{v.Name, value})
		}
	}
	// MySQL variables that are lakesql settings become the engine's SET,
	// one per statement.
	var engine sql.Statement
	for _, a := range assignments {
		next := engineSetting(a.name, a.value, t.pos(st))
		if next != nil && engine != nil {
			return nil, t.unsupported(st, "setting both time_zone and max_execution_time in one SET")
		}
		engine = cmp.Or(next, engine)
	}
	// Assign only once every value is known: a failing SET changes nothing.
	for _, a := range assignments {
		t.env.Vars.Set(a.name, a.value)
	}
	maps.Copy(t.env.Vars.user, users)
	return engine, nil
}

// engineSetting is the lakesql SET that a MySQL variable stands for:
// time_zone is the session time zone (SYSTEM: lakesql's default, UTC) and
// max_execution_time (milliseconds, 0 for none) is statement_timeout.
func engineSetting(name, value string, pos sql.Pos) sql.Statement {
	switch strings.ToLower(name) {
	case "time_zone":
		if strings.EqualFold(value, "SYSTEM") {
			return &sql.Reset{Name: "timezone", Pos: pos}
		}
		return &sql.Set{Name: "timezone", Value: value, Pos: pos}
	case "max_execution_time":
		return &sql.Set{Name: "statement_timeout", Value: value, Pos: pos}
	}
	return nil
}

// setValue is the text of a SET value: a literal, a bare word (SET
// autocommit = ON), DEFAULT (the variable's default), another variable, or
// CONCAT of those (SET sql_mode = CONCAT(@@sql_mode, ',STRICT_TRANS_TABLES'),
// which MariaDB Connector/J sends).
func (t *translator) setValue(v *ast.VariableAssignment) (string, error) {
	if v.Value == nil {
		return defaultVariables[strings.ToLower(v.Name)], nil
	}
	return t.setExprValue(v, v.Value)
}

func (t *translator) setExprValue(v *ast.VariableAssignment, e ast.ExprNode) (string, error) {
	switch x := e.(type) {
	case *ast.DefaultExpr:
		return defaultVariables[strings.ToLower(v.Name)], nil
	case *ast.FuncCallExpr:
		if x.FnName.L != "concat" {
			break
		}
		var b strings.Builder
		for _, arg := range x.Args {
			s, err := t.setExprValue(v, arg)
			if err != nil {
				return "", err
			}
			b.WriteString(s)
		}
		return b.String(), nil
	case *ast.ColumnNameExpr:
		return x.Name.Name.O, nil
	case *ast.VariableExpr:
		if val, ok := t.env.Vars.Get(x.Name); ok && x.IsSystem {
			return val, nil
		}
	case *driver.ValueExpr:
		switch x.Kind() {
		case driver.KindNull:
			return "", nil
		case driver.KindInt64:
			return strconv.FormatInt(x.GetInt64(), 10), nil
		case driver.KindUint64:
			return strconv.FormatUint(x.GetUint64(), 10), nil
		case driver.KindString, driver.KindBytes:
			return x.GetString(), nil
		case driver.KindMysqlDecimal:
			return x.GetMysqlDecimal().String(), nil
		case driver.KindFloat32, driver.KindFloat64:
			return strconv.FormatFloat(x.GetFloat64(), 'g', -1, 64), nil
		}
	}
	return "", t.unsupported(v, "this SET value")
}

// userValue is the value SET @name = value gives a user variable: a
// constant (a number, string, NULL, TRUE/FALSE or a negative number), which
// @name then stands for in later statements of the connection.
func (t *translator) userValue(v *ast.VariableAssignment) (*sql.Literal, error) {
	x, err := t.expr(v.Value)
	if err != nil {
		return nil, err
	}
	if neg, ok := x.(*sql.UnaryExpr); ok && neg.Op == "-" {
		if lit, ok := neg.X.(*sql.Literal); ok && (lit.Kind == sql.LitInteger || lit.Kind == sql.LitDecimal || lit.Kind == sql.LitFloat) {
			out := *lit
			out.Value = "-" + lit.Value
			return &out, nil
		}
	}
	lit, ok := x.(*sql.Literal)
	if !ok {
		return nil, t.unsupported(v.Value, "a user variable set to anything but a constant")
	}
	return lit, nil
}
