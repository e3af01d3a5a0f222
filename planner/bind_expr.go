package planner

import (
	"errors"
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/lakesql/lakesql/sql"
	"github.com/lakesql/lakesql/value"
)

// scope is the set of columns an expression can name: the input plan's schema.
type scope struct {
	cols []Column
	// aggs collects the aggregate calls of a SELECT block (bind_aggregate.go);
	// nil where aggregates are not allowed.
	aggs *aggregator
	// windows collects the window calls of a SELECT block (bind_window.go);
	// nil where window functions are not allowed.
	windows *windower
	// aliases holds the select items by lower-case name where a bare name
	// no input column has may name one (QUALIFY, bind_qualify.go).
	aliases map[string]Expr
	// items is the select list of the block, where grouping(alias) may
	// name a GROUP BY alias (bind_grouping_sets.go).
	items []sql.SelectItem
	// windowAggregate marks the scope of an aggregate's arguments over a
	// window, where the block's own aggregates may appear (aggregateArgs).
	windowAggregate bool
	// aliasesOverUngrouped: an alias wins over an input column of its name
	// that is no GROUP BY key, which could not be read there (HAVING, as in
	// DuckDB: SELECT g, sum(x) AS x … GROUP BY g HAVING x > 2).
	aliasesOverUngrouped bool
	// lambda, in the scope of a lambda's body, resolves in the enclosing
	// scope the names that are not the lambda's parameters (bind_lambda.go).
	lambda *lambdaScope
	// selectList is the select list whose AS aliases a bare name no input
	// column has may use in WHERE, for the item's expression bound again
	// there (bind_where_alias.go).
	selectList []sql.SelectItem
}

// resolve finds the column a (possibly qualified) reference names. A
// visible column hides the hidden ones of its name: after JOIN … USING (x),
// x is the merged column, not either input's copy, and a table's own
// column named like a metadata column is that column.
func (s *scope) resolve(ref *sql.ColumnRef) (int, error) {
	name := ref.Parts[len(ref.Parts)-1]
	var qualifier string
	if len(ref.Parts) > 1 {
		qualifier = ref.Parts[len(ref.Parts)-2]
	}
	found, ambiguous := -1, false
	for i, c := range s.cols {
		if !strings.EqualFold(c.Name, name) || qualifier != "" && !strings.EqualFold(c.Table, qualifier) {
			continue
		}
		switch {
		case found < 0 || s.cols[found].Hidden && !c.Hidden:
			found, ambiguous = i, false
		case s.cols[found].Hidden == c.Hidden:
			ambiguous = true
		}
	}
	if ambiguous {
		return 0, kindErrorf(ErrAmbiguousColumn, ref.Pos, "column reference %q is ambiguous (qualify it with a table name)", strings.Join(ref.Parts, "."))
	}
	if found < 0 {
		return 0, kindErrorf(ErrUnknownColumn, ref.Pos, "column %q does not exist%s", strings.Join(ref.Parts, "."), s.hint(name))
	}
	if err := UnreadableColumn(s.cols[found].Name, s.cols[found].T); err != nil {
		return 0, errorf(ref.Pos, "%v", err)
	}
	return found, nil
}

// hint suggests the nearest column name for an unknown one.
func (s *scope) hint(name string) string {
	var names []string
	for _, c := range s.cols {
		if !c.Hidden {
			names = append(names, c.Name)
		}
	}
	if best := sql.Closest(name, names); best != "" {
		return fmt.Sprintf(" (did you mean %q?)", best)
	}
	if len(names) > 0 && len(names) <= 12 {
		return " (columns: " + strings.Join(names, ", ") + ")"
	}
	return ""
}

// bindExpr binds a scalar expression over the scope's columns. The
// session zone is applied once, to the whole expression, when the outermost
// bindExpr returns: applying it at every level would walk each subtree once
// per ancestor, which is quadratic in the expression's depth.
func (b *binder) bindExpr(e sql.Expr, s *scope) (Expr, error) {
	b.exprDepth++
	x, err := b.bindExprZoneless(e, s)
	b.exprDepth--
	if err != nil || b.exprDepth > 0 {
		return x, err
	}
	return b.localize(x)
}

