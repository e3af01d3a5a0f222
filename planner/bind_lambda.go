package planner

import (
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakesql/lakesql/sql"
)

// Functions that apply a lambda to the elements of a list. Their last
// argument is the *Lambda; the ones between the list and it are the values
// of the enclosing row that the lambda's body reads.
const (
	// list_transform(list, x -> expr): the list of expr over each element
	// (also array_transform, apply, list_apply, array_apply, and Spark's
	// transform).
	FnListTransform = "list_transform"
	// list_filter(list, x -> condition): the elements where condition is
	// TRUE, in order (also array_filter, and Spark's filter).
	FnListFilter = "list_filter"
	// exists(list, x -> condition) (Spark): TRUE when condition is TRUE for
	// some element, else NULL when it is NULL for one, else FALSE;
	// forall(list, x -> condition): FALSE when it is FALSE for some
	// element, else NULL when it is NULL for one, else TRUE.
	FnListExists = "exists"
	FnListForall = "forall"
	// list_reduce(list, (acc, x) -> expr [, initial]): expr folded over the
	// elements, acc starting as initial or else as the first element (also
	// array_reduce, reduce, and Spark's aggregate(list, initial, lambda)).
	FnListReduce = "list_reduce"
)

// lambdaFunction is a spelling of a lambda function: which one it is and
// the index a lambda's second parameter gives a list's first element, 1 as
// in DuckDB or 0 as in Spark (whose x[0] lakesql follows).
type lambdaFunction struct {
	fn        string
	indexBase int64
}

var lambdaFunctions = map[string]lambdaFunction{
	"list_transform": {FnListTransform, 1}, "array_transform": {FnListTransform, 1},
	"apply": {FnListTransform, 1}, "list_apply": {FnListTransform, 1}, "array_apply": {FnListTransform, 1},
	"transform":   {FnListTransform, 0},
	"list_filter": {FnListFilter, 1}, "array_filter": {FnListFilter, 1},
	"filter": {FnListFilter, 0},
	"exists": {FnListExists, 0}, "forall": {FnListForall, 0},
	"list_reduce": {FnListReduce, 1}, "array_reduce": {FnListReduce, 1}, "reduce": {FnListReduce, 1},
	"aggregate": {FnListReduce, 0},
}

// Lambda is the x -> body or (x, i) -> body argument of a lambda function.
// Body is an expression over the lambda's own rows, one per element of the
// list: their columns are the element, its index when there are two
// parameters, then the enclosing row's values that are the call's middle
// arguments. Walks and rewrites of the enclosing expression do not enter
// Body, whose columns are not the enclosing row's.
type Lambda struct {
	Params    []string
	Body      Expr
	IndexBase int64
	// Initial says that list_reduce's second argument is the accumulator's
	// initial value, before the enclosing row's values; without it the
	// accumulator starts as the first element, and the body's columns are
	// the accumulator, the element and its index first.
	Initial bool
}

func (l *Lambda) Type() arrow.DataType { return l.Body.Type() }

func (l *Lambda) String() string {
	params := strings.Join(l.Params, ", ")
	if len(l.Params) > 1 {
		params = "(" + params + ")"
	}
	return params + " -> " + l.Body.String()
}

// bindLambdaCall binds list_transform, list_filter, exists or forall.
func (b *binder) bindLambdaCall(e *sql.FuncCall, f lambdaFunction, s *scope) (Expr, error) {
	if f.fn == FnListReduce {
		return b.bindReduce(e, f, s)
	}
	usage := fmt.Sprintf("%s(list, x -> expression)", e.Name)
	if len(e.Args) != 2 {
		return nil, kindErrorf(ErrType, e.Pos, "%s takes a list and a lambda: %s", e.Name, usage)
	}
	lam, err := lambdaArg(e, 1, 2, usage)
	if err != nil {
		return nil, err
	}
	list, elem, err := b.bindListArg(e, s)
	if err != nil {
		return nil, err
	}
	params := []Column{{Name: lam.Params[0], T: elem}}
	if len(lam.Params) == 2 {
		params = append(params, Column{Name: lam.Params[1], T: TypeBigint})
	}
	body, values, err := b.bindLambdaBody(lam, params, s)
	if err != nil {
		return nil, err
	}
	l := &Lambda{Params: lam.Params, Body: body, IndexBase: f.indexBase}
	args := append(append([]Expr{list}, values...), l)
	switch f.fn {
	case FnListFilter, FnListExists, FnListForall:
		if l.Body, err = requireBoolean(body, lam.Body.Position(), e.Name); err != nil {
			return nil, err
		}
		if f.fn != FnListFilter {
			return &Call{Fn: f.fn, Args: args, T: TypeBoolean}, nil
		}
		t := list.Type()
		if t.ID() == arrow.NULL {
			t = arrow.ListOfField(elementField(TypeNull))
		}
		return &Call{Fn: FnListFilter, Args: args, T: t}, nil
	}
	return &Call{Fn: FnListTransform, Args: args, T: arrow.ListOfField(elementField(body.Type()))}, nil
}

