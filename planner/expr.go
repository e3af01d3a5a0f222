package planner

import (
	"fmt"
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

func (e *Call) String() string {
	if op, ok := infixOps[e.Fn]; ok && len(e.Args) == 2 {
		return "(" + e.Args[0].String() + " " + op + " " + e.Args[1].String() + ")"
	}
	args := make([]string, len(e.Args))
	for i, a := range e.Args {
		args[i] = a.String()
	}
	return e.Fn + "(" + strings.Join(args, ", ") + ")"
}

func (e *Cast) String() string {
	fn := "CAST"
	if e.Try {
		fn = "TRY_CAST"
	}
	return fmt.Sprintf("%s(%s AS %s)", fn, e.X, TypeString(e.T))
}

func (e *Case) String() string {
	var b strings.Builder
	b.WriteString("CASE")
	for _, w := range e.Whens {
		fmt.Fprintf(&b, " WHEN %s THEN %s", w.Cond, w.Result)
	}
	fmt.Fprintf(&b, " ELSE %s END", e.Else)
	return b.String()
}
