package mysqldialect

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	driver "github.com/pingcap/tidb/pkg/parser/test_driver"

	"github.com/lakesql/lakesql/sql"
	"github.com/lakesql/lakesql/value"
)

// renamedFunctions are MySQL functions lakesql has under another name, with
// the same arguments.
var renamedFunctions = map[string]string{
	"ifnull": "coalesce", "curdate": "current_date", "curtime": "current_time",
	"sysdate": "now", "localtime": "now", "localtimestamp": "now", "current_timestamp": "now",
	"char_length": "length", "character_length": "length", "lcase": "lower", "ucase": "upper",
	"dayofmonth": "day", "weekofyear": "week",
}

// funcCall translates a MySQL function call, mapping the functions whose
// names or arguments differ from lakesql's.
func (t *translator) funcCall(x *ast.FuncCallExpr) (sql.Expr, error) {
	name := x.FnName.L
	pos := t.pos(x)
	call := func(name string, args ...sql.Expr) sql.Expr {
		return &sql.FuncCall{Name: name, Args: args, Pos: pos}
	}
	switch name {
	case ast.DateLiteral, ast.TimestampLiteral, ast.TimeLiteral:
		return t.typedLiteral(x)
	case "database", "schema":
		if t.env.Namespace == "" {
			return &sql.Literal{Kind: sql.LitNull, Pos: pos}, nil
		}
		return &sql.Literal{Kind: sql.LitString, Value: t.env.Namespace, Pos: pos}, nil
	case "version":
		v, _ := t.env.Vars.Get("version")
		return &sql.Literal{Kind: sql.LitString, Value: v, Pos: pos}, nil
	case "user", "current_user", "session_user", "system_user":
		return &sql.Literal{Kind: sql.LitString, Value: t.env.User + "@%", Pos: pos}, nil
	case "connection_id":
		return &sql.Literal{Kind: sql.LitInteger, Value: fmt.Sprint(t.env.ConnectionID), Pos: pos}, nil
	case "date_add", "adddate", "date_sub", "subdate":
		return t.dateArith(x, strings.HasSuffix(name, "sub") || name == "subdate")
	case "extract":
		unit, ok := x.Args[0].(*ast.TimeUnitExpr)
		if !ok {
			return nil, t.unsupported(x, "EXTRACT of this field")
		}
		v, err := t.expr(x.Args[1])
		return call("extract", &sql.Literal{Kind: sql.LitString, Value: unit.Unit.String(), Pos: pos}, v), err
	case "timestampdiff":
		unit, ok := x.Args[0].(*ast.TimeUnitExpr)
		if !ok {
			return nil, t.unsupported(x, "TIMESTAMPDIFF of this unit")
		}
		args, err := t.exprs(x.Args[1:])
		if err != nil {
			return nil, err
		}
		return call("datediff", append([]sql.Expr{&sql.Literal{Kind: sql.LitString, Value: strings.ToLower(unit.Unit.String()), Pos: pos}}, args...)...), nil
	case "trim":
		return t.trim(x)
	}
	args, err := t.exprs(x.Args)
	if err != nil {
		return nil, err
	}
	switch name {
	case "date_format":
		return t.dateFormat(x, args)
	case "from_unixtime":
		if len(args) == 2 {
			return t.dateFormat(x, []sql.Expr{call("from_unixtime", args[0]), args[1]})
		}
	case "str_to_date":
		return t.strToDate(x, args)
	case "makedate":
		// MAKEDATE(year, day of year): January 1st plus the days after it.
		if len(args) == 2 {
			one := &sql.Literal{Kind: sql.LitInteger, Value: "1", Pos: pos}
			jan1 := call("make_date", args[0], one, one)
			return &sql.BinaryExpr{Op: "+", L: jan1, R: &sql.BinaryExpr{Op: "-", L: args[1], R: one, Pos: pos}, Pos: pos}, nil
		}
	case "locate", "position":
		if len(args) == 2 {
			return call("strpos", args[1], args[0]), nil
		}
		return nil, t.unsupported(x, "LOCATE with a start position")
	case "instr":
		return call("strpos", args...), nil
	case "mid":
		return call("substr", args...), nil
	}
	if to, ok := renamedFunctions[name]; ok {
		name = to
	}
	return call(name, args...), nil
}