func (b *binder) bindExprZoneless(e sql.Expr, s *scope) (Expr, error) {
	switch e := e.(type) {
	case *sql.ColumnRef:
		i, err := s.resolve(e)
		if err != nil {
			if x, ok, aerr := s.alias(e); ok {
				return x, aerr
			}
			if x, ok, aerr := b.whereAlias(e, s); ok {
				return x, aerr
			}
			if x, ok, ferr := s.fieldPath(e); ok {
				return x, ferr
			}
			if s.lambda != nil {
				return b.enclosingValue(e, s)
			}
			return b.outerReference(e, err)
		}
		col := &ColumnRef{Index: i, Name: s.cols[i].Name, T: s.cols[i].T}
		if s.aliasesOverUngrouped && s.aggs != nil && s.aggs.forbidden == "" {
			if _, grouped := s.aggs.groupKeys[exprKey(col)]; !grouped {
				if x, ok, aerr := s.alias(e); ok {
					return x, aerr
				}
			}
		}
		return col, nil
	case *sql.Literal:
		if e.Kind == sql.LitTimestampTZ && b.loc != nil {
			v, err := value.ParseTimestampTZIn(e.Value, b.loc)
			if err != nil {
				return nil, errorf(e.Pos, "%v", err)
			}
			return &Literal{Value: v, T: TypeTimestampTZ}, nil
		}
		return bindLiteral(e)
	case *sql.UnaryExpr:
		return b.bindUnary(e, s)
	case *sql.BinaryExpr:
		return b.bindBinary(e, s)
	case *sql.IsNullExpr:
		x, err := b.bindExpr(e.X, s)
		if err != nil {
			return nil, err
		}
		fn := FnIsNull
		if e.Not {
			fn = FnIsNotNull
		}
		return &Call{Fn: fn, Args: []Expr{x}, T: TypeBoolean}, nil
	case *sql.IsBoolExpr:
		return b.bindIsBool(e, s)
	case *sql.IsDistinctExpr:
		fn := FnIsDistinct
		if e.Not {
			fn = FnIsNotDistinct
		}
		return b.bindComparison(fn, e.L, e.R, e.Pos, s)
	case *sql.BetweenExpr:
		return b.bindBetween(e, s)
	case *sql.InListExpr:
		return b.bindInList(e, s)
	case *sql.RowExpr:
		return b.bindExpr(&sql.FuncCall{Name: "struct", Args: e.Items, Pos: e.Pos}, s)
	case *sql.LikeExpr:
		return b.bindLike(e, s)
	case *sql.CaseExpr:
		return b.bindCase(e, s)
	case *sql.CastExpr:
		return b.bindCast(e, s)
	case *sql.FuncCall:
		if err := aggregateClausesPlaced(e); err != nil {
			return nil, err
		}
		if e.Over != nil {
			return b.bindWindow(e, s)
		}
		if e.IgnoreNulls {
			return nil, errorf(e.Pos, "IGNORE NULLS is only allowed with a window function (OVER …)")
		}
		if e.Over == nil && (e.Name == "grouping" || e.Name == "grouping_id") {
			return b.bindGrouping(e, s)
		}
		if IsAggregate(e) {
			return b.bindAggregate(e, s)
		}
		return b.bindFunc(e, s)
	case *sql.Interval:
		return b.bindInterval(e, s)
	case *sql.Star:
		return nil, errorf(e.Pos, "* is only allowed in a select list or count(*)")
	case *sql.SubqueryExpr:
		return b.bindScalarSubquery(e, s)
	case *sql.InSubqueryExpr:
		return b.bindInSubquery(e, s)
	case *sql.QuantifiedExpr:
		return b.bindQuantified(e, s)
	case *sql.ExistsExpr:
		return b.bindExists(e, s)
	case *sql.SubscriptExpr:
		return b.bindSubscript(e, s)
	case *sql.SliceExpr:
		return b.bindSlice(e, s)
	case *sql.FieldExpr:
		return b.bindField(e, s)
	}
	return nil, kindErrorf(ErrUnsupported, e.Position(), "%s is not supported yet", describeNode(e))
}

// describeNode names an expression kind for "not supported" errors.
func describeNode(e sql.Expr) string {
	switch e.(type) {
	case *sql.NamedArg:
		return "a named argument (name => value)"
	case *sql.LambdaExpr:
		return "a lambda (x -> …) outside list_transform, list_filter and their aliases"
	}
	return fmt.Sprintf("expression %T", e)
}

