package planner

import "github.com/apache/arrow-go/v18/arrow"

// GROUP BY a STRUCT (GROUP BY partition over a metadata table) groups by the
// struct's fields, recursively, and by whether the struct is NULL: the
// executor's group keys are flat values. The grouped struct is rebuilt from
// those group columns wherever the select list, HAVING or ORDER BY uses it.

// addGroup adds one GROUP BY expression, a struct as its parts.
func (a *aggregator) addGroup(g Expr) {
	key := exprKey(g)
	if _, done := a.groupKeys[key]; done {
		return
	}
	st, isStruct := g.Type().(*arrow.StructType)
	if !isStruct {
		a.groupKeys[key] = len(a.groups)
		a.groups = append(a.groups, g)
		return
	}
	if a.structs == nil {
		a.structs = map[string]Expr{}
	}
	if _, done := a.structs[key]; done {
		return
	}
	a.structs[key] = g
	a.addGroup(&Call{Fn: FnIsNull, Args: []Expr{g}, T: TypeBoolean})
	for _, f := range st.Fields() {
		a.addGroup(structField(g, f))
	}
}

// groupOutput is the Aggregate's output for a grouped expression: its group
// column, or a grouped struct rebuilt; ok is false for anything else.
func (a *aggregator) groupOutput(x Expr) (Expr, bool) {
	key := exprKey(x)
	if i, ok := a.groupKeys[key]; ok {
		return &aggOutput{Index: i, Name: a.groups[i].String(), T: x.Type()}, true
	}
	g, ok := a.structs[key]
	if !ok {
		return nil, false
	}
	st := g.Type().(*arrow.StructType)
	var args []Expr
	for _, f := range st.Fields() {
		v, _ := a.groupOutput(structField(g, f))
		args = append(args, stringLit(f.Name), v)
	}
	isNull, _ := a.groupOutput(&Call{Fn: FnIsNull, Args: []Expr{g}, T: TypeBoolean})
	return &Case{
		Whens: []CaseWhen{{Cond: &Call{Fn: FnNot, Args: []Expr{isNull}, T: TypeBoolean}, Result: &Call{Fn: FnMakeStruct, Args: args, T: st}}},
		Else:  &Literal{T: st},
		T:     st,
	}, true
}

func structField(g Expr, f arrow.Field) Expr {
	return &Call{Fn: FnGetField, Args: []Expr{g, stringLit(f.Name)}, T: f.Type}
}