// typedLiteral is DATE 'x', TIMESTAMP 'x' or TIME 'x', which TiDB parses as
// calls of internal functions (ast.DateLiteral …).
func (t *translator) typedLiteral(x *ast.FuncCallExpr) (sql.Expr, error) {
	v, ok := x.Args[0].(*driver.ValueExpr)
	if !ok || len(x.Args) != 1 {
		return nil, t.unsupported(x, "this literal")
	}
	kind := map[string]sql.LitKind{ast.DateLiteral: sql.LitDate, ast.TimestampLiteral: sql.LitTimestamp, ast.TimeLiteral: sql.LitTime}[x.FnName.L]
	return &sql.Literal{Kind: kind, Value: v.GetString(), Pos: t.pos(x)}, nil
}

// intervalUnits are MySQL's INTERVAL units lakesql's intervals have, with
// the multiplier into lakesql's unit (a quarter is 3 months).
var intervalUnits = map[ast.TimeUnitType]struct {
	unit  string
	times int
}{
	ast.TimeUnitMicrosecond: {"MICROSECOND", 1}, ast.TimeUnitSecond: {"SECOND", 1},
	ast.TimeUnitMinute: {"MINUTE", 1}, ast.TimeUnitHour: {"HOUR", 1}, ast.TimeUnitDay: {"DAY", 1},
	ast.TimeUnitWeek: {"WEEK", 1}, ast.TimeUnitMonth: {"MONTH", 1}, ast.TimeUnitQuarter: {"MONTH", 3},
	ast.TimeUnitYear: {"YEAR", 1},
}

// dateArith is DATE_ADD(d, INTERVAL n unit), DATE_SUB, ADDDATE, SUBDATE and
// d ± INTERVAL n unit, which TiDB parses as date_add/date_sub: d ± interval,
// a DATE for a DATE and whole days, months or years, as in MySQL.
func (t *translator) dateArith(x *ast.FuncCallExpr, sub bool) (sql.Expr, error) {
	if len(x.Args) != 3 {
		return nil, t.unsupported(x, x.FnName.O+" with these arguments")
	}
	unit, ok := x.Args[2].(*ast.TimeUnitExpr)
	if !ok {
		return nil, t.unsupported(x, x.FnName.O+" with these arguments")
	}
	u, ok := intervalUnits[unit.Unit]
	if !ok {
		return nil, t.unsupported(unit, "INTERVAL unit "+unit.Unit.String())
	}
	d, err := t.expr(x.Args[0])
	if err != nil {
		return nil, err
	}
	if lit, ok := d.(*sql.Literal); ok && lit.Kind == sql.LitString {
		// MySQL reads a string as the date or datetime it spells.
		kind := sql.LitTimestamp
		if len(strings.TrimSpace(lit.Value)) == len("2006-01-02") && u.unit != "HOUR" && u.unit != "MINUTE" && u.unit != "SECOND" && u.unit != "MICROSECOND" {
			kind = sql.LitDate
		}
		d = &sql.Literal{Kind: kind, Value: lit.Value, Pos: lit.Pos}
	}
	n, err := t.expr(x.Args[1])
	if err != nil {
		return nil, err
	}
	pos := t.pos(x)
	if lit, ok := n.(*sql.Literal); ok && u.times != 1 && lit.Kind == sql.LitInteger {
		// INTERVAL takes a constant: 2 QUARTER is 6 MONTH, not 2 * 3.
		if v, err := strconv.ParseInt(lit.Value, 10, 64); err == nil {
			n = &sql.Literal{Kind: sql.LitInteger, Value: strconv.FormatInt(v*int64(u.times), 10), Pos: lit.Pos}
		}
	}
	if lit, ok := n.(*sql.Literal); u.times != 1 && !(ok && lit.Kind == sql.LitInteger) {
		n = &sql.BinaryExpr{Op: "*", L: n, R: &sql.Literal{Kind: sql.LitInteger, Value: fmt.Sprint(u.times), Pos: pos}, Pos: pos}
	}
	op := "+"
	if sub {
		op = "-"
	}
	return &sql.BinaryExpr{Op: op, L: d, R: &sql.Interval{Value: n, Unit: u.unit, Pos: t.pos(x.Args[1]), DateStays: true}, Pos: pos}, nil
}

