package planner

import (
	"math"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakesql/lakesql/sql"
)

// bindFunc binds a scalar function call through the function registry
// (function_registry.go). Aggregate calls without OVER never get here: the
// aggregation binder takes them, and calls with OVER go to the window
// binder (bind_window.go).
func (b *binder) bindFunc(e *sql.FuncCall, s *scope) (Expr, error) {
	if e.Star || e.Distinct {
		return nil, kindErrorf(ErrUnsupported, e.Pos, "%s(…) with * or DISTINCT is not supported yet", e.Name)
	}
	if windowNames[e.Name] {
		return nil, errorf(e.Pos, "window function %s needs an OVER clause", e.Name)
	}
	if e.Name == "input_file_name" {
		return bindInputFileName(e, s)
	}
	if f, ok := lambdaFunctions[e.Name]; ok {
		return b.bindLambdaCall(e, f, s)
	}
	spec, ok := lookupFunction(e.Name)
	if !ok {
		return nil, unknownFunction(e.Name, e.Pos)
	}
	args := make([]Expr, len(e.Args))
	for i, a := range e.Args {
		x, err := b.bindExpr(a, s)
		if err != nil {
			return nil, err
		}
		args[i] = x
	}
	c := &funcCall{name: e.Name, pos: e.Pos, args: args, spec: spec}
	if len(args) < spec.minArgs || spec.maxArgs >= 0 && len(args) > spec.maxArgs {
		return nil, c.mismatch()
	}
	return spec.bind(b, c)
}

func bindCoalesce(_ *binder, c *funcCall) (Expr, error) {
	unified, err := unifyResults(c.pos, c.args...)
	if err != nil {
		return nil, err
	}
	return &Call{Fn: FnCoalesce, Args: unified, T: unified[0].Type()}, nil
}

func bindNullIf(_ *binder, c *funcCall) (Expr, error) {
	unified, err := unify(c.pos, c.args...)
	if err != nil {
		return nil, err
	}
	return &Call{Fn: FnNullIf, Args: unified, T: unified[0].Type()}, nil
}

// bindConcatFunc binds concat(…), which, unlike ||, skips NULLs. Arrays
// concatenate as list_concat does (Spark, Trino, DuckDB).
func bindConcatFunc(_ *binder, c *funcCall) (Expr, error) {
	if slices.ContainsFunc(c.args, func(a Expr) bool { return isList(a.Type()) }) {
		return listConcat(FnListConcat, c.pos, c.mismatch, c.args...)
	}
	var out Expr = stringLit("")
	for _, a := range c.args {
		str, err := castTo(a, TypeVarchar)
		if err != nil {
			return nil, errorf(c.pos, "%v", err)
		}
		str = &Call{Fn: FnCoalesce, Args: []Expr{str, stringLit("")}, T: TypeVarchar}
		out = &Call{Fn: FnConcat, Args: []Expr{out, str}, T: TypeVarchar}
	}
	return out, nil
}

// bindPosition binds position(search, string) as strpos(string, search).
func bindPosition(_ *binder, c *funcCall) (Expr, error) {
	args, err := c.convert(stringArg, stringArg)
	if err != nil {
		return nil, err
	}
	return &Call{Fn: FnStrpos, Args: []Expr{args[1], args[0]}, T: TypeBigint}, nil
}

// bindSameNumber binds a function whose result has its argument's type.
func bindSameNumber(fn string) bindFn {
	return func(_ *binder, c *funcCall) (Expr, error) {
		args, err := c.convert(numberArg)
		if err != nil {
			return nil, err
		}
		return &Call{Fn: fn, Args: args, T: args[0].Type()}, nil
	}
}

// bindSign binds sign(x): -1, 0 or 1 as an INT.
func bindSign(_ *binder, c *funcCall) (Expr, error) {
	args, err := c.convert(numberArg)
	if err != nil {
		return nil, err
	}
	return &Call{Fn: FnSign, Args: args, T: TypeInt}, nil
}

