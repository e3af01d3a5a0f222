package sql

import (
	"strconv"
	"strings"
)

// Format prints e back as canonical SQL: keywords upper case, every binary and
// unary operation parenthesized, identifiers quoted only when they need it.
// Parsing the result gives the same expression (positions aside), which makes
// it suitable for EXPLAIN output and for naming unaliased select items.
func Format(e Expr) string {
	var f formatter
	f.expr(e)
	return f.String()
}

// FormatQuery prints q back as canonical SQL in the style of Format.
func FormatQuery(q *Query) string {
	var f formatter
	f.query(q)
	return f.String()
}

// FormatType prints a type name such as DECIMAL(10, 2). A STRING with a length
// prints as VARCHAR(n), which parses back to it.
func FormatType(t TypeName) string {
	if len(t.Args) > 0 {
		return formatNestedType(t)
	}
	if len(t.Params) == 0 {
		return t.Name
	}
	name := t.Name
	if name == "STRING" {
		name = "VARCHAR"
	}
	params := make([]string, len(t.Params))
	for i, n := range t.Params {
		params[i] = strconv.Itoa(n)
	}
	return name + "(" + strings.Join(params, ", ") + ")"
}

type formatter struct{ strings.Builder }

// write writes its arguments, which are strings or expressions.
func (f *formatter) write(parts ...any) {
	for _, part := range parts {
		switch v := part.(type) {
		case string:
			f.WriteString(v)
		case Expr:
			f.expr(v)
		}
	}
}

func (f *formatter) exprs(list []Expr) {
	for i, e := range list {
		if i > 0 {
			f.WriteString(", ")
		}
		f.expr(e)
	}
}

func not(b bool, s string) string {
	if b {
		return "NOT " + s
	}
	return s
}

func (f *formatter) expr(e Expr) {
	switch e := e.(type) {
	case *ColumnRef:
		f.WriteString(quoteName(e.Parts))
	case *Star:
		f.star(e)
	case *Literal:
		f.literal(e)
	case *Interval:
		f.WriteString("INTERVAL ")
		if u, ok := e.Value.(*UnaryExpr); ok {
			f.write(u.Op, u.X) // INTERVAL -1 DAY: INTERVAL (-1) would read as a call
		} else {
			f.expr(e.Value)
		}
		if e.Unit != "" {
			f.write(" ", e.Unit)
		}
	case *UnaryExpr:
		if e.Op == "NOT" {
			f.write("(NOT ", e.X, ")")
		} else {
			f.write("(", e.Op, e.X, ")")
		}
	case *BinaryExpr:
		f.write("(", e.L, " ", e.Op, " ", e.R, ")")
	case *IsNullExpr:
		f.write("(", e.X, " IS ", not(e.Not, "NULL"), ")")
	case *IsBoolExpr:
		f.write("(", e.X, " IS ", not(e.Not, strings.ToUpper(strconv.FormatBool(e.Value))), ")")
	case *IsDistinctExpr:
		f.write("(", e.L, " IS ", not(e.Not, "DISTINCT FROM "), e.R, ")")
	case *BetweenExpr:
		f.write("(", e.X, " ", not(e.Not, "BETWEEN "), e.Lo, " AND ", e.Hi, ")")
	case *RowExpr:
		f.WriteString("(")
		f.exprs(e.Items)
		f.WriteString(")")
	case *InListExpr:
		f.write("(", e.X, " ", not(e.Not, "IN ("))
		f.exprs(e.List)
		f.WriteString("))")
	case *InSubqueryExpr:
		f.write("(", e.X, " ", not(e.Not, "IN ("))
		f.query(e.Query)
		f.WriteString("))")
	case *LambdaExpr:
		if len(e.Params) == 1 {
			f.WriteString(quoteIdent(e.Params[0]))
		} else {
			quoted := make([]string, len(e.Params))
			for i, name := range e.Params {
				quoted[i] = quoteIdent(name)
			}
			f.WriteString("(" + strings.Join(quoted, ", ") + ")")
		}
		f.write(" -> ", e.Body)
	case *QuantifiedExpr:
		q := "ANY"
		if e.All {
			q = "ALL"
		}
		f.write("(", e.X, " ", e.Op, " ", q, " (")
		f.query(e.Query)
		f.WriteString("))")
	case *ExistsExpr:
		f.write(not(e.Not, "EXISTS ("))
		f.query(e.Query)
		f.WriteString(")")
	case *SubqueryExpr:
		f.WriteString("(")
		f.query(e.Query)
		f.WriteString(")")
	case *LikeExpr:
		op := "LIKE "
		if e.CaseInsensitive {
			op = "ILIKE "
		}
		f.write("(", e.X, " ", not(e.Not, op), e.Pattern)
		if e.Escape != nil {
			f.write(" ESCAPE ", e.Escape)
		}
		f.WriteString(")")
	case *CaseExpr:
		f.caseExpr(e)
	case *CastExpr:
		fn := "CAST("
		if e.Try {
			fn = "TRY_CAST("
		}
		f.write(fn, e.X, " AS ", FormatType(e.To), ")")
	case *FuncCall:
		f.funcCall(e)
	case *NamedArg:
		f.write(quoteIdent(e.Name), " => ", e.Value)
	case *SubscriptExpr:
		f.write(e.X, "[", e.Index, "]")
	case *SliceExpr:
		f.write(e.X, "[", e.Begin, ":", e.End)
		if e.Step != nil {
			sep := ":"
			if e.End == nil {
				sep = " :" // x[1::2] would read as the cast 1::2
			}
			f.write(sep, e.Step)
		}
		f.WriteString("]")
	case *GroupingSets:
		f.groupingSets(e)
	case *FieldExpr:
		f.write("(", e.X, ").", quoteIdent(e.Field))
	}
}

