package planner

import (
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakesql/lakesql/sql"
)

// windower collects the window calls of a SELECT block while its select
// list and ORDER BY are bound, as aggregator does for aggregates. A windower
// with forbidden set marks a clause where window functions are an error.
type windower struct {
	forbidden string

	calls []*WindowCall
	srcs  []*sql.FuncCall // where each call was written
	keys  map[string]int
}

func newWindower() *windower { return &windower{keys: map[string]int{}} }

// forbidWindows returns a scope over the same columns where window calls
// are the error msg.
func forbidWindows(s *scope, msg string) *scope {
	inner := *s
	inner.windows = &windower{forbidden: msg}
	return &inner
}

// windowOutput stands for the result of window call Index while the block
// is bound; windower.plan turns it into a column of the Window node.
type windowOutput struct {
	Index int
	key   string
	T     arrow.DataType
}

func (w *windowOutput) Type() arrow.DataType { return w.T }

// String is the call's identity (columns by index), so that exprKey matches
// an ORDER BY call with the same call in the select list.
func (w *windowOutput) String() string { return w.key }

// bindWindow binds f(…) OVER (…) in a SELECT block and returns a reference
// to its result column. The call's own expressions may hold aggregates
// (sum(sum(x)) OVER (…)), which the block's Aggregate computes first.
func (b *binder) bindWindow(e *sql.FuncCall, s *scope) (Expr, error) {
	switch {
	case s.windows == nil:
		return nil, errorf(e.Pos, "window functions are not allowed here")
	case s.windows.forbidden != "":
		return nil, errorf(e.Pos, "%s", s.windows.forbidden)
	}
	inner := forbidWindows(s, "window function calls cannot be nested")
	call := &WindowCall{}
	for _, p := range e.Over.PartitionBy {
		x, err := b.bindExpr(p, inner)
		if err != nil {
			return nil, err
		}
		if !isOrderable(x.Type()) {
			return nil, errorf(p.Position(), "cannot partition by values of type %s", TypeString(x.Type()))
		}
		call.PartitionBy = append(call.PartitionBy, x)
	}
	for _, o := range e.Over.OrderBy {
		x, err := b.bindExpr(o.Expr, inner)
		if err != nil {
			return nil, err
		}
		if !isOrderable(x.Type()) {
			return nil, errorf(o.Expr.Position(), "cannot order values of type %s", TypeString(x.Type()))
		}
		k := newOrderKey(0, o) // for the default NULL placement
		call.OrderBy = append(call.OrderBy, SortKey{Expr: x, Desc: k.desc, NullsFirst: k.nullsFirst})
	}
	var err error
	if call.Frame, err = b.bindFrame(e, call.OrderBy, inner); err != nil {
		return nil, err
	}
	if err := b.bindWindowFunc(call, e, inner); err != nil {
		return nil, err
	}
	if err := b.localizeWindowCall(call); err != nil {
		return nil, err
	}
	return s.windows.add(call, e), nil
}

// localizeWindowCall applies the session zone to call's arguments and
// keys, as localizeAggCall does for an aggregate's (the frame's RANGE
// bounds are localized where they are bound).
func (b *binder) localizeWindowCall(call *WindowCall) error {
	var err error
	for _, xs := range [][]Expr{call.Args, call.PartitionBy} {
		for i := range xs {
			if xs[i], err = b.localize(xs[i]); err != nil {
				return err
			}
		}
	}
	for i := range call.OrderBy {
		if call.OrderBy[i].Expr, err = b.localize(call.OrderBy[i].Expr); err != nil {
			return err
		}
	}
	if call.Agg != nil {
		return b.localizeAggCall(call.Agg)
	}
	return nil
}

