package planner

// Spark's string functions (Spark 3.5 SQL function reference).
const (
	// substring_index(s STRING, delim STRING, count BIGINT) → STRING: s
	// before the count-th delim (count < 0: after the count-th from the
	// end); '' for count 0 or an empty delim.
	FnSubstringIndex = "substring_index"
	// initcap(s STRING) → STRING: each word's first letter upper case, the
	// rest lower case; words are separated by spaces.
	FnInitcap = "initcap"
	// locate(sub STRING, s STRING, pos BIGINT) → INT: the 1-based position
	// of the first sub in s at or after character pos, 0 when none (or
	// pos < 1).
	FnLocate = "locate"
)

func sparkStringFunctions() map[string]*funcSpec {
	str := stringArg
	return map[string]*funcSpec{
		"substring_index": {"(string, delimiter, count)", 3, 3, typed(FnSubstringIndex, TypeVarchar, str, str, intArg)},
		"initcap":         {"(string)", 1, 1, typed(FnInitcap, TypeVarchar, str)},
		"locate":          {"(substring, string[, position])", 2, 3, bindLocate},
	}
}

// bindLocate binds locate(sub, s[, pos]); a NULL pos gives 0, as in Spark
// (and Hive).
func bindLocate(_ *binder, c *funcCall) (Expr, error) {
	if len(c.args) == 2 {
		c.args = append(c.args, &Literal{Value: int64(1), T: TypeBigint})
	}
	args, err := c.convert(stringArg, stringArg, intArg)
	if err != nil {
		return nil, err
	}
	pos := args[2]
	if lit, ok := pos.(*Literal); ok && lit.Value == nil {
		return &Literal{Value: int32(0), T: TypeInt}, nil
	}
	found := &Call{Fn: FnLocate, Args: args, T: TypeInt}
	if _, ok := pos.(*Literal); ok {
		return found, nil
	}
	noPos := &Call{Fn: FnIsNull, Args: []Expr{pos}, T: TypeBoolean}
	return &Case{Whens: []CaseWhen{{Cond: noPos, Result: &Literal{Value: int32(0), T: TypeInt}}}, Else: found, T: TypeInt}, nil
}
