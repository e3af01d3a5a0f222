package planner

import (
	"fmt"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakesql/lakesql/sql"
)

// Window function names used in WindowCall.Fn. Aggregates over a window use
// the AggCall names (AggCount, AggSum, AggAvg, AggMin, AggMax).
const (
	WinRowNumber   = "row_number"
	WinRank        = "rank"
	WinDenseRank   = "dense_rank"
	WinPercentRank = "percent_rank"
	WinCumeDist    = "cume_dist"
	WinNtile       = "ntile"
	WinLag         = "lag"
	WinLead        = "lead"
	WinFirstValue  = "first_value"
	WinLastValue   = "last_value"
	WinNthValue    = "nth_value"
)

// WindowBound is one end of a window frame. In a ROWS frame, Offset counts
// rows for Preceding and Following, in a GROUPS frame peer groups. In a
// RANGE frame, Amount is the offset (7, INTERVAL 7 DAY) and Value, over the
// Window's input, the ORDER BY value the bound reaches from each row's
// (ts - INTERVAL 7 DAY), of the type of the frame's RangeKey.
type WindowBound struct {
	Kind   sql.FrameBoundKind
	Offset int64
	Amount *Literal
	Value  Expr
}

// FrameUnit is what a frame's offsets count: RANGE reaches ORDER BY values,
// ROWS counts rows, GROUPS counts peer groups (rows with equal ORDER BY
// keys). RANGE and GROUPS extend CURRENT ROW to the row's peers.
type FrameUnit int

const (
	RangeFrame FrameUnit = iota
	RowsFrame
	GroupsFrame
)

func (u FrameUnit) String() string { return [...]string{"RANGE", "ROWS", "GROUPS"}[u] }

// WindowFrame is the rows of a partition a window function reads for one
// row: those between Start and End but the ones Exclude takes out.
type WindowFrame struct {
	Unit       FrameUnit
	Start, End WindowBound
	Exclude    sql.FrameExclusion
	// RangeKey, set when a RANGE bound has an offset, is the ORDER BY key
	// brought to the type of the bounds' values, which compare with it.
	RangeKey Expr
}

// exprs are the frame's expressions over the Window's input.
func (f WindowFrame) exprs() []Expr {
	var out []Expr
	for _, e := range []Expr{f.RangeKey, f.Start.Value, f.End.Value} {
		if e != nil {
			out = append(out, e)
		}
	}
	return out
}

// mapExprs applies f to the frame's expressions.
func (f WindowFrame) mapExprs(apply func(Expr) Expr) WindowFrame {
	for _, e := range []*Expr{&f.RangeKey, &f.Start.Value, &f.End.Value} {
		if *e != nil {
			*e = apply(*e)
		}
	}
	return f
}

// DefaultFrame is the frame of an OVER clause that names none: up to the
// current row and its peers with ORDER BY, else the whole partition.
func DefaultFrame(ordered bool) WindowFrame {
	f := WindowFrame{Start: WindowBound{Kind: sql.UnboundedPreceding}, End: WindowBound{Kind: sql.UnboundedFollowing}}
	if ordered {
		f.End.Kind = sql.CurrentRow
	}
	return f
}

// WindowCall is one window function: Fn over the rows of the partition
// (rows with equal PartitionBy values) ordered by OrderBy. Args, PartitionBy
// and OrderBy are expressions over the Window's input. Constant arguments
// (ntile's buckets, lag's offset, nth_value's n) are BIGINT Literals.
type WindowCall struct {
	Fn          string
	Args        []Expr
	PartitionBy []Expr
	OrderBy     []SortKey
	Frame       WindowFrame
	T           arrow.DataType
	// IgnoreNulls makes lag, lead, first_value, last_value and nth_value
	// skip the rows whose value is NULL.
	IgnoreNulls bool
	// Agg is set for an aggregate over a window other than a plain count,
	// sum, avg, min or max (which fold frames of Args directly): any
	// aggregate, with DISTINCT, FILTER or ORDER BY inside, computed over
	// each frame by the accumulator GROUP BY uses. Its argument and FILTER
	// condition are expressions over the Window's input; Args is empty.
	Agg *AggCall
}

// Exprs lists every expression of the call: arguments, the aggregate's
// argument and FILTER condition, PARTITION BY and ORDER BY keys.
func (c *WindowCall) Exprs() []Expr {
	out := slices.Clone(c.Args)
	if c.Agg != nil {
		out = append(out, c.Agg.Exprs()...)
	}
	out = append(out, c.PartitionBy...)
	out = append(out, sortKeyExprs(c.OrderBy)...)
	return append(out, c.Frame.exprs()...)
}

