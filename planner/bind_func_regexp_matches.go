package planner

import (
	"regexp"
	"strings"
)

// bindRegexpMatches binds DuckDB's regexp_matches(s, pattern[, options]),
// TRUE when the pattern matches anywhere in s, as regexp_like. The options
// are DuckDB's letters, the last of c and i winning: 'i' ignores case, 'c'
// respects it, 'l' reads the pattern as literal text. They must be
// constant, and so must the pattern they modify.
func bindRegexpMatches(b *binder, c *funcCall) (Expr, error) {
	if len(c.args) == 2 {
		return typed(FnRegexpLike, TypeBoolean, stringArg, stringArg)(b, c)
	}
	args, err := c.convert(stringArg, stringArg, stringArg)
	if err != nil {
		return nil, err
	}
	opts, isLit := args[2].(*Literal)
	pattern, patLit := args[1].(*Literal)
	if !isLit || !patLit {
		return nil, errorf(c.pos, "%s: the pattern and options must be constant strings", c.name)
	}
	if opts.Value == nil {
		return nil, errorf(c.pos, "%s: the options must not be NULL", c.name)
	}
	if pattern.Value == nil {
		return &Literal{T: TypeBoolean}, nil
	}
	p := pattern.Value.(string)
	fold, literal := false, false
	for _, o := range opts.Value.(string) {
		switch o {
		case 'i', 'c':
			fold = o == 'i'
		case 'l':
			literal = true
		default:
			return nil, errorf(c.pos, "%s: unknown option %q (expected c, i or l)", c.name, o)
		}
	}
	if literal {
		p = regexp.QuoteMeta(p)
	}
	if fold {
		p = "(?i)" + p
	}
	if _, err := regexp.Compile(p); err != nil {
		return nil, errorf(c.pos, "%s: invalid regular expression %q: %v", c.name, p, strings.TrimPrefix(err.Error(), "error parsing regexp: "))
	}
	return &Call{Fn: FnRegexpLike, Args: []Expr{args[0], stringLit(p)}, T: TypeBoolean}, nil
}
