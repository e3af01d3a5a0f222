package planner

import "github.com/lakesql/lakesql/sql"

// bindSampledTable binds X TABLESAMPLE …: X's rows, sampled.
func (b *binder) bindSampledTable(t *sql.SampledTable) (Plan, error) {
	input, err := b.bindFrom(t.X)
	if err != nil {
		return nil, err
	}
	return b.samplePlan(input, t.Sample)
}

// samplePlan keeps a random sample of input's rows: each row with
// probability Percent/100 (a Bernoulli sample: WHERE rand() < p), or Rows
// rows drawn without replacement: those with the smallest random keys, as
// ORDER BY rand() LIMIT n keeps them. The keys are computed once per row in
// a projection, since TopN evaluates its key expressions again whenever it
// compares kept rows with new ones, which would favour the last rows read.
// Hidden columns (metadata columns such as _file) pass through it, hidden.
// A sample differs at every run.
func (b *binder) samplePlan(input Plan, s sql.Sample) (Plan, error) {
	cols := input.Schema()
	random, err := b.bindExpr(&sql.FuncCall{Name: "rand", Pos: s.Pos}, &scope{cols: cols})
	if err != nil {
		return nil, err
	}
	if s.Rows < 0 {
		return &Filter{Input: input, Cond: &Call{Fn: FnLt, Args: []Expr{random, &Literal{Value: s.Percent / 100, T: TypeDouble}}, T: TypeBoolean}}, nil
	}
	keyed := &Project{Input: input}
	for i, c := range cols {
		keyed.Exprs = append(keyed.Exprs, &ColumnRef{Index: i, Name: c.Name, T: c.T})
		keyed.Names = append(keyed.Names, c.Name)
		keyed.Marks = append(keyed.Marks, c.ColumnMarks)
	}
	keyed.Exprs = append(keyed.Exprs, random)
	keyed.Names = append(keyed.Names, "rand()")
	return limitRows(sortPlan(keyed, len(cols), []orderKey{{index: len(cols)}}), s.Rows, 0), nil
}
