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
}

func (l *Lambda) Type() arrow.DataType { return l.Body.Type() }

func (l *Lambda) String() string {
	params := strings.Join(l.Params, ", ")
	if len(l.Params) > 1 {
		params = "(" + params + ")"
	}
	return params + " -> " + l.Body.String()
}

// bindLambdaCall binds a lambda function. The body sees the lambda's
// parameters and, for any other name, what the enclosing scope s sees
// (its columns, aliases, an enclosing query's columns), as a block sees an
// enclosing query's; those values become the call's middle arguments,
// bound in s, so that grouping and column pruning see them as they see
// any argument.
func (b *binder) bindLambdaCall(e *sql.FuncCall, f lambdaFunction, s *scope) (Expr, error) {
	usage := fmt.Sprintf("%s(list, x -> expression)", e.Name)
	if len(e.Args) != 2 {
		return nil, kindErrorf(ErrType, e.Pos, "%s takes a list and a lambda: %s", e.Name, usage)
	}
	lam, ok := e.Args[1].(*sql.LambdaExpr)
	if !ok {
		return nil, kindErrorf(ErrType, e.Args[1].Position(), "the second argument of %s must be a lambda: %s", e.Name, usage)
	}
	if len(lam.Params) > 2 {
		return nil, kindErrorf(ErrType, lam.Pos, "a lambda of %s takes the element and, optionally, its index: x -> … or (x, i) -> …", e.Name)
	}
	list, err := b.bindExpr(e.Args[0], s)
	if err != nil {
		return nil, err
	}
	var elem arrow.DataType = TypeNull
	switch t := list.Type().(type) {
	case *arrow.ListType:
		elem = t.Elem()
	case *arrow.NullType:
	default:
		return nil, kindErrorf(ErrType, e.Args[0].Position(), "%s needs a list, got %s", e.Name, TypeString(list.Type()))
	}
	params := []Column{{Name: lam.Params[0], T: elem}}
	if len(lam.Params) == 2 {
		params = append(params, Column{Name: lam.Params[1], T: TypeBigint})
	}
	ls := &lambdaScope{enclosing: s, params: len(params), keys: map[string]int{}}
	inner := &scope{cols: params, lambda: ls}
	inner = forbidAggregates(inner, "aggregate functions are not allowed in a lambda")
	inner = forbidWindows(inner, "window functions are not allowed in a lambda")
	body, err := b.bindExpr(lam.Body, inner)
	if err != nil {
		return nil, err
	}
	if HasSubquery(body) {
		return nil, kindErrorf(ErrUnsupported, lam.Body.Position(), "subqueries are not allowed in a lambda")
	}
	args := append(append([]Expr{list}, ls.values...), &Lambda{Params: lam.Params, Body: body, IndexBase: f.indexBase})
	if f.fn == FnListFilter {
		if args[len(args)-1].(*Lambda).Body, err = requireBoolean(body, lam.Body.Position(), e.Name); err != nil {
			return nil, err
		}
		t := list.Type()
		if t.ID() == arrow.NULL {
			t = arrow.ListOfField(elementField(TypeNull))
		}
		return &Call{Fn: FnListFilter, Args: args, T: t}, nil
	}
	return &Call{Fn: FnListTransform, Args: args, T: arrow.ListOfField(elementField(body.Type()))}, nil
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