// trim is TRIM([BOTH|LEADING|TRAILING] [chars] FROM x), which TiDB parses as
// trim(x[, chars[, direction]]).
func (t *translator) trim(x *ast.FuncCallExpr) (sql.Expr, error) {
	name := "trim"
	args := x.Args
	if len(args) == 3 {
		if d, ok := args[2].(*ast.TrimDirectionExpr); ok {
			switch d.Direction {
			case ast.TrimLeading:
				name = "ltrim"
			case ast.TrimTrailing:
				name = "rtrim"
			}
			args = args[:2]
		}
	}
	out, err := t.exprs(args)
	if err != nil {
		return nil, err
	}
	if len(out) == 2 {
		if l, ok := out[1].(*sql.Literal); ok && l.Kind == sql.LitNull {
			out = out[:1] // TRIM(LEADING FROM x): no characters given
		}
	}
	return &sql.FuncCall{Name: name, Args: out, Pos: t.pos(x)}, nil
}

// dateFormat is DATE_FORMAT(x, 'pattern') → strftime(x, pattern in C's
// conversions), which value.MySQLPattern translates.
func (t *translator) dateFormat(x *ast.FuncCallExpr, args []sql.Expr) (sql.Expr, error) {
	if len(args) != 2 {
		return nil, t.errorAt(x, "%s takes (date, 'format')", strings.ToUpper(x.FnName.O))
	}
	lit, ok := args[1].(*sql.Literal)
	if !ok || lit.Kind != sql.LitString {
		return nil, t.unsupported(x.Args[1], "a DATE_FORMAT format that is not a string literal")
	}
	pattern, _, err := value.MySQLPattern(lit.Value)
	if err != nil {
		return nil, t.errorAt(x.Args[1], "DATE_FORMAT %s", err)
	}
	return &sql.FuncCall{Name: "strftime", Args: []sql.Expr{args[0], &sql.Literal{Kind: sql.LitString, Value: pattern, Pos: lit.Pos}}, Pos: t.pos(x)}, nil
}

// strToDateFormats are the STR_TO_DATE formats lakesql reads: the ISO
// forms, which its casts parse.
var strToDateFormats = map[string]string{
	"%Y-%m-%d":          "DATE",
	"%Y-%m-%d %H:%i:%s": "TIMESTAMP",
	"%Y-%m-%d %T":       "TIMESTAMP",
	"%Y-%m-%d %H:%i":    "TIMESTAMP",
	"%Y-%m-%d %H":       "TIMESTAMP", // read with ":00" added
}