// bindFrame binds the frame clause of a call ordered by orderBy (bound),
// or returns the default frame.
func (b *binder) bindFrame(e *sql.FuncCall, orderBy []SortKey, s *scope) (WindowFrame, error) {
	fr := e.Over.Frame
	if fr == nil {
		return DefaultFrame(len(e.Over.OrderBy) > 0), nil
	}
	switch {
	case fr.Start.Kind == sql.UnboundedFollowing:
		return WindowFrame{}, errorf(e.Pos, "a window frame cannot start at UNBOUNDED FOLLOWING")
	case fr.End.Kind == sql.UnboundedPreceding:
		return WindowFrame{}, errorf(e.Pos, "a window frame cannot end at UNBOUNDED PRECEDING")
	case fr.Start.Kind > fr.End.Kind:
		return WindowFrame{}, errorf(e.Pos, "a window frame cannot start after its end")
	}
	f := WindowFrame{Unit: frameUnits[fr.Unit], Exclude: fr.Exclude}
	bounds := []*WindowBound{&f.Start, &f.End}
	ranged := false // a RANGE bound has an offset
	for i, bound := range []sql.FrameBound{fr.Start, fr.End} {
		*bounds[i] = WindowBound{Kind: bound.Kind}
		if bound.Offset == nil {
			continue
		}
		if f.Unit == RangeFrame {
			if err := b.bindRangeOffset(orderBy, bound, bounds[i], s); err != nil {
				return WindowFrame{}, err
			}
			ranged = true
			continue
		}
		n, err := b.windowConstant(bound.Offset, s, "a "+fr.Unit+" frame offset")
		if err != nil {
			return WindowFrame{}, err
		}
		bounds[i].Offset = n
	}
	if ranged {
		return rangeFrame(f, orderBy[0].Expr, e.Pos)
	}
	return f, nil
}

// frameUnits maps the units the parser reads to the planner's.
var frameUnits = map[string]FrameUnit{"RANGE": RangeFrame, "ROWS": RowsFrame, "GROUPS": GroupsFrame}

// bindRangeOffset binds the offset of a RANGE bound, n PRECEDING or n
// FOLLOWING: a constant that is not negative (a number, or an INTERVAL or a
// number of days for dates and timestamps), and the ORDER BY value it
// reaches from each row's: the only ORDER BY key minus or plus it, in the
// ORDER BY's direction.
func (b *binder) bindRangeOffset(orderBy []SortKey, bound sql.FrameBound, out *WindowBound, s *scope) error {
	pos := bound.Offset.Position()
	if len(orderBy) != 1 {
		return errorf(pos, "a RANGE frame with an offset needs exactly one ORDER BY expression")
	}
	off, err := b.bindExpr(bound.Offset, s)
	if err != nil {
		return err
	}
	lit, ok := off.(*Literal)
	if !ok || lit.Value == nil || negativeLiteral(lit) {
		return errorf(pos, "a RANGE frame offset needs a constant that is not negative or NULL, such as 7 or INTERVAL 7 DAY")
	}
	key := orderBy[0].Expr
	if !IsNumeric(key.Type()) && key.Type().ID() != arrow.DATE32 && key.Type().ID() != arrow.TIMESTAMP {
		return errorf(pos, "a RANGE frame with an offset needs a number, date or timestamp to ORDER BY, not %s", TypeString(key.Type()))
	}
	op := "-"
	if (bound.Kind == sql.Following) != orderBy[0].Desc {
		op = "+"
	}
	value, handled, err := bindTemporalArithmetic(op, key, lit, pos)
	if !handled {
		value, err = bindArithmetic(arithmeticFns[op], key, lit, pos)
	}
	if err != nil {
		return errorf(pos, "a RANGE offset of %s does not apply to ORDER BY values of type %s", TypeString(lit.T), TypeString(key.Type()))
	}
	// A TIMESTAMPTZ key reaches back whole days on the session zone's wall
	// clock, as ts - INTERVAL 1 DAY does anywhere else.
	if value, err = b.localize(value); err != nil {
		return err
	}
	out.Amount, out.Value = lit, value
	return nil
}

// negativeLiteral reports whether a number or interval constant is below zero.
func negativeLiteral(lit *Literal) bool {
	if iv, ok := lit.Value.(arrow.MonthDayNanoInterval); ok {
		return iv.Months < 0 || iv.Days < 0 || iv.Nanoseconds < 0
	}
	f, ok := literalFloat(lit.Value, lit.T)
	return ok && f < 0
}

