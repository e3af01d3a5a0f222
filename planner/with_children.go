package planner

// WithChildren methods copy a node with new children (in Children order), so
// rewrite rules can rebuild any plan without knowing every node type.

func (s *Scan) WithChildren([]Plan) Plan      { return s }
func (v *Values) WithChildren([]Plan) Plan    { return v }
func (s *FileScan) WithChildren([]Plan) Plan  { return s }
func (r *Rows) WithChildren([]Plan) Plan      { return r }
func (f *Filter) WithChildren(c []Plan) Plan  { out := *f; out.Input = c[0]; return &out }
func (p *Project) WithChildren(c []Plan) Plan { out := *p; out.Input = c[0]; return &out }
func (l *Limit) WithChildren(c []Plan) Plan   { out := *l; out.Input = c[0]; return &out }
func (a *Aggregate) WithChildren(c []Plan) Plan {
	out := *a
	out.Input = c[0]
	return &out
}
func (d *Distinct) WithChildren(c []Plan) Plan { out := *d; out.Input = c[0]; return &out }
func (s *Sort) WithChildren(c []Plan) Plan     { out := *s; out.Input = c[0]; return &out }
func (t *TopN) WithChildren(c []Plan) Plan     { out := *t; out.Input = c[0]; return &out }
func (w *Window) WithChildren(c []Plan) Plan   { out := *w; out.Input = c[0]; return &out }
func (s *SubqueryAlias) WithChildren(c []Plan) Plan {
	out := *s
	out.Input = c[0]
	return &out
}
func (j *Join) WithChildren(c []Plan) Plan  { out := *j; out.Left, out.Right = c[0], c[1]; return &out }
func (s *SetOp) WithChildren(c []Plan) Plan { out := *s; out.Left, out.Right = c[0], c[1]; return &out }

// WithChildren keeps the node when its scan child is replaced by another scan
// (rules rewrite scans in place); any other child cannot stand in for it.
func (m *MetadataAggregate) WithChildren(c []Plan) Plan {
	scan, ok := c[0].(*Scan)
	if !ok {
		return m.Aggregate.WithChildren(c)
	}
	out := *m
	out.Scan = scan
	return &out
}