// lambdaArg returns argument i of e, which must be a lambda of at most
// maxParams parameters.
func lambdaArg(e *sql.FuncCall, i, maxParams int, usage string) (*sql.LambdaExpr, error) {
	lam, ok := e.Args[i].(*sql.LambdaExpr)
	if !ok {
		return nil, kindErrorf(ErrType, e.Args[i].Position(), "argument %d of %s must be a lambda: %s", i+1, e.Name, usage)
	}
	if len(lam.Params) > maxParams {
		return nil, kindErrorf(ErrType, lam.Pos, "the lambda of %s takes at most %d parameters: %s", e.Name, maxParams, usage)
	}
	return lam, nil
}

// bindListArg binds the list a lambda function's first argument gives and
// returns its element type (NULL for a NULL constant).
func (b *binder) bindListArg(e *sql.FuncCall, s *scope) (Expr, arrow.DataType, error) {
	list, err := b.bindExpr(e.Args[0], s)
	if err != nil {
		return nil, nil, err
	}
	switch t := list.Type().(type) {
	case *arrow.ListType:
		return list, t.Elem(), nil
	case *arrow.NullType:
		return list, TypeNull, nil
	}
	return nil, nil, kindErrorf(ErrType, e.Args[0].Position(), "%s needs a list, got %s", e.Name, TypeString(list.Type()))
}

// bindLambdaBody binds the body of lam, whose parameters are params. The
// body sees them and, for any other name, what the enclosing scope s sees
// (its columns, aliases, an enclosing query's columns), as a block sees an
// enclosing query's. It returns the body and those values of s, bound in
// s, which the call passes as arguments between the list and the lambda,
// so that grouping and column pruning see them as they see any argument;
// the body reads them as the columns after the parameters.
func (b *binder) bindLambdaBody(lam *sql.LambdaExpr, params []Column, s *scope) (Expr, []Expr, error) {
	ls := &lambdaScope{enclosing: s, params: len(params), keys: map[string]int{}}
	inner := &scope{cols: params, lambda: ls}
	inner = forbidAggregates(inner, "aggregate functions are not allowed in a lambda")
	inner = forbidWindows(inner, "window functions are not allowed in a lambda")
	body, err := b.bindExpr(lam.Body, inner)
	if err != nil {
		return nil, nil, err
	}
	if HasSubquery(body) {
		return nil, nil, kindErrorf(ErrUnsupported, lam.Body.Position(), "subqueries are not allowed in a lambda")
	}
	// The session zone, applied to the expression around the call, does
	// not enter the Lambda, a leaf.
	if body, err = b.localize(body); err != nil {
		return nil, nil, err
	}
	return body, ls.values, nil
}

// lambdaScope collects the values of the enclosing scope that a lambda's
// body reads: they are the lambda rows' columns after its parameters.
type lambdaScope struct {
	enclosing *scope
	params    int
	values    []Expr
	keys      map[string]int // a value's exprKey → its column
}

// enclosingValue binds ref, which is not a parameter of the lambda whose
// body s is, in the enclosing scope, and returns the column of the
// lambda's rows that holds its value.
func (b *binder) enclosingValue(ref *sql.ColumnRef, s *scope) (Expr, error) {
	ls := s.lambda
	x, err := b.bindExpr(ref, ls.enclosing)
	if err != nil {
		return nil, err
	}
	key := exprKey(x)
	col, seen := ls.keys[key]
	if !seen {
		col = ls.params + len(ls.values)
		ls.keys[key] = col
		ls.values = append(ls.values, x)
	}
	return &ColumnRef{Index: col, Name: strings.Join(ref.Parts, "."), T: x.Type()}, nil
}