// bindFloorCeil binds floor and ceil: integers are already whole, and a
// DECIMAL(p,s) result needs no fractional digits (DuckDB types it DECIMAL(p,0)).
func bindFloorCeil(fn string) bindFn {
	return func(_ *binder, c *funcCall) (Expr, error) {
		args, err := c.convert(numberArg)
		if err != nil {
			return nil, err
		}
		x := args[0]
		t := x.Type()
		switch {
		case IsInteger(t):
			return x, nil
		case t.ID() == arrow.DECIMAL128:
			d := t.(*arrow.Decimal128Type)
			if d.Scale == 0 {
				return x, nil
			}
			t = &arrow.Decimal128Type{Precision: d.Precision, Scale: 0}
		}
		return &Call{Fn: fn, Args: args, T: t}, nil
	}
}

// bindRound binds round(x[, digits]), Spark's bround(x[, digits]) and
// DuckDB's trunc(x[, digits]) (fn FnRound, FnBRound or FnTrunc). The result keeps x's type, except that a
// DECIMAL(p,s) cut to d < s digits gets scale max(d, 0), so digits must be
// constant: round's precision p-s+d+1 has one more integer digit for the
// carry (9.96 → 10.0), trunc's stays p, as DuckDB's does.
func bindRound(fn string) bindFn {
	return func(_ *binder, c *funcCall) (Expr, error) {
		args, err := c.convert(numberArg, intArg)
		if err != nil {
			return nil, err
		}
		if len(args) == 1 {
			args = append(args, &Literal{Value: int64(0), T: TypeBigint})
		}
		x, digits := args[0], args[1]
		dt, isDecimal := x.Type().(*arrow.Decimal128Type)
		if !isDecimal {
			return &Call{Fn: fn, Args: args, T: x.Type()}, nil
		}
		lit, ok := digits.(*Literal)
		if !ok {
			return nil, errorf(c.pos, "%s of a DECIMAL needs constant digits", c.name)
		}
		if lit.Value == nil {
			return &Literal{T: x.Type()}, nil
		}
		d := lit.Value.(int64)
		if d >= int64(dt.Scale) {
			return x, nil
		}
		scale := max(d, 0)
		prec := int64(dt.Precision)
		if fn == FnRound || fn == FnBRound {
			prec = min(int64(dt.Precision-dt.Scale)+scale+1, 38)
		}
		t := &arrow.Decimal128Type{Precision: int32(prec), Scale: int32(scale)}
		return &Call{Fn: fn, Args: args, T: t}, nil
	}
}

// bindLog binds log(base, x) (Spark, PostgreSQL, DuckDB, Trino) as
// log10(x) / log10(base), the way DuckDB computes it. log(x) alone is refused: it is the natural logarithm in Spark and
// MySQL but the common one in PostgreSQL and DuckDB.
func bindLog(_ *binder, c *funcCall) (Expr, error) {
	if len(c.args) == 1 {
		return nil, errorf(c.pos, "log(x) is ln(x) in Spark and MySQL but log10(x) in PostgreSQL and DuckDB: write ln(x), log10(x) or log(base, x)")
	}
	args, err := c.convert(doubleArg, doubleArg)
	if err != nil {
		return nil, err
	}
	log10 := func(x Expr) Expr { return &Call{Fn: FnLog10, Args: []Expr{x}, T: TypeDouble} }
	return &Call{Fn: FnDiv, Args: []Expr{log10(args[1]), log10(args[0])}, T: TypeDouble}, nil
}

// bindMod binds mod(a, b) as a % b.
func bindMod(_ *binder, c *funcCall) (Expr, error) {
	return bindArithmetic(FnMod, c.args[0], c.args[1], c.pos)
}

// bindExtreme binds greatest and least over arguments of one orderable type.
func bindExtreme(fn string) bindFn {
	return func(_ *binder, c *funcCall) (Expr, error) {
		unified, err := unifyResults(c.pos, c.args...)
		if err != nil {
			return nil, err
		}
		t := unified[0].Type()
		if t.ID() == arrow.INTERVAL_MONTH_DAY_NANO {
			return nil, c.mismatch()
		}
		return &Call{Fn: fn, Args: unified, T: t}, nil
	}
}

func bindPi(*binder, *funcCall) (Expr, error) {
	return &Literal{Value: math.Pi, T: TypeDouble}, nil
}
