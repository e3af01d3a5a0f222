package planner

import (
	"regexp"

	"github.com/apache/arrow-go/v18/arrow"
)

// bindConcatWS binds concat_ws(separator, value, …), which, as in Spark and
// DuckDB, skips NULL values and is NULL only when the separator is. Values
// of any type are cast to STRING; NULL constants are dropped here. An
// array of strings contributes its non-NULL elements, as in Spark.
func bindConcatWS(_ *binder, c *funcCall) (Expr, error) {
	sep, ok := stringArg(c.args[0])
	if !ok {
		return nil, c.mismatch()
	}
	if lit, isLit := sep.(*Literal); isLit && lit.Value == nil {
		return &Literal{T: TypeVarchar}, nil
	}
	args := []Expr{sep}
	for _, a := range c.args[1:] {
		if lit, isLit := a.(*Literal); isLit && lit.Value == nil {
			continue
		}
		if lt, ok := a.Type().(*arrow.ListType); ok && (isString(lt.Elem()) || lt.Elem().ID() == arrow.NULL) {
			// Spark's: a list of strings adds its elements. Other lists
			// are one item, their text, as in DuckDB.
			args = append(args, castFolded(a, arrow.ListOfField(elementField(TypeVarchar))))
			continue
		}
		str, err := castTo(a, TypeVarchar)
		if err != nil {
			return nil, errorf(c.pos, "%s: %v", c.name, err)
		}
		args = append(args, str)
	}
	return &Call{Fn: FnConcatWS, Args: args, T: TypeVarchar}, nil
}

// bindRegexpExtract binds regexp_extract(string, pattern[, group]). Spark's
// default group is 1, DuckDB's 0 (the whole match): a constant pattern
// without groups gets 0, so both dialects' usual calls work. A constant
// pattern is checked here, with its group number.
func bindRegexpExtract(_ *binder, c *funcCall) (Expr, error) {
	args, groups, err := regexpGroupArgs(c)
	if err != nil {
		return nil, err
	}
	if len(args) == 2 {
		group := int64(1)
		if groups == 0 {
			group = 0
		}
		args = append(args, &Literal{Value: group, T: TypeBigint})
	}
	if err := checkRegexpGroup(c, groups, args[2]); err != nil {
		return nil, err
	}
	return &Call{Fn: FnRegexpExtract, Args: args, T: TypeVarchar}, nil
}

// bindRegexpExtractAll binds regexp_extract_all(string, pattern[, group]),
// the group of every match; the default group is 0, the whole match, as
// in DuckDB and Trino (Spark's is 1).
func bindRegexpExtractAll(_ *binder, c *funcCall) (Expr, error) {
	args, groups, err := regexpGroupArgs(c)
	if err != nil {
		return nil, err
	}
	if len(args) == 2 {
		args = append(args, &Literal{Value: int64(0), T: TypeBigint})
	}
	if err := checkRegexpGroup(c, groups, args[2]); err != nil {
		return nil, err
	}
	return &Call{Fn: FnRegexpExtractAll, Args: args, T: arrow.ListOfField(elementField(TypeVarchar))}, nil
}

// regexpGroupArgs converts (string, pattern[, group]) and compiles a
// constant pattern, giving its number of groups (-1 when it is not
// constant).
func regexpGroupArgs(c *funcCall) ([]Expr, int, error) {
	args, err := c.convert(stringArg, stringArg, intArg)
	if err != nil {
		return nil, 0, err
	}
	groups := -1
	if lit, ok := args[1].(*Literal); ok && lit.Value != nil {
		re, err := regexp.Compile(lit.Value.(string))
		if err != nil {
			return nil, 0, errorf(c.pos, "%s: invalid regular expression %q: %v", c.name, lit.Value, err)
		}
		groups = re.NumSubexp()
	}
	return args, groups, nil
}

// checkRegexpGroup refuses a constant group the constant pattern lacks.
func checkRegexpGroup(c *funcCall, groups int, group Expr) error {
	if lit, ok := group.(*Literal); ok && lit.Value != nil && groups >= 0 {
		if g := lit.Value.(int64); g < 0 || g > int64(groups) {
			return errorf(c.pos, "%s: the pattern has %d groups, so there is no group %d", c.name, groups, g)
		}
	}
	return nil
}
