package planner

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/lakesql/lakesql/sql"
)

// Join combines the rows of Left and Right; its output is Left's columns
// followed by Right's. LeftKeys[i] = RightKeys[i] are the equi-join keys
// (LeftKeys over Left's columns, RightKeys over Right's, pairwise of one type);
// with keys the executor hashes, without them it compares every pair. Cond is
// the rest of the ON condition over the joined columns, or nil. BuildLeft
// says which side the executor materializes: the one estimated smaller.
// Keep, when set, marks the joined columns the join outputs (Cond and the
// keys still read the full layout): pruneColumns sets it so that columns
// only the keys read are never assembled into output rows.
//
// A semi or anti join (JoinSemi, JoinAnti) outputs only Left's columns: each
// Left row once when some Right row matches it (semi) or when none does
// (anti).
type Join struct {
	Type                sql.JoinType
	Left, Right         Plan
	LeftKeys, RightKeys []Expr
	Cond                Expr
	BuildLeft           bool
	Keep                []bool
	// Lateral marks a join with a LATERAL subquery on the right, whose
	// OuterRefs of depth 1 read the left side's columns; the optimizer
	// turns it into a plain join (optimizer/decorrelate_lateral.go).
	Lateral bool
}

// Join types that decorrelated subqueries make too (EXISTS, NOT EXISTS).
const (
	JoinSemi = sql.JoinSemi
	JoinAnti = sql.JoinAnti
)

// Condition is the whole join condition over Joined(): the key equalities
// and Cond, as NewJoin was given it; nil for none.
func (j *Join) Condition() Expr {
	nl := len(j.Left.Schema())
	conds := make([]Expr, 0, len(j.LeftKeys)+1)
	for i := range j.LeftKeys {
		conds = append(conds, &Call{Fn: FnEq, T: TypeBoolean, Args: []Expr{j.LeftKeys[i], shiftColumns(j.RightKeys[i], nl)}})
	}
	return Conjunction(append(conds, j.Cond))
}

// LeftOnly reports whether the join outputs only its left input's columns.
func (j *Join) LeftOnly() bool { return j.Type == JoinSemi || j.Type == JoinAnti }

// Schema is the output: the kept columns of Joined.
func (j *Join) Schema() []Column {
	if j.Keep == nil && j.LeftOnly() {
		return j.Left.Schema()
	}
	all := j.Joined()
	if j.Keep == nil {
		return all
	}
	var out []Column
	for i, c := range all {
		if j.Keep[i] {
			out = append(out, c)
		}
	}
	return out
}

// Joined is Left's columns followed by Right's, the layout Cond reads.
func (j *Join) Joined() []Column {
	return append(append([]Column(nil), j.Left.Schema()...), j.Right.Schema()...)
}

func (j *Join) Children() []Plan { return []Plan{j.Left, j.Right} }

func (j *Join) Describe() string {
	var b strings.Builder
	if len(j.LeftKeys) > 0 {
		b.WriteString("HashJoin ")
	} else {
		b.WriteString("NestedLoopJoin ")
	}
	b.WriteString(string(j.Type))
	if len(j.LeftKeys) > 0 {
		keys := make([]string, len(j.LeftKeys))
		for i := range keys {
			keys[i] = qualifiedString(j.LeftKeys[i], j.Left.Schema()) + " = " + qualifiedString(j.RightKeys[i], j.Right.Schema())
		}
		fmt.Fprintf(&b, " on [%s]", strings.Join(keys, ", "))
		if j.Cond != nil {
			b.WriteString(" residual=" + qualifiedString(j.Cond, j.Joined()))
		}
	} else if j.Cond != nil {
		b.WriteString(" on " + qualifiedString(j.Cond, j.Joined()))
	}
	if j.BuildLeft {
		b.WriteString(" build=left")
	} else {
		b.WriteString(" build=right")
	}
	return b.String()
}