func (f *formatter) literal(l *Literal) {
	switch l.Kind {
	case LitNull:
		f.WriteString("NULL")
	case LitBool:
		f.WriteString(strings.ToUpper(l.Value))
	case LitInteger, LitDecimal, LitFloat:
		f.WriteString(l.Value)
	case LitString:
		f.WriteString(quoteString(l.Value))
	case LitDate:
		f.write("DATE ", quoteString(l.Value))
	case LitTimestamp:
		f.write("TIMESTAMP ", quoteString(l.Value))
	case LitTimestampTZ:
		f.write("TIMESTAMPTZ ", quoteString(l.Value))
	case LitTime:
		f.write("TIME ", quoteString(l.Value))
	}
}

func (f *formatter) caseExpr(c *CaseExpr) {
	f.WriteString("CASE")
	if c.Operand != nil {
		f.write(" ", c.Operand)
	}
	for _, w := range c.Whens {
		f.write(" WHEN ", w.Cond, " THEN ", w.Result)
	}
	if c.Else != nil {
		f.write(" ELSE ", c.Else)
	}
	f.WriteString(" END")
}

func (f *formatter) funcCall(c *FuncCall) {
	if field, ok := extractField(c); ok {
		f.write("EXTRACT(", field, " FROM ", c.Args[1], ")")
		return
	}
	f.write(c.Name, "(")
	switch {
	case c.Star:
		f.WriteString("*")
	case c.Distinct:
		f.WriteString("DISTINCT ")
	}
	f.exprs(c.Args)
	if len(c.OrderBy) > 0 {
		f.WriteString(" ORDER BY ")
		f.orderItems(c.OrderBy)
	}
	f.WriteString(")")
	if c.IgnoreNulls {
		f.WriteString(" IGNORE NULLS")
	}
	if c.Filter != nil {
		f.write(" FILTER (WHERE ", c.Filter, ")")
	}
	if c.Over == nil {
		return
	}
	f.WriteString(" OVER (")
	sep := ""
	if len(c.Over.PartitionBy) > 0 {
		f.WriteString("PARTITION BY ")
		f.exprs(c.Over.PartitionBy)
		sep = " "
	}
	if len(c.Over.OrderBy) > 0 {
		f.write(sep, "ORDER BY ")
		f.orderItems(c.Over.OrderBy)
		sep = " "
	}
	if fr := c.Over.Frame; fr != nil {
		f.write(sep, fr.Unit, " BETWEEN ")
		f.frameBound(fr.Start)
		f.WriteString(" AND ")
		f.frameBound(fr.End)
		if fr.Exclude != ExcludeNoOthers {
			f.write(" EXCLUDE ", fr.Exclude.String())
		}
	}
	f.WriteString(")")
}

// extractField returns the field of extract('FIELD', x), which is printed in the
// EXTRACT(FIELD FROM x) form it is parsed from.
func extractField(c *FuncCall) (string, bool) {
	if c.Name != "extract" || len(c.Args) != 2 || c.Over != nil {
		return "", false
	}
	lit, ok := c.Args[0].(*Literal)
	if !ok || lit.Kind != LitString {
		return "", false
	}
	return quoteString(lit.Value), true
}