func bindLiteral(l *sql.Literal) (Expr, error) {
	var (
		lit *Literal
		err error
	)
	switch l.Kind {
	case sql.LitNull:
		lit = &Literal{T: TypeNull}
	case sql.LitBool:
		lit = &Literal{Value: l.Value == "true", T: TypeBoolean}
	case sql.LitInteger:
		lit, err = integerLiteral(l.Value)
	case sql.LitDecimal:
		lit, err = decimalLiteral(l.Value)
	case sql.LitFloat:
		var v any
		v, err = parseLiteral(l.Value, TypeDouble)
		lit = &Literal{Value: v, T: TypeDouble}
	case sql.LitString:
		lit = &Literal{Value: l.Value, T: TypeVarchar}
	case sql.LitDate:
		lit, err = typedLiteral(l.Value, TypeDate)
	case sql.LitTimestamp:
		lit, err = typedLiteral(l.Value, TypeTimestamp)
	case sql.LitTimestampTZ:
		lit, err = typedLiteral(l.Value, TypeTimestampTZ)
	case sql.LitTime:
		lit, err = typedLiteral(l.Value, TypeTime)
	default:
		err = fmt.Errorf("unknown literal kind %d", l.Kind)
	}
	if err != nil {
		return nil, errorf(l.Pos, "%v", err)
	}
	return lit, nil
}

func typedLiteral(text string, t arrow.DataType) (*Literal, error) {
	v, err := parseLiteral(text, t)
	if err != nil {
		return nil, err
	}
	return &Literal{Value: v, T: t}, nil
}

func (b *binder) bindUnary(e *sql.UnaryExpr, s *scope) (Expr, error) {
	x, err := b.bindExpr(e.X, s)
	if err != nil {
		return nil, err
	}
	switch e.Op {
	case "NOT":
		if x, err = requireBoolean(x, e.Pos, "NOT"); err != nil {
			return nil, err
		}
		return &Call{Fn: FnNot, Args: []Expr{x}, T: TypeBoolean}, nil
	case "+", "-":
		return bindUnarySign(e.Op, x, e.Pos)
	case "~":
		return bindBitwiseNot(x, e.Pos)
	}
	return nil, errorf(e.Pos, "unknown operator %s", e.Op)
}

// bindUnarySign binds +x and -x (and Spark's positive(x) and negative(x)).
func bindUnarySign(op string, x Expr, pos sql.Pos) (Expr, error) {
	switch {
	case op == "-" && isInterval(x.Type()):
		return negatedInterval(x), nil
	case !IsNumeric(x.Type()) && op == "-":
		return nil, kindErrorf(ErrType, pos, "unary - needs a number or an INTERVAL, got %s", TypeString(x.Type()))
	case !IsNumeric(x.Type()):
		return nil, kindErrorf(ErrType, pos, "unary + needs a number, got %s", TypeString(x.Type()))
	case op == "-":
		return foldNegation(x), nil
	}
	return x, nil
}

// negatedInterval is -x for an INTERVAL, a constant when x is one (a
// generate_series step must be), field by field.
func negatedInterval(x Expr) Expr {
	if lit, ok := x.(*Literal); ok {
		if iv, ok := lit.Value.(arrow.MonthDayNanoInterval); ok {
			if neg, err := negateInterval(iv); err == nil {
				return &Literal{Value: neg, T: lit.T}
			}
		}
	}
	return &Call{Fn: FnMulInterval, Args: []Expr{x, &Literal{Value: int64(-1), T: TypeBigint}}, T: TypeInterval}
}

// foldNegation turns -<literal> into a negative literal, so -5 is a constant.
func foldNegation(x Expr) Expr {
	if lit, ok := x.(*Literal); ok && lit.Value != nil {
		switch v := lit.Value.(type) {
		case int32:
			if v != -v || v == 0 {
				return &Literal{Value: -v, T: lit.T}
			}
		case int64:
			if v != -v || v == 0 {
				return &Literal{Value: -v, T: lit.T}
			}
		case float64:
			return &Literal{Value: -v, T: lit.T}
		case decimal128.Num:
			return &Literal{Value: v.Negate(), T: lit.T}
		}
	}
	return &Call{Fn: FnNeg, Args: []Expr{x}, T: x.Type()}
}