// strToDate is STR_TO_DATE(s, format) for the ISO formats: a cast.
func (t *translator) strToDate(x *ast.FuncCallExpr, args []sql.Expr) (sql.Expr, error) {
	if len(args) != 2 {
		return nil, t.errorAt(x, "STR_TO_DATE takes (string, 'format')")
	}
	lit, ok := args[1].(*sql.Literal)
	if !ok || lit.Kind != sql.LitString || strToDateFormats[lit.Value] == "" {
		return nil, t.unsupported(x.Args[1], "a STR_TO_DATE format other than '%Y-%m-%d', '%Y-%m-%d %H:%i:%s', '%Y-%m-%d %T', '%Y-%m-%d %H:%i' and '%Y-%m-%d %H'")
	}
	pos := t.pos(x)
	if lit.Value == "%Y-%m-%d %H" {
		// An hour alone is no timestamp the cast reads; its minutes are.
		args[0] = &sql.BinaryExpr{Op: "||", L: args[0], R: &sql.Literal{Kind: sql.LitString, Value: ":00", Pos: pos}, Pos: pos}
	}
	return &sql.CastExpr{X: args[0], To: sql.TypeName{Name: strToDateFormats[lit.Value], Pos: pos}, Try: true, Pos: pos}, nil
}

// groupConcat translates GROUP_CONCAT([DISTINCT] a[, b …] [ORDER BY …]
// [SEPARATOR s]) to string_agg. TiDB's parser gives the separator (',' by default) as the
// last argument; several values are concatenated with ||, which is NULL
// when one is, so such rows are skipped as MySQL skips them.
func (t *translator) groupConcat(x *ast.AggregateFuncExpr) (sql.Expr, error) {
	args, err := t.exprs(x.Args)
	if err != nil {
		return nil, err
	}
	if len(args) < 2 {
		return nil, t.unsupported(x, "GROUP_CONCAT with these arguments")
	}
	pos := t.pos(x)
	value := args[0]
	for _, a := range args[1 : len(args)-1] {
		value = &sql.BinaryExpr{Op: "||", L: value, R: a, Pos: pos}
	}
	call := &sql.FuncCall{Name: "string_agg", Args: []sql.Expr{value, args[len(args)-1]}, Distinct: x.Distinct, Pos: pos}
	if x.Order != nil {
		if call.OrderBy, err = t.orderItems(x.Order.Items); err != nil {
			return nil, err
		}
	}
	return call, nil
}

// aggregate translates count, sum, avg, min, max and the other aggregates.
// TiDB parses COUNT(*) as COUNT(1); both count rows, as does COUNT of any
// non-NULL constant, so they all become COUNT(*).
func (t *translator) aggregate(x *ast.AggregateFuncExpr) (sql.Expr, error) {
	name := strings.ToLower(x.F)
	if name == "group_concat" {
		return t.groupConcat(x)
	}
	if x.Order != nil {
		return nil, t.unsupported(x, "ORDER BY inside "+x.F)
	}
	pos := t.pos(x)
	if name == "count" && !x.Distinct && countsRows(x.Args) {
		return &sql.FuncCall{Name: "count", Star: true, Pos: pos}, nil
	}
	args, err := t.exprs(x.Args)
	if err != nil {
		return nil, err
	}
	return &sql.FuncCall{Name: name, Args: args, Distinct: x.Distinct, Pos: pos}, nil
}

// window translates f(…) OVER w or OVER ([w] PARTITION BY … ORDER BY … frame).
func (t *translator) window(x *ast.WindowFuncExpr) (sql.Expr, error) {
	if x.FromLast {
		return nil, t.unsupported(x, "FROM LAST")
	}
	pos := t.pos(x)
	name := strings.ToLower(x.Name)
	over, err := t.windowSpec(x, &x.Spec)
	if err != nil {
		return nil, err
	}
	call := &sql.FuncCall{Name: name, Distinct: x.Distinct, IgnoreNulls: x.IgnoreNull, Over: over, Pos: pos}
	call.Star = name == "count" && !x.Distinct && countsRows(x.Args)
	if !call.Star {
		args, err := t.exprs(x.Args)
		if err != nil {
			return nil, err
		}
		call.Args = args
	}
	return call, nil
}

