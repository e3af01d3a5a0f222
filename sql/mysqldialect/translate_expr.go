package mysqldialect

import (
	"strconv"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/opcode"
	driver "github.com/pingcap/tidb/pkg/parser/test_driver"

	"github.com/lakesql/lakesql/sql"
)

func (t *translator) optExpr(n ast.ExprNode) (sql.Expr, error) {
	if n == nil {
		return nil, nil
	}
	return t.expr(n)
}

func (t *translator) exprs(ns []ast.ExprNode) ([]sql.Expr, error) {
	out := make([]sql.Expr, len(ns))
	for i, n := range ns {
		e, err := t.expr(n)
		if err != nil {
			return nil, err
		}
		out[i] = e
	}
	return out, nil
}

// binaryOps are MySQL's binary operators that lakesql writes the same way.
var binaryOps = map[opcode.Op]string{
	opcode.LogicAnd: "AND", opcode.LogicOr: "OR",
	opcode.EQ: "=", opcode.NE: "<>", opcode.LT: "<", opcode.LE: "<=", opcode.GT: ">", opcode.GE: ">=",
	opcode.Plus: "+", opcode.Minus: "-", opcode.Mul: "*", opcode.Div: "/", opcode.Mod: "%",
}

func (t *translator) expr(n ast.ExprNode) (sql.Expr, error) {
	pos := t.pos(n)
	switch x := n.(type) {
	case *ast.ParenthesesExpr:
		return t.expr(x.Expr)
	case *ast.RowExpr: // (a, b) and ROW(a, b)
		items, err := t.exprs(x.Values)
		return &sql.RowExpr{Items: items, Pos: pos}, err
	case *driver.ParamMarkerExpr:
		return t.param(x)
	case *driver.ValueExpr:
		return t.literal(x)
	case *ast.PositionExpr: // ORDER BY 1
		if x.P != nil {
			return nil, t.unsupported(x, "a ? marker as an ORDER BY position")
		}
		return &sql.Literal{Kind: sql.LitInteger, Value: strconv.Itoa(x.N), Pos: pos}, nil
	case *ast.ColumnNameExpr:
		var parts []string
		for _, p := range []string{x.Name.Schema.O, x.Name.Table.O} {
			if p != "" {
				parts = append(parts, p)
			}
		}
		return &sql.ColumnRef{Parts: append(parts, x.Name.Name.O), Pos: pos}, nil
	case *ast.BinaryOperationExpr:
		return t.binary(x)
	case *ast.UnaryOperationExpr:
		v, err := t.expr(x.V)
		if err != nil {
			return nil, err
		}
		switch x.Op {
		case opcode.Minus:
			return &sql.UnaryExpr{Op: "-", X: v, Pos: pos}, nil
		case opcode.Plus:
			return v, nil
		case opcode.Not, opcode.Not2:
			return &sql.UnaryExpr{Op: "NOT", X: v, Pos: pos}, nil
		}
		return nil, t.unsupported(x, "operator "+opLiteral(x.Op))
	case *ast.IsNullExpr:
		v, err := t.expr(x.Expr)
		return &sql.IsNullExpr{X: v, Not: x.Not, Pos: pos}, err
	case *ast.IsTruthExpr:
		v, err := t.expr(x.Expr)
		return &sql.IsBoolExpr{X: v, Value: x.True != 0, Not: x.Not, Pos: pos}, err
	case *ast.BetweenExpr:
		return t.between(x)
	case *ast.PatternInExpr:
		return t.in(x)
	case *ast.PatternLikeOrIlikeExpr:
		return t.like(x)
	case *ast.PatternRegexpExpr:
		s, err := t.expr(x.Expr)
		if err != nil {
			return nil, err
		}
		p, err := t.expr(x.Pattern)
		if err != nil {
			return nil, err
		}
		var out sql.Expr = &sql.FuncCall{Name: "regexp_like", Args: []sql.Expr{s, p}, Pos: pos}
		if x.Not {
			out = &sql.UnaryExpr{Op: "NOT", X: out, Pos: pos}
		}
		return out, nil
	case *ast.CaseExpr:
		return t.caseExpr(x)
	case *ast.SubqueryExpr:
		q, err := t.query(x.Query)
		return &sql.SubqueryExpr{Query: q, Pos: pos}, err
	case *ast.ExistsSubqueryExpr:
		sub, ok := x.Sel.(*ast.SubqueryExpr)
		if !ok {
			return nil, t.unsupported(x, "EXISTS without a subquery")
		}
		q, err := t.query(sub.Query)
		return &sql.ExistsExpr{Query: q, Not: x.Not, Pos: pos}, err
	case *ast.CompareSubqueryExpr:
		return t.compareSubquery(x)
	case *ast.FuncCastExpr:
		return t.cast(x)
	case *ast.FuncCallExpr:
		return t.funcCall(x)
	case *ast.AggregateFuncExpr:
		return t.aggregate(x)
	case *ast.WindowFuncExpr:
		return t.window(x)
	case *ast.VariableExpr:
		return t.variable(x)
	case *ast.DefaultExpr:
		return nil, t.unsupported(x, "DEFAULT")
	}
	return nil, t.unsupported(n, "this expression")
}