func requireBoolean(x Expr, pos sql.Pos, what string) (Expr, error) {
	switch x.Type().ID() {
	case arrow.BOOL:
		return x, nil
	case arrow.NULL:
		return castTo(x, TypeBoolean)
	}
	return nil, kindErrorf(ErrType, pos, "%s needs a BOOLEAN, got %s", what, TypeString(x.Type()))
}

var comparisonFns = map[string]string{"=": FnEq, "<>": FnNe, "<": FnLt, "<=": FnLe, ">": FnGt, ">=": FnGe}
var arithmeticFns = map[string]string{"+": FnAdd, "-": FnSub, "*": FnMul, "/": FnDiv, "//": FnIntDiv, "%": FnMod}

func (b *binder) bindBinary(e *sql.BinaryExpr, s *scope) (Expr, error) {
	if fn, ok := comparisonFns[e.Op]; ok {
		return b.bindComparison(fn, e.L, e.R, e.Pos, s)
	}
	l, err := b.bindExpr(e.L, s)
	if err != nil {
		return nil, err
	}
	r, err := b.bindExpr(e.R, s)
	if err != nil {
		return nil, err
	}
	switch e.Op {
	case "AND", "OR":
		if l, err = requireBoolean(l, e.Pos, e.Op); err != nil {
			return nil, err
		}
		if r, err = requireBoolean(r, e.Pos, e.Op); err != nil {
			return nil, err
		}
		return &Call{Fn: strings.ToLower(e.Op), Args: []Expr{l, r}, T: TypeBoolean}, nil
	case "||":
		return b.bindConcat(l, r, e.Pos)
	case "->>":
		return b.bindJSONArrow(l, r, e.Pos)
	case "DIV":
		return b.bindIntegralDivision(l, r, e.Pos)
	}
	if x, handled, err := bindTemporalArithmetic(e.Op, l, r, e.Pos); handled {
		if err != nil {
			return nil, err
		}
		return dateStays(e, l, r, x)
	}
	if fn, ok := arithmeticFns[e.Op]; ok {
		return bindArithmetic(fn, l, r, e.Pos)
	}
	if fn, ok := bitwiseOps[e.Op]; ok {
		return bindBitwise(fn, l, r, e.Pos)
	}
	return nil, errorf(e.Pos, "unknown operator %s", e.Op)
}

// bindIntegralDivision binds Spark's and MySQL's a DIV b: the integral
// part of a / b, a BIGINT (7.5 DIV 2 is 3); NULL when b is 0, as // is.
func (b *binder) bindIntegralDivision(l, r Expr, pos sql.Pos) (Expr, error) {
	q, err := bindArithmetic(FnIntDiv, l, r, pos)
	if err != nil {
		return nil, err
	}
	if !IsInteger(q.Type()) {
		if q, err = bindRound(FnTrunc)(b, &funcCall{name: "DIV", pos: pos, args: []Expr{q}}); err != nil {
			return nil, err
		}
	}
	return castTo(q, TypeBigint)
}

func (b *binder) bindConcat(l, r Expr, pos sql.Pos) (Expr, error) {
	if isList(l.Type()) || isList(r.Type()) {
		mismatch := func() error {
			return kindErrorf(ErrType, pos, "operator || joins two strings or two arrays, got %s and %s", TypeString(l.Type()), TypeString(r.Type()))
		}
		for _, x := range []Expr{l, r} {
			if !isList(x.Type()) && x.Type().ID() != arrow.NULL {
				return nil, mismatch()
			}
		}
		return listConcat(FnListConcatStrict, pos, mismatch, l, r)
	}
	var err error
	if l, err = castTo(l, TypeVarchar); err != nil {
		return nil, err
	}
	if r, err = castTo(r, TypeVarchar); err != nil {
		return nil, err
	}
	return &Call{Fn: FnConcat, Args: []Expr{l, r}, T: TypeVarchar}, nil
}