// qualifiedString prints e with its column references qualified by their
// table, so that a join's EXPLAIN line tells a.id from b.id.
func qualifiedString(e Expr, cols []Column) string {
	return Rewrite(e, func(x Expr) Expr {
		if ref, ok := x.(*ColumnRef); ok && cols[ref.Index].Table != "" {
			return &ColumnRef{Index: ref.Index, Name: cols[ref.Index].Table + "." + ref.Name, T: ref.T}
		}
		return x
	}).String()
}

// NewJoin plans a join whose ON condition cond (nil for none) is bound over
// left's columns followed by right's: it splits out the equi-join keys and
// picks the build side.
func NewJoin(typ sql.JoinType, left, right Plan, cond Expr) *Join {
	j := &Join{Type: typ, Left: left, Right: right}
	nl := len(left.Schema())
	var residual []Expr
	for _, c := range Conjuncts(cond) {
		l, r, ok := equiKey(c, nl)
		if !ok {
			residual = append(residual, c)
			continue
		}
		j.LeftKeys = append(j.LeftKeys, l)
		j.RightKeys = append(j.RightKeys, shiftColumns(r, -nl))
	}
	j.Cond = Conjunction(residual)
	j.BuildLeft = estimateRows(left) < estimateRows(right)
	return j
}

// Conjunction joins predicates with AND, skipping nil ones (no predicate);
// nil for none.
func Conjunction(es []Expr) Expr {
	var out Expr
	for _, e := range es {
		switch {
		case e == nil:
		case out == nil:
			out = e
		default:
			out = &Call{Fn: FnAnd, Args: []Expr{out, e}, T: TypeBoolean}
		}
	}
	return out
}

// equiKey recognizes x = y where one side reads only the left input's columns
// (indexes < nl) and the other only the right input's; it returns the left
// and the right expression.
func equiKey(e Expr, nl int) (l, r Expr, ok bool) {
	c, isCall := e.(*Call)
	if !isCall || c.Fn != FnEq {
		return nil, nil, false
	}
	a, b := c.Args[0], c.Args[1]
	switch {
	case side(a, nl) == sideLeft && side(b, nl) == sideRight:
		return a, b, true
	case side(a, nl) == sideRight && side(b, nl) == sideLeft:
		return b, a, true
	}
	return nil, nil, false
}

const (
	sideNone  = iota // no columns: a constant
	sideLeft         // only left columns
	sideRight        // only right columns
	sideBoth
)

// side tells which join inputs e reads.
func side(e Expr, nl int) int {
	s := sideNone
	Walk(e, func(x Expr) {
		ref, ok := x.(*ColumnRef)
		if !ok {
			return
		}
		this := sideLeft
		if ref.Index >= nl {
			this = sideRight
		}
		if s == sideNone {
			s = this
		} else if s != this {
			s = sideBoth
		}
	})
	return s
}

// shiftColumns adds delta to every column index of e.
func shiftColumns(e Expr, delta int) Expr {
	return Rewrite(e, func(x Expr) Expr {
		if ref, ok := x.(*ColumnRef); ok {
			return &ColumnRef{Index: ref.Index + delta, Name: ref.Name, T: ref.T}
		}
		return x
	})
}

// unknownRows is the estimate for inputs whose size cannot be told cheaply:
// assume they are large, so that a known-small side is built instead.
const unknownRows = math.MaxInt64

// estimateRows guesses how many rows p produces, for choosing a join's build
// side. Scans use the snapshot's total-records summary; filters are assumed to
// keep every row, which errs towards the larger side.
func estimateRows(p Plan) int64 {
	switch p := p.(type) {
	case *Scan:
		if p.Table.Snapshot == nil {
			return 0
		}
		if p.Table.Snapshot.Summary != nil {
			if n, err := strconv.ParseInt(p.Table.Snapshot.Summary.Properties["total-records"], 10, 64); err == nil {
				return n
			}
		}
	case *Values:
		return int64(len(p.Rows))
	case *Limit:
		if p.Limit >= 0 {
			return min(p.Limit, estimateRows(p.Input))
		}
		return estimateRows(p.Input)
	case *Filter, *Project, *SubqueryAlias:
		return estimateRows(p.Children()[0])
	}
	return unknownRows
}