func (f *formatter) frameBound(b FrameBound) {
	switch b.Kind {
	case UnboundedPreceding:
		f.WriteString("UNBOUNDED PRECEDING")
	case Preceding:
		f.write(b.Offset, " PRECEDING")
	case CurrentRow:
		f.WriteString("CURRENT ROW")
	case Following:
		f.write(b.Offset, " FOLLOWING")
	case UnboundedFollowing:
		f.WriteString("UNBOUNDED FOLLOWING")
	}
}

// sample writes a sample's size after keyword: BERNOULLI (p) or (n ROWS).
func (f *formatter) sample(keyword string, s Sample) {
	f.WriteString(keyword)
	if s.Rows >= 0 {
		f.write("(", strconv.FormatInt(s.Rows, 10), " ROWS)")
	} else {
		f.write("BERNOULLI (", strconv.FormatFloat(s.Percent, 'f', -1, 64), ")")
	}
}

// star writes * or t.* with its EXCLUDE and REPLACE lists.
func (f *formatter) star(s *Star) {
	if len(s.Table) > 0 {
		f.write(quoteName(s.Table), ".")
	}
	f.WriteString("*")
	if len(s.Exclude) > 0 {
		refs := make([]Expr, len(s.Exclude))
		for i, ref := range s.Exclude {
			refs[i] = ref
		}
		f.WriteString(" EXCLUDE (")
		f.exprs(refs)
		f.WriteString(")")
	}
	if len(s.Replace) > 0 {
		f.WriteString(" REPLACE (")
		for i, item := range s.Replace {
			if i > 0 {
				f.WriteString(", ")
			}
			f.write(item.Expr, " AS ", quoteIdent(item.Alias))
		}
		f.WriteString(")")
	}
}

func (f *formatter) orderItems(items []OrderItem) {
	for i, it := range items {
		if i > 0 {
			f.WriteString(", ")
		}
		if it.All {
			f.WriteString("ALL")
		} else {
			f.expr(it.Expr)
		}
		if it.Desc {
			f.WriteString(" DESC")
		}
		if it.NullsFirst != nil {
			if *it.NullsFirst {
				f.WriteString(" NULLS FIRST")
			} else {
				f.WriteString(" NULLS LAST")
			}
		}
	}
}

func (f *formatter) query(q *Query) {
	for i, cte := range q.With {
		if i == 0 {
			f.WriteString("WITH ")
			if q.Recursive {
				f.WriteString("RECURSIVE ")
			}
		} else {
			f.WriteString(", ")
		}
		f.WriteString(quoteIdent(cte.Name))
		f.columnList(cte.Columns)
		f.WriteString(" AS (")
		f.query(cte.Query)
		f.WriteString(")")
	}
	if len(q.With) > 0 {
		f.WriteString(" ")
	}
	f.setExpr(q.Body)
	if len(q.OrderBy) > 0 {
		f.WriteString(" ORDER BY ")
		f.orderItems(q.OrderBy)
	}
	if q.Limit != nil {
		f.write(" LIMIT ", q.Limit)
	}
	if q.Offset != nil {
		f.write(" OFFSET ", q.Offset)
	}
}

func (f *formatter) setExpr(s SetExpr) {
	switch s := s.(type) {
	case *Select:
		f.selectBlock(s)
	case *SetOp:
		f.WriteString("(")
		f.setExpr(s.L)
		f.write(" ", s.Op, " ")
		if s.All {
			f.WriteString("ALL ")
		}
		if s.ByName {
			f.WriteString("BY NAME ")
		}
		f.setExpr(s.R)
		f.WriteString(")")
	case *Values:
		f.WriteString("VALUES ")
		for i, row := range s.Rows {
			if i > 0 {
				f.WriteString(", ")
			}
			f.WriteString("(")
			f.exprs(row)
			f.WriteString(")")
		}
	case *Query:
		f.WriteString("(")
		f.query(s)
		f.WriteString(")")
	}
}