// bindArithmetic types + - * / // %. Integer division yields DOUBLE (as in Spark
// and DuckDB's / operator); decimal division also yields DOUBLE, with / and //.
func bindArithmetic(fn string, l, r Expr, pos sql.Pos) (Expr, error) {
	lt, rt := l.Type(), r.Type()
	if lt.ID() == arrow.NULL {
		lt = rt
	}
	if rt.ID() == arrow.NULL {
		rt = lt
	}
	// A string literal next to a number is read as that number type ('2' + 1).
	if _, ok := l.(*Literal); ok && isString(lt) && IsNumeric(rt) {
		lt = rt
	}
	if _, ok := r.(*Literal); ok && isString(rt) && IsNumeric(lt) {
		rt = lt
	}
	if !IsNumeric(lt) || !IsNumeric(rt) {
		return nil, kindErrorf(ErrType, pos, "operator %s needs numbers, got %s and %s", infixOps[fn], TypeString(l.Type()), TypeString(r.Type()))
	}
	t := commonNumeric(lt, rt)
	if fn == FnDiv && numericRank(t) <= 5 || fn == FnIntDiv && t.ID() == arrow.DECIMAL128 {
		t = TypeDouble
	}
	resultType := t
	if t.ID() == arrow.DECIMAL128 {
		res := decimalResultType(fn, asDecimal(lt), asDecimal(rt))
		resultType, t = res, res
		if fn == FnMul || fn == FnMod || !holdsExactly(res, asDecimal(lt)) || !holdsExactly(res, asDecimal(rt)) {
			// Operands keep their own types where the result's would not
			// hold them exactly: the executor multiplies unscaled values,
			// takes a remainder (whose precision is below its operands')
			// at the larger scale, and adds at the result's scale values
			// with more integer digits than it has room for.
			t = nil
		}
	}
	args, types := []Expr{l, r}, []arrow.DataType{lt, rt}
	for i, a := range args {
		target := t
		if target == nil {
			// types[i] is the other operand's for NULL and a string
			// literal ('2' * x reads '2' as x's type).
			target = asDecimal(types[i])
		}
		c, err := castTo(a, target)
		if err != nil {
			return nil, errorf(pos, "%v", err)
		}
		args[i] = c
	}
	return &Call{Fn: fn, Args: args, T: resultType}, nil
}

// holdsExactly reports whether every value of decimal type b is a value of a.
func holdsExactly(a, b *arrow.Decimal128Type) bool {
	return a.Scale >= b.Scale && a.Precision-a.Scale >= b.Precision-b.Scale
}

// decimalResultType follows the SQL Server / Spark rules for decimal results,
// capped at precision 38 with the scale kept, as DuckDB keeps it (Spark
// would cut DECIMAL(38,18) + 1 to DECIMAL(38,17)): a value that needs more
// integer digits than are left fails instead.
func decimalResultType(fn string, a, b *arrow.Decimal128Type) *arrow.Decimal128Type {
	var p, s int32
	switch fn {
	case FnAdd, FnSub:
		s = max(a.Scale, b.Scale)
		p = max(a.Precision-a.Scale, b.Precision-b.Scale) + s + 1
	case FnMul:
		s = a.Scale + b.Scale
		p = a.Precision + b.Precision + 1
	default: // mod
		s = max(a.Scale, b.Scale)
		p = min(a.Precision-a.Scale, b.Precision-b.Scale) + s
	}
	return &arrow.Decimal128Type{Precision: min(p, 38), Scale: min(s, 38)}
}

// bindComparison brings both sides to a common type. A string literal compared
// with a typed column is converted to the column's type (ts >= '2026-01-15').
func (b *binder) bindComparison(fn string, le, re sql.Expr, pos sql.Pos, s *scope) (Expr, error) {
	if _, isRow := rowItems(le); isRow {
		return b.bindRowComparison(fn, le, re, pos, s)
	}
	if _, isRow := rowItems(re); isRow {
		return b.bindRowComparison(fn, le, re, pos, s)
	}
	l, err := b.bindExpr(le, s)
	if err != nil {
		return nil, err
	}
	r, err := b.bindExpr(re, s)
	if err != nil {
		return nil, err
	}
	args, err := unify(pos, l, r)
	if err != nil {
		return nil, err
	}
	if isInterval(args[0].Type()) {
		args = intervalKeys(args)
	}
	return &Call{Fn: fn, Args: args, T: TypeBoolean}, nil
}

// unify casts the operands of a comparison to one common type.
func unify(pos sql.Pos, exprs ...Expr) ([]Expr, error) {
	return unifyTypes(pos, "cannot compare %s with %s", commonType, castTo, exprs)
}