// rangeFrame brings the ORDER BY key and the values of f's RANGE bounds
// to one type, in which they compare.
func rangeFrame(f WindowFrame, key Expr, pos sql.Pos) (WindowFrame, error) {
	exprs := []Expr{key}
	for _, e := range []Expr{f.Start.Value, f.End.Value} {
		if e != nil {
			exprs = append(exprs, e)
		}
	}
	unified, err := unify(pos, exprs...)
	if err != nil {
		return WindowFrame{}, err
	}
	f.RangeKey, unified = unified[0], unified[1:]
	for _, v := range []*Expr{&f.Start.Value, &f.End.Value} {
		if *v != nil {
			*v, unified = unified[0], unified[1:]
		}
	}
	return f, nil
}

// bindWindowFunc binds the function of a window call and its arguments.
func (b *binder) bindWindowFunc(call *WindowCall, e *sql.FuncCall, s *scope) error {
	if e.IgnoreNulls {
		switch e.Name {
		case WinLag, WinLead, WinFirstValue, WinLastValue, WinNthValue:
			call.IgnoreNulls = true
		default:
			return errorf(e.Pos, "IGNORE NULLS is only allowed with lag, lead, first_value, last_value and nth_value, not %s", e.Name)
		}
	}
	if IsAggregateFunction(e.Name) {
		return b.bindWindowAggregate(call, e, s)
	}
	switch {
	case e.Distinct:
		return errorf(e.Pos, "DISTINCT is only allowed in aggregate functions; %s is not one", e.Name)
	case !windowNames[e.Name]:
		if _, ok := lookupFunction(e.Name); ok {
			return errorf(e.Pos, "%s is not a window function", e.Name)
		}
		return unknownFunction(e.Name, e.Pos)
	case e.Star:
		return errorf(e.Pos, "%s(*) is not allowed; only count(*)", e.Name)
	}
	call.Fn = e.Name
	switch e.Name {
	case WinRowNumber, WinRank, WinDenseRank:
		call.T = TypeBigint
		return windowArity(e, 0, 0)
	case WinPercentRank, WinCumeDist:
		call.T = TypeDouble
		return windowArity(e, 0, 0)
	case WinNtile:
		call.T = TypeBigint
		if err := windowArity(e, 1, 1); err != nil {
			return err
		}
		n, err := b.positiveConstant(e, 0, s, "number of buckets")
		call.Args = []Expr{n}
		return err
	case WinLag, WinLead:
		return b.bindOffsetFunc(call, e, s)
	case WinNthValue:
		if err := windowArity(e, 2, 2); err != nil {
			return err
		}
		n, err := b.positiveConstant(e, 1, s, "row number")
		if err != nil {
			return err
		}
		x, err := b.bindExpr(e.Args[0], s)
		if err != nil {
			return err
		}
		call.Args, call.T = []Expr{x, n}, x.Type()
		return nil
	default: // first_value, last_value
		if err := windowArity(e, 1, 1); err != nil {
			return err
		}
		x, err := b.bindExpr(e.Args[0], s)
		if err != nil {
			return err
		}
		call.Args, call.T = []Expr{x}, x.Type()
		return nil
	}
}

// bindOffsetFunc binds lag and lead (x [, offset [, default]]) to exactly
// three arguments: x, the constant offset and the default, which has x's type.
func (b *binder) bindOffsetFunc(call *WindowCall, e *sql.FuncCall, s *scope) error {
	if err := windowArity(e, 1, 3); err != nil {
		return err
	}
	x, err := b.bindExpr(e.Args[0], s)
	if err != nil {
		return err
	}
	offset := Expr(&Literal{Value: int64(1), T: TypeBigint})
	if len(e.Args) > 1 {
		n, err := b.windowConstant(e.Args[1], s, e.Name+" offset")
		if err != nil {
			return err
		}
		offset = &Literal{Value: n, T: TypeBigint}
	}
	def := Expr(&Literal{T: TypeNull})
	if len(e.Args) > 2 {
		if def, err = b.bindExpr(e.Args[2], s); err != nil {
			return err
		}
	}
	unified, err := unifyResults(e.Pos, x, def)
	if err != nil {
		return err
	}
	call.Args, call.T = []Expr{unified[0], offset, unified[1]}, unified[0].Type()
	return nil
}

