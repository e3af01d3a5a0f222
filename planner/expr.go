package planner

import (
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
)

// Expr is a bound, typed expression. The binder resolves names to input column
// indexes and inserts casts, so every Call's arguments already have the types
// its function expects; the executor evaluates an Expr over a whole record batch.
type Expr interface {
	Type() arrow.DataType
	String() string
}

// ColumnRef reads column Index of the input batch.
type ColumnRef struct {
	Index int
	Name  string
	T     arrow.DataType
}

// Literal is a constant. Value holds the Go form of the constant for T:
// nil (SQL NULL, any T), bool, int32 (INT, DATE as days since epoch),
// int64 (BIGINT, TIMESTAMP/TIMESTAMPTZ/TIME in microseconds), float32, float64,
// string, []byte (BINARY, UUID's 16 bytes) or decimal128.Num (DECIMAL).
type Literal struct {
	Value any
	T     arrow.DataType
}

// Call applies a built-in function or operator to its arguments. Fn names are
// listed in functions.go.
type Call struct {
	Fn   string
	Args []Expr
	T    arrow.DataType
}

// Cast converts X to T; Try makes a failed conversion NULL instead of an error.
type Cast struct {
	X   Expr
	T   arrow.DataType
	Try bool
}

// Case is CASE WHEN c1 THEN r1 … ELSE e END; a simple CASE is bound to this form.
// Else is a NULL Literal when absent. All Results and Else share type T.
type Case struct {
	Whens []CaseWhen
	Else  Expr
	T     arrow.DataType
}

// CaseWhen is one WHEN arm.
type CaseWhen struct {
	Cond, Result Expr
}

func (e *ColumnRef) Type() arrow.DataType { return e.T }
func (e *Literal) Type() arrow.DataType   { return e.T }
func (e *Call) Type() arrow.DataType      { return e.T }
func (e *Cast) Type() arrow.DataType      { return e.T }
func (e *Case) Type() arrow.DataType      { return e.T }

func (e *ColumnRef) String() string { return e.Name }

func (e *Literal) String() string { return FormatLiteral(e.Value, e.T) }

// String methods write into one builder (writeExpr), so printing an
// expression is linear in its size even when it is 50 000 levels deep.

// exprWriter is an expression that can print itself into a builder.
type exprWriter interface {
	writeTo(b *strings.Builder)
}

// writeExpr prints e into b.
func writeExpr(b *strings.Builder, e Expr) {
	if w, ok := e.(exprWriter); ok {
		w.writeTo(b)
		return
	}
	b.WriteString(e.String())
}

func exprString(e exprWriter) string {
	var b strings.Builder
	e.writeTo(&b)
	return b.String()
}

func (e *Call) String() string { return exprString(e) }
func (e *Cast) String() string { return exprString(e) }
func (e *Case) String() string { return exprString(e) }

func (e *Call) writeTo(b *strings.Builder) {
	if op, ok := infixOps[e.Fn]; ok && len(e.Args) == 2 {
		b.WriteByte('(')
		writeExpr(b, e.Args[0])
		b.WriteString(" " + op + " ")
		writeExpr(b, e.Args[1])
		b.WriteByte(')')
		return
	}
	switch {
	case e.Fn == FnIn && len(e.Args) > 0:
		b.WriteByte('(')
		writeExpr(b, e.Args[0])
		b.WriteString(" IN (")
		for i, a := range e.Args[1:] {
			if i > 0 {
				b.WriteString(", ")
			}
			writeExpr(b, a)
		}
		b.WriteString("))")
		return
	case e.Fn == FnNot && len(e.Args) == 1:
		b.WriteString("NOT ")
		writeExpr(b, e.Args[0])
		return
	}
	b.WriteString(e.Fn + "(")
	for i, a := range e.Args {
		if i > 0 {
			b.WriteString(", ")
		}
		writeExpr(b, a)
	}
	b.WriteByte(')')
}

func (e *Cast) writeTo(b *strings.Builder) {
	if e.Try {
		b.WriteString("TRY_CAST(")
	} else {
		b.WriteString("CAST(")
	}
	writeExpr(b, e.X)
	b.WriteString(" AS " + TypeString(e.T) + ")")
}

func (e *Case) writeTo(b *strings.Builder) {
	b.WriteString("CASE")
	for _, w := range e.Whens {
		b.WriteString(" WHEN ")
		writeExpr(b, w.Cond)
		b.WriteString(" THEN ")
		writeExpr(b, w.Result)
	}
	b.WriteString(" ELSE ")
	writeExpr(b, e.Else)
	b.WriteString(" END")
}