// unifyTypes casts exprs (with cast) to the type common makes of theirs. String
// literals take the type of the other expressions (ts >= '2026-01-15'), as
// untyped literals do in SQL.
func unifyTypes(pos sql.Pos, mismatch string, common func(a, b arrow.DataType) arrow.DataType, cast func(Expr, arrow.DataType) (Expr, error), exprs []Expr) ([]Expr, error) {
	var t arrow.DataType = TypeNull
	for _, e := range exprs {
		if _, isLit := e.(*Literal); isLit && isString(e.Type()) {
			continue // string literals take the other operands' type
		}
		next := common(t, e.Type())
		if next == nil {
			return nil, errorf(pos, mismatch, TypeString(t), TypeString(e.Type()))
		}
		t = next
	}
	if t.ID() == arrow.NULL {
		t = TypeVarchar
		for _, e := range exprs {
			if e.Type().ID() != arrow.NULL {
				t = e.Type()
			}
		}
	}
	out := make([]Expr, len(exprs))
	for i, e := range exprs {
		c, err := cast(e, t)
		if err != nil {
			return nil, errorf(pos, "%v", err)
		}
		out[i] = c
	}
	return out, nil
}

func (b *binder) bindIsBool(e *sql.IsBoolExpr, s *scope) (Expr, error) {
	x, err := b.bindExpr(e.X, s)
	if err != nil {
		return nil, err
	}
	if x, err = requireBoolean(x, e.Pos, "IS TRUE/FALSE"); err != nil {
		return nil, err
	}
	fn := FnIsTrue
	if !e.Value {
		fn = FnIsFalse
	}
	var out Expr = &Call{Fn: fn, Args: []Expr{x}, T: TypeBoolean}
	if e.Not {
		out = &Call{Fn: FnNot, Args: []Expr{out}, T: TypeBoolean}
	}
	return out, nil
}

// bindBetween binds x BETWEEN lo AND hi as x >= lo AND x <= hi.
func (b *binder) bindBetween(e *sql.BetweenExpr, s *scope) (Expr, error) {
	x, err := b.bindExpr(e.X, s)
	if err != nil {
		return nil, err
	}
	lo, err := b.bindExpr(e.Lo, s)
	if err != nil {
		return nil, err
	}
	hi, err := b.bindExpr(e.Hi, s)
	if err != nil {
		return nil, err
	}
	args, err := unify(e.Pos, x, lo, hi)
	if err != nil {
		return nil, err
	}
	var out Expr = &Call{Fn: FnAnd, T: TypeBoolean, Args: []Expr{
		&Call{Fn: FnGe, Args: []Expr{args[0], args[1]}, T: TypeBoolean},
		&Call{Fn: FnLe, Args: []Expr{args[0], args[2]}, T: TypeBoolean},
	}}
	if e.Not {
		out = &Call{Fn: FnNot, Args: []Expr{out}, T: TypeBoolean}
	}
	return out, nil
}

// InList is x IN (items), all brought to one type; FALSE for no items, as
// x IN (an empty subquery) is, whatever x.
func InList(pos sql.Pos, x Expr, items []Expr) (Expr, error) {
	if len(items) == 0 {
		return &Literal{Value: false, T: TypeBoolean}, nil
	}
	args, err := unify(pos, append([]Expr{x}, items...)...)
	if err != nil {
		return nil, err
	}
	return &Call{Fn: FnIn, Args: args, T: TypeBoolean}, nil
}

func (b *binder) bindInList(e *sql.InListExpr, s *scope) (Expr, error) {
	if _, isRow := rowItems(e.X); isRow {
		return b.bindRowInList(e, s)
	}
	exprs := make([]Expr, 0, len(e.List)+1)
	for _, item := range append([]sql.Expr{e.X}, e.List...) {
		x, err := b.bindExpr(item, s)
		if err != nil {
			return nil, err
		}
		exprs = append(exprs, x)
	}
	out, err := InList(e.Pos, exprs[0], exprs[1:])
	if err != nil {
		return nil, err
	}
	if e.Not {
		out = &Call{Fn: FnNot, Args: []Expr{out}, T: TypeBoolean}
	}
	return out, nil
}