func windowArity(e *sql.FuncCall, lo, hi int) error {
	if n := len(e.Args); n < lo || n > hi {
		want := fmt.Sprint(lo)
		if hi > lo {
			want = fmt.Sprintf("%d to %d", lo, hi)
		}
		return errorf(e.Pos, "%s needs %s arguments, got %d", e.Name, want, n)
	}
	return nil
}

// windowConstant binds a frame offset or a constant argument, which must be
// a non-negative integer constant: the rows a frame or lag covers cannot
// vary from row to row.
func (b *binder) windowConstant(e sql.Expr, s *scope, what string) (int64, error) {
	x, err := b.bindExpr(e, s)
	if err != nil {
		return 0, err
	}
	if lit, ok := x.(*Literal); ok && IsInteger(lit.T) {
		if n, _ := literalInt(lit.Value); n >= 0 {
			return n, nil
		}
	}
	return 0, errorf(e.Position(), "%s needs a non-negative integer constant", what)
}

// positiveConstant binds argument i of e, which must be an integer constant
// above zero.
func (b *binder) positiveConstant(e *sql.FuncCall, i int, s *scope, what string) (Expr, error) {
	n, err := b.windowConstant(e.Args[i], s, e.Name+" "+what)
	if err == nil && n == 0 {
		err = errorf(e.Args[i].Position(), "%s %s must be positive", e.Name, what)
	}
	return &Literal{Value: n, T: TypeBigint}, err
}

// add registers call (once per distinct call) and returns its placeholder.
func (w *windower) add(call *WindowCall, src *sql.FuncCall) *windowOutput {
	args := make([]string, len(call.Args))
	for i, a := range call.Args {
		args[i] = exprKey(a)
	}
	fn := call.Fn
	if call.Agg != nil {
		fn = call.Agg.key()
	}
	key := fmt.Sprintf("%s(%s) IGNORE NULLS %v OVER (%s %s)", fn, strings.Join(args, ", "), call.IgnoreNulls, call.SpecKey(), call.Frame)
	i, ok := w.keys[key]
	if !ok {
		i = len(w.calls)
		w.keys[key] = i
		w.calls = append(w.calls, call)
		w.srcs = append(w.srcs, src)
	}
	return &windowOutput{Index: i, key: key, T: call.T}
}

// plan puts a Window computing the block's window calls over input (the
// block's FROM/WHERE, or its Aggregate and HAVING when aggregated is set)
// and rewrites the items' placeholders into the Window's columns.
func (w *windower) plan(input Plan, items []selectItem, agg *aggregator, aggregated bool) (Plan, error) {
	if len(w.calls) == 0 {
		return input, nil
	}
	if aggregated {
		if err := w.finishOver(agg); err != nil {
			return nil, err
		}
	}
	names := make([]string, len(w.calls))
	for _, it := range items {
		if out, ok := it.expr.(*windowOutput); ok && names[out.Index] == "" {
			names[out.Index] = it.name
		}
	}
	for i, c := range w.calls {
		if names[i] == "" {
			names[i] = c.String()
		}
	}
	width := len(input.Schema())
	for i := range items {
		items[i].expr = Rewrite(items[i].expr, func(x Expr) Expr {
			if out, ok := x.(*windowOutput); ok {
				return &ColumnRef{Index: width + out.Index, Name: names[out.Index], T: out.T}
			}
			return x
		})
	}
	return &Window{Input: input, Calls: w.calls, Names: names}, nil
}

// finishOver rewrites the calls' expressions to read the Aggregate's output,
// after checking that no aggregate holds a window call: windows are
// computed after aggregation, so an aggregate cannot see them.
func (w *windower) finishOver(agg *aggregator) error {
	for _, c := range agg.calls {
		var nested *windowOutput
		if c.Arg != nil {
			Walk(c.Arg, func(x Expr) {
				if out, ok := x.(*windowOutput); ok && nested == nil {
					nested = out
				}
			})
		}
		if nested != nil {
			return errorf(w.srcs[nested.Index].Pos, "aggregate function calls cannot contain window function calls")
		}
	}
	for i, c := range w.calls {
		src := w.srcs[i]
		finished, err := c.MapExprs(func(e Expr) (Expr, error) { return agg.finish(e, src) })
		if err != nil {
			return err
		}
		w.calls[i] = finished
	}
	return nil
}