// windowSpec translates a window specification, completed with the named
// window it refers to (OVER w, OVER (w ORDER BY …), w2 AS (w …)) from the
// SELECT block's WINDOW clause. at is where errors point.
func (t *translator) windowSpec(at ast.Node, spec *ast.WindowSpec) (*sql.WindowSpec, error) {
	out := &sql.WindowSpec{}
	if spec.PartitionBy != nil {
		for _, item := range spec.PartitionBy.Items {
			e, err := t.expr(item.Expr)
			if err != nil {
				return nil, err
			}
			out.PartitionBy = append(out.PartitionBy, e)
		}
	}
	if spec.OrderBy != nil {
		items, err := t.orderItems(spec.OrderBy.Items)
		if err != nil {
			return nil, err
		}
		out.OrderBy = items
	}
	if spec.Frame != nil {
		frame, err := t.frame(spec.Frame)
		if err != nil {
			return nil, err
		}
		out.Frame = frame
	}
	ref := spec.Ref.O
	if spec.OnlyAlias {
		ref = spec.Name.O
	}
	if ref == "" {
		return out, nil
	}
	def, ok := t.windows[strings.ToLower(ref)]
	if !ok {
		return nil, t.errorAt(at, "window %s is not defined", ref)
	}
	if msg := sql.CompleteWindow(out, def, ref); msg != "" {
		return nil, t.errorAt(at, "%s", msg)
	}
	return out, nil
}

// inWindowsOf runs translate with the windows that the WINDOW clause of
// st defines, each of which may refer to one before it.
func (t *translator) inWindowsOf(st *ast.SelectStmt, translate func() error) error {
	outer := t.windows
	defer func() { t.windows = outer }()
	t.windows = nil
	for i := range st.WindowSpecs {
		def := &st.WindowSpecs[i]
		name := def.Name.L
		if _, dup := t.windows[name]; dup {
			return t.errorAt(st, "window %s is defined twice", def.Name.O)
		}
		spec, err := t.windowSpec(st, &ast.WindowSpec{Ref: def.Ref, PartitionBy: def.PartitionBy, OrderBy: def.OrderBy, Frame: def.Frame})
		if err != nil {
			return err
		}
		if t.windows == nil {
			t.windows = map[string]*sql.WindowSpec{}
		}
		t.windows[name] = spec
	}
	return translate()
}

func (t *translator) frame(f *ast.FrameClause) (*sql.Frame, error) {
	out := &sql.Frame{Unit: "ROWS"}
	switch f.Type {
	case ast.Ranges:
		out.Unit = "RANGE"
	case ast.Groups:
		return nil, t.unsupported(f, "GROUPS frames")
	}
	var err error
	if out.Start, err = t.frameBound(&f.Extent.Start); err != nil {
		return nil, err
	}
	out.End, err = t.frameBound(&f.Extent.End)
	return out, err
}

func (t *translator) frameBound(b *ast.FrameBound) (sql.FrameBound, error) {
	if b.Unit != ast.TimeUnitInvalid {
		return sql.FrameBound{}, t.unsupported(b, "an INTERVAL frame bound")
	}
	switch {
	case b.Type == ast.CurrentRow:
		return sql.FrameBound{Kind: sql.CurrentRow}, nil
	case b.UnBounded && b.Type == ast.Preceding:
		return sql.FrameBound{Kind: sql.UnboundedPreceding}, nil
	case b.UnBounded:
		return sql.FrameBound{Kind: sql.UnboundedFollowing}, nil
	}
	off, err := t.expr(b.Expr)
	if err != nil {
		return sql.FrameBound{}, err
	}
	kind := sql.Following
	if b.Type == ast.Preceding {
		kind = sql.Preceding
	}
	return sql.FrameBound{Kind: kind, Offset: off}, nil
}

// countsRows reports whether COUNT(args) counts every row: its argument is
// a constant that is not NULL (TiDB's COUNT(*) is COUNT(1)).
func countsRows(args []ast.ExprNode) bool {
	if len(args) != 1 {
		return false
	}
	v, ok := args[0].(*driver.ValueExpr)
	return ok && v.Kind() != driver.KindNull
}