func (t *translator) binary(x *ast.BinaryOperationExpr) (sql.Expr, error) {
	l, err := t.expr(x.L)
	if err != nil {
		return nil, err
	}
	r, err := t.expr(x.R)
	if err != nil {
		return nil, err
	}
	pos := t.pos(x)
	if op, ok := binaryOps[x.Op]; ok {
		return &sql.BinaryExpr{Op: op, L: l, R: r, Pos: pos}, nil
	}
	switch x.Op {
	case opcode.NullEQ: // a <=> b
		return &sql.IsDistinctExpr{L: l, R: r, Not: true, Pos: pos}, nil
	case opcode.LogicXor:
		// a XOR b is NULL when either is, else true when exactly one is
		// true: the booleans compared with <>. A number literal is true
		// when it is not 0, as in MySQL.
		return &sql.BinaryExpr{Op: "<>", L: truth(l), R: truth(r), Pos: pos}, nil
	case opcode.IntDiv:
		// a DIV b truncates toward zero: (a - a % b) / b divides exactly
		// (% keeps the dividend's sign), so the cast has nothing to round.
		whole := &sql.BinaryExpr{Op: "-", L: l, R: &sql.BinaryExpr{Op: "%", L: l, R: r, Pos: pos}, Pos: pos}
		div := &sql.BinaryExpr{Op: "/", L: whole, R: r, Pos: pos}
		return &sql.CastExpr{X: div, To: sql.TypeName{Name: "BIGINT", Pos: pos}, Pos: pos}, nil
	}
	return nil, t.unsupported(x, "operator "+opLiteral(x.Op))
}

// truth is the boolean of a MySQL operand of a logical operator.
func truth(e sql.Expr) sql.Expr {
	if lit, ok := e.(*sql.Literal); ok && (lit.Kind == sql.LitInteger || lit.Kind == sql.LitDecimal) {
		v, err := strconv.ParseFloat(lit.Value, 64)
		if err == nil {
			return &sql.Literal{Kind: sql.LitBool, Value: strconv.FormatBool(v != 0), Pos: lit.Pos}
		}
	}
	return &sql.CastExpr{X: e, To: sql.TypeName{Name: "BOOLEAN", Pos: e.Position()}, Pos: e.Position()}
}

func (t *translator) between(x *ast.BetweenExpr) (sql.Expr, error) {
	v, err := t.expr(x.Expr)
	if err != nil {
		return nil, err
	}
	lo, err := t.expr(x.Left)
	if err != nil {
		return nil, err
	}
	hi, err := t.expr(x.Right)
	if err != nil {
		return nil, err
	}
	return &sql.BetweenExpr{X: v, Lo: lo, Hi: hi, Not: x.Not, Pos: t.pos(x)}, nil
}

func (t *translator) in(x *ast.PatternInExpr) (sql.Expr, error) {
	v, err := t.expr(x.Expr)
	if err != nil {
		return nil, err
	}
	if x.Sel != nil {
		sub, ok := x.Sel.(*ast.SubqueryExpr)
		if !ok {
			return nil, t.unsupported(x, "IN without a subquery or list")
		}
		q, err := t.query(sub.Query)
		return &sql.InSubqueryExpr{X: v, Query: q, Not: x.Not, Pos: t.pos(x)}, err
	}
	list, err := t.exprs(x.List)
	return &sql.InListExpr{X: v, List: list, Not: x.Not, Pos: t.pos(x)}, err
}

func (t *translator) like(x *ast.PatternLikeOrIlikeExpr) (sql.Expr, error) {
	v, err := t.expr(x.Expr)
	if err != nil {
		return nil, err
	}
	p, err := t.expr(x.Pattern)
	if err != nil {
		return nil, err
	}
	out := &sql.LikeExpr{X: v, Pattern: p, Not: x.Not, CaseInsensitive: !x.IsLike, Pos: t.pos(x)}
	if x.Escape != '\\' {
		out.Escape = &sql.Literal{Kind: sql.LitString, Value: string(x.Escape), Pos: t.pos(x)}
	}
	return out, nil
}