// MapExprs returns a copy of the call with f applied to each of its
// expressions, or f's first error.
func (c *WindowCall) MapExprs(f func(Expr) (Expr, error)) (*WindowCall, error) {
	var firstErr error
	apply := func(e Expr) Expr {
		x, err := f(e)
		if err != nil && firstErr == nil {
			firstErr = err
		}
		return x
	}
	out := *c
	out.Args = mapEach(c.Args, apply)
	if c.Agg != nil {
		out.Agg = c.Agg.MapExprs(apply)
	}
	out.PartitionBy = mapEach(c.PartitionBy, apply)
	out.OrderBy = slices.Clone(c.OrderBy)
	for i := range out.OrderBy {
		out.OrderBy[i].Expr = apply(c.OrderBy[i].Expr)
	}
	out.Frame = c.Frame.mapExprs(apply)
	if firstErr != nil {
		return nil, firstErr
	}
	return &out, nil
}

// mapEach applies f to every expression of exprs, in a new slice.
func mapEach(exprs []Expr, f func(Expr) Expr) []Expr {
	out := make([]Expr, len(exprs))
	for i, e := range exprs {
		out[i] = f(e)
	}
	return out
}

// UsesFrame reports whether Fn reads the frame; ranking functions and
// lag/lead look at the whole partition.
func (c *WindowCall) UsesFrame() bool {
	switch c.Fn {
	case WinRowNumber, WinRank, WinDenseRank, WinPercentRank, WinCumeDist, WinNtile, WinLag, WinLead:
		return false
	}
	return true
}

// SpecKey identifies the PARTITION BY and ORDER BY of a call, so that calls
// sharing them share one arrangement of the rows. Columns count by index.
func (c *WindowCall) SpecKey() string {
	var b strings.Builder
	for _, p := range c.PartitionBy {
		b.WriteString(exprKey(p) + ";")
	}
	b.WriteString("|")
	for _, k := range c.OrderBy {
		fmt.Fprintf(&b, "%s %v %v;", exprKey(k.Expr), k.Desc, k.NullsFirst)
	}
	if c.Frame.RangeKey != nil {
		// The positions a RANGE offset reaches are found with the
		// arrangement, which is then this frame's alone.
		b.WriteString("|" + c.Frame.String())
	}
	return b.String()
}

func (c *WindowCall) String() string {
	call := c.plainString()
	if c.Agg != nil {
		call = c.Agg.String()
	}
	return call + " OVER (" + strings.Join(c.specStrings(), " ") + ")"
}

// plainString is the call without its OVER clause, when Agg is not set.
func (c *WindowCall) plainString() string {
	args := make([]string, len(c.Args))
	for i, a := range c.Args {
		args[i] = a.String()
	}
	if c.Fn == AggCount && len(args) == 0 {
		args = []string{"*"}
	}
	if c.IgnoreNulls {
		return c.Fn + "(" + strings.Join(args, ", ") + ") IGNORE NULLS"
	}
	return c.Fn + "(" + strings.Join(args, ", ") + ")"
}

// specStrings are the parts of the call's OVER clause.
func (c *WindowCall) specStrings() []string {
	var spec []string
	if len(c.PartitionBy) > 0 {
		parts := make([]string, len(c.PartitionBy))
		for i, p := range c.PartitionBy {
			parts[i] = p.String()
		}
		spec = append(spec, "PARTITION BY "+strings.Join(parts, ", "))
	}
	if len(c.OrderBy) > 0 {
		spec = append(spec, "ORDER BY "+sortKeysString(c.OrderBy))
	}
	if c.UsesFrame() && c.Frame != DefaultFrame(len(c.OrderBy) > 0) {
		spec = append(spec, c.Frame.String())
	}
	return spec
}

func (f WindowFrame) String() string {
	s := f.Unit.String() + " BETWEEN " + f.Start.String() + " AND " + f.End.String()
	if f.Exclude != sql.ExcludeNoOthers {
		s += " EXCLUDE " + f.Exclude.String()
	}
	return s
}

func (b WindowBound) String() string {
	switch b.Kind {
	case sql.UnboundedPreceding:
		return "UNBOUNDED PRECEDING"
	case sql.Preceding:
		return b.amount() + " PRECEDING"
	case sql.CurrentRow:
		return "CURRENT ROW"
	case sql.Following:
		return b.amount() + " FOLLOWING"
	}
	return "UNBOUNDED FOLLOWING"
}

func (b WindowBound) amount() string {
	if b.Amount != nil {
		return b.Amount.String()
	}
	return fmt.Sprint(b.Offset)
}

// Window computes window functions over its input. Its output is the
// input's columns, then one column per call, named by Names. It materializes
// its input.
type Window struct {
	Input Plan
	Calls []*WindowCall
	Names []string
}

func (w *Window) Schema() []Column {
	cols := append([]Column(nil), w.Input.Schema()...)
	for i, c := range w.Calls {
		cols = append(cols, Column{Name: w.Names[i], T: c.T})
	}
	return cols
}

func (w *Window) Children() []Plan { return []Plan{w.Input} }

func (w *Window) Describe() string {
	calls := make([]string, len(w.Calls))
	for i, c := range w.Calls {
		calls[i] = c.String()
		if w.Names[i] != calls[i] {
			calls[i] += " AS " + w.Names[i]
		}
	}
	return "Window [" + strings.Join(calls, ", ") + "] (materializes input)"
}