func (f *formatter) selectBlock(s *Select) {
	f.WriteString("SELECT ")
	if s.Distinct {
		f.WriteString("DISTINCT ")
	}
	for i, item := range s.Items {
		if i > 0 {
			f.WriteString(", ")
		}
		f.expr(item.Expr)
		if item.Alias != "" {
			f.write(" AS ", quoteIdent(item.Alias))
		}
		if len(item.Aliases) > 0 {
			f.WriteString(" AS")
			f.columnList(item.Aliases)
		}
	}
	if s.From != nil {
		f.WriteString(" FROM ")
		f.tableExpr(s.From)
	}
	if s.Sample != nil {
		f.sample(" USING SAMPLE ", *s.Sample)
	}
	if s.Where != nil {
		f.write(" WHERE ", s.Where)
	}
	if s.GroupByAll {
		f.WriteString(" GROUP BY ALL")
	}
	if len(s.GroupBy) > 0 {
		f.WriteString(" GROUP BY ")
		f.exprs(s.GroupBy)
	}
	if s.Having != nil {
		f.write(" HAVING ", s.Having)
	}
	if s.Qualify != nil {
		f.write(" QUALIFY ", s.Qualify)
	}
}

func (f *formatter) tableExpr(t TableExpr) {
	switch t := t.(type) {
	case *TableName:
		f.WriteString(quoteName(t.Name.Parts))
		if tt := t.TimeTravel; tt != nil {
			kind := "SYSTEM_VERSION"
			if tt.Kind == "TIMESTAMP" {
				kind = "SYSTEM_TIME"
			}
			f.write(" FOR ", kind, " AS OF ", tt.Value)
		}
		f.alias(t.Alias, nil)
	case *TableFunc:
		f.write(t.Name, "(")
		f.exprs(t.Args)
		f.WriteString(")")
		f.alias(t.Alias, t.ColAliases)
	case *FileTable:
		f.WriteString(quoteString(t.Path))
		f.alias(t.Alias, t.ColAliases)
	case *SubqueryTable:
		if t.Lateral {
			f.WriteString("LATERAL ")
		}
		f.WriteString("(")
		f.query(t.Query)
		f.WriteString(")")
		f.alias(t.Alias, t.ColAliases)
	case *SampledTable:
		f.tableExpr(t.X)
		f.sample(" TABLESAMPLE ", t.Sample)
	case *Join:
		f.WriteString("(")
		f.tableExpr(t.L)
		if t.Natural {
			f.WriteString(" NATURAL")
		}
		f.write(" ", string(t.Type), " JOIN ")
		f.tableExpr(t.R)
		if t.On != nil {
			f.write(" ON ", t.On)
		}
		if t.Using != nil {
			f.WriteString(" USING")
			f.columnList(t.Using)
		}
		f.WriteString(")")
	}
}

func (f *formatter) alias(alias string, cols []string) {
	if alias != "" {
		f.write(" AS ", quoteIdent(alias))
		f.columnList(cols)
	}
}

// columnList writes " (a, b)", or nothing for an empty list.
func (f *formatter) columnList(cols []string) {
	if len(cols) == 0 {
		return
	}
	f.WriteString(" (")
	for i, c := range cols {
		if i > 0 {
			f.WriteString(", ")
		}
		f.WriteString(quoteIdent(c))
	}
	f.WriteString(")")
}

func quoteString(s string) string {
	return "'" + strings.ReplaceAll(s, "'", "''") + "'"
}

func quoteName(parts []string) string {
	quoted := make([]string, len(parts))
	for i, p := range parts {
		quoted[i] = quoteIdent(p)
	}
	return strings.Join(quoted, ".")
}

// quoteIdent double-quotes a name unless it would read back unchanged unquoted:
// lower case, starting with a letter or _, and not reserved.
func quoteIdent(name string) string {
	plain := name != "" && !reserved[name] && !isDigit(name[0])
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_') {
			plain = false
			break
		}
	}
	if plain {
		return name
	}
	return `"` + strings.ReplaceAll(name, `"`, `""`) + `"`
}

// groupingSets writes ROLLUP (…), CUBE (…) or GROUPING SETS (…), each
// element in parentheses unless it is one column or a nested construct, so
// that no element reads back as a different list.
func (f *formatter) groupingSets(g *GroupingSets) {
	f.WriteString(g.Kind + " (")
	for i, elem := range g.Elems {
		if i > 0 {
			f.WriteString(", ")
		}
		if len(elem) == 1 && bareGroupingElem(elem[0]) {
			f.expr(elem[0])
			continue
		}
		f.WriteString("(")
		f.exprs(elem)
		f.WriteString(")")
	}
	f.WriteString(")")
}

func bareGroupingElem(e Expr) bool {
	switch e.(type) {
	case *ColumnRef, *GroupingSets:
		return true
	}
	return false
}