func (t *translator) caseExpr(x *ast.CaseExpr) (sql.Expr, error) {
	out := &sql.CaseExpr{Pos: t.pos(x)}
	var err error
	if out.Operand, err = t.optExpr(x.Value); err != nil {
		return nil, err
	}
	for _, w := range x.WhenClauses {
		cond, err := t.expr(w.Expr)
		if err != nil {
			return nil, err
		}
		res, err := t.expr(w.Result)
		if err != nil {
			return nil, err
		}
		out.Whens = append(out.Whens, sql.When{Cond: cond, Result: res})
	}
	out.Else, err = t.optExpr(x.ElseClause)
	return out, err
}

// opLiteral is op as MySQL writes it (<=>), where String gives TiDB's
// name for it (nulleq).
func opLiteral(op opcode.Op) string {
	var b strings.Builder
	op.Format(&b)
	return b.String()
}

// compareSubquery is x op (SELECT …) and x op ANY|SOME|ALL (SELECT …).
func (t *translator) compareSubquery(x *ast.CompareSubqueryExpr) (sql.Expr, error) {
	l, err := t.expr(x.L)
	if err != nil {
		return nil, err
	}
	sub, ok := x.R.(*ast.SubqueryExpr)
	if !ok {
		return nil, t.unsupported(x, "this comparison")
	}
	q, err := t.query(sub.Query)
	if err != nil {
		return nil, err
	}
	op, ok := binaryOps[x.Op]
	if !ok {
		return nil, t.unsupported(x, "operator "+opLiteral(x.Op))
	}
	pos := t.pos(x)
	if !sub.MultiRows {
		return &sql.BinaryExpr{Op: op, L: l, R: &sql.SubqueryExpr{Query: q, Pos: t.pos(sub)}, Pos: pos}, nil
	}
	return &sql.QuantifiedExpr{X: l, Op: op, All: x.All, Query: q, Pos: pos}, nil
}

// variable is @@name (a system variable, read when the statement is
// translated) or @name (a user variable, which lakesql has not).
func (t *translator) variable(x *ast.VariableExpr) (sql.Expr, error) {
	if x.Value != nil {
		return nil, t.unsupported(x, "assigning a variable in an expression")
	}
	if !x.IsSystem {
		return t.env.Vars.User(x.Name, t.pos(x)), nil
	}
	v, ok := t.env.Vars.Get(x.Name)
	if !ok {
		return nil, t.errorAt(x, "unknown system variable '%s'", x.Name)
	}
	pos := t.pos(x)
	if isInteger(v) {
		return &sql.Literal{Kind: sql.LitInteger, Value: v, Pos: pos}, nil
	}
	return &sql.Literal{Kind: sql.LitString, Value: v, Pos: pos}, nil
}

func (t *translator) literal(x *driver.ValueExpr) (sql.Expr, error) {
	pos := t.pos(x)
	switch x.Kind() {
	case driver.KindNull:
		return &sql.Literal{Kind: sql.LitNull, Pos: pos}, nil
	case driver.KindInt64:
		return &sql.Literal{Kind: sql.LitInteger, Value: strconv.FormatInt(x.GetInt64(), 10), Pos: pos}, nil
	case driver.KindUint64:
		return &sql.Literal{Kind: sql.LitInteger, Value: strconv.FormatUint(x.GetUint64(), 10), Pos: pos}, nil
	case driver.KindFloat32, driver.KindFloat64:
		return &sql.Literal{Kind: sql.LitFloat, Value: strconv.FormatFloat(x.GetFloat64(), 'e', -1, 64), Pos: pos}, nil
	case driver.KindMysqlDecimal:
		return &sql.Literal{Kind: sql.LitDecimal, Value: x.GetMysqlDecimal().String(), Pos: pos}, nil
	case driver.KindString, driver.KindBytes:
		return &sql.Literal{Kind: sql.LitString, Value: x.GetString(), Pos: pos}, nil
	}
	return nil, t.unsupported(x, "this literal")
}

// param is a ? marker, replaced by its argument.
func (t *translator) param(x *driver.ParamMarkerExpr) (sql.Expr, error) {
	i := t.params[x.Offset]
	if i >= len(t.env.Args) {
		return nil, t.errorAt(x, "parameter %d has no value (%d given)", i+1, len(t.env.Args))
	}
	return argLiteral(t.env.Args[i], t.pos(x))
}