func (b *binder) bindLike(e *sql.LikeExpr, s *scope) (Expr, error) {
	parts := []sql.Expr{e.X, e.Pattern}
	if e.Escape != nil {
		parts = append(parts, e.Escape)
	}
	args := make([]Expr, len(parts))
	for i, p := range parts {
		x, err := b.bindExpr(p, s)
		if err != nil {
			return nil, err
		}
		if !isString(x.Type()) && x.Type().ID() != arrow.NULL {
			return nil, kindErrorf(ErrType, e.Pos, "LIKE needs strings, got %s", TypeString(x.Type()))
		}
		if args[i], err = castTo(x, TypeVarchar); err != nil {
			return nil, err
		}
	}
	fn := FnLike
	if e.CaseInsensitive {
		fn = FnILike
	}
	var out Expr = &Call{Fn: fn, Args: args, T: TypeBoolean}
	if e.Not {
		out = &Call{Fn: FnNot, Args: []Expr{out}, T: TypeBoolean}
	}
	return out, nil
}

func (b *binder) bindCase(e *sql.CaseExpr, s *scope) (Expr, error) {
	var operand Expr
	if e.Operand != nil {
		var err error
		if operand, err = b.bindExpr(e.Operand, s); err != nil {
			return nil, err
		}
	}
	results := make([]Expr, 0, len(e.Whens)+1)
	conds := make([]Expr, 0, len(e.Whens))
	for _, w := range e.Whens {
		var cond Expr
		var err error
		if operand != nil {
			cmp, err := b.bindExpr(w.Cond, s)
			if err != nil {
				return nil, err
			}
			args, err := unify(e.Pos, operand, cmp)
			if err != nil {
				return nil, err
			}
			cond = &Call{Fn: FnEq, Args: args, T: TypeBoolean}
		} else {
			if cond, err = b.bindExpr(w.Cond, s); err != nil {
				return nil, err
			}
			if cond, err = requireBoolean(cond, e.Pos, "WHEN"); err != nil {
				return nil, err
			}
		}
		r, err := b.bindExpr(w.Result, s)
		if err != nil {
			return nil, err
		}
		conds = append(conds, cond)
		results = append(results, r)
	}
	var elseExpr Expr = &Literal{T: TypeNull}
	if e.Else != nil {
		var err error
		if elseExpr, err = b.bindExpr(e.Else, s); err != nil {
			return nil, err
		}
	}
	unified, err := unifyResults(e.Pos, append(results, elseExpr)...)
	if err != nil {
		return nil, err
	}
	c := &Case{Else: unified[len(unified)-1], T: unified[0].Type()}
	for i, cond := range conds {
		c.Whens = append(c.Whens, CaseWhen{Cond: cond, Result: unified[i]})
	}
	return c, nil
}

// unifyResults brings CASE/COALESCE/VALUES results to one type.
func unifyResults(pos sql.Pos, exprs ...Expr) ([]Expr, error) {
	return unifyTypes(pos, "cannot combine %s and %s in one result", commonResultType, castRounding, exprs)
}

func numberOrBoolean(t arrow.DataType) bool { return IsNumeric(t) || t.ID() == arrow.BOOL }

func (b *binder) bindCast(e *sql.CastExpr, s *scope) (Expr, error) {
	x, err := b.bindExpr(e.X, s)
	if err != nil {
		return nil, err
	}
	t, err := ArrowType(e.To)
	if err != nil {
		return nil, err
	}
	if arrow.TypeEqual(x.Type(), t) {
		return x, nil
	}
	if lit, ok := x.(*Literal); ok {
		v, err := convertLiteralIn(lit.Value, lit.T, t, b.loc)
		if err == nil {
			return &Literal{Value: v, T: t}, nil
		}
		// Numbers and booleans the plan-time conversion does not convert
		// (2.5 to INT rounds, TRUE to INT) are cast as a column would be,
		// and folded back into a literal; a value out of range, text that
		// does not parse and types that do not convert fail here, where
		// the position is known (TRY_CAST: NULL).
		switch {
		case errors.Is(err, errInexact) || errors.Is(err, errNotAtPlanTime) && numberOrBoolean(lit.T) && numberOrBoolean(t):
		case e.Try:
			return &Literal{T: t}, nil
		default:
			return nil, errorf(e.Pos, "%v", err)
		}
	}
	return &Cast{X: x, T: t, Try: e.Try}, nil
}
