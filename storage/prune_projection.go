package storage

import (
	"fmt"
	"slices"
	"strings"

	"github.com/apache/iceberg-go"
)

// projectToSpec is Iceberg's inclusive projection of a bound table predicate
// onto a partition spec: each predicate on a source column becomes predicates
// on the partition fields derived from it, through their transforms, such
// that a partition that could hold a matching row satisfies the projection.
func projectToSpec(bound iceberg.BooleanExpression, spec iceberg.PartitionSpec) iceberg.BooleanExpression {
	out, err := iceberg.VisitExpr[iceberg.BooleanExpression](bound, &projector{spec: spec})
	if err != nil {
		return iceberg.AlwaysTrue{}
	}
	return out
}

type projector struct {
	spec iceberg.PartitionSpec
}

func (projector) VisitTrue() iceberg.BooleanExpression  { return iceberg.AlwaysTrue{} }
func (projector) VisitFalse() iceberg.BooleanExpression { return iceberg.AlwaysFalse{} }

// VisitNot cannot be projected inclusively; expressions are rewritten
// without NOT before projection, so this only guards.
func (projector) VisitNot(iceberg.BooleanExpression) iceberg.BooleanExpression {
	return iceberg.AlwaysTrue{}
}

func (projector) VisitAnd(l, r iceberg.BooleanExpression) iceberg.BooleanExpression {
	return iceberg.NewAnd(l, r)
}

func (projector) VisitOr(l, r iceberg.BooleanExpression) iceberg.BooleanExpression {
	return iceberg.NewOr(l, r)
}

func (projector) VisitUnbound(iceberg.UnboundPredicate) iceberg.BooleanExpression {
	return iceberg.AlwaysTrue{}
}

func (p *projector) VisitBound(pred iceberg.BoundPredicate) iceberg.BooleanExpression {
	var out iceberg.BooleanExpression = iceberg.AlwaysTrue{}
	source := pred.Ref().Field().ID
	for _, pf := range p.spec.Fields() {
		if pf.SourceID() != source {
			continue
		}
		projected, err := pf.Transform.Project(pf.Name, pred)
		if err != nil || projected == nil {
			continue // this field cannot narrow the predicate
		}
		out = iceberg.NewAnd(out, projected)
	}
	return out
}

// describeExpr prints a bound expression for EXPLAIN, naming fields and
// values with the given functions.
func describeExpr(expr iceberg.BooleanExpression, name func(fieldID int) string, value func(fieldID int, v iceberg.Literal) string) string {
	text, err := iceberg.VisitExpr[string](expr, &describer{name: name, value: value})
	if err != nil {
		return expr.String()
	}
	return text
}

type describer struct {
	name  func(int) string
	value func(int, iceberg.Literal) string
}

func (describer) VisitTrue() string                              { return "true" }
func (describer) VisitFalse() string                             { return "false" }
func (describer) VisitNot(c string) string                       { return "NOT (" + c + ")" }
func (describer) VisitAnd(l, r string) string                    { return l + " AND " + r }
func (describer) VisitOr(l, r string) string                     { return "(" + l + " OR " + r + ")" }
func (describer) VisitUnbound(p iceberg.UnboundPredicate) string { return p.String() }

// likeEscaper writes a starts_with prefix as LIKE pattern text, so that a
// prefix holding a wildcard character prints as the pattern it matches.
var likeEscaper = strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`, `'`, `''`)

var opText = map[iceberg.Operation]string{
	iceberg.OpLT: "<", iceberg.OpLTEQ: "<=", iceberg.OpGT: ">", iceberg.OpGTEQ: ">=",
	iceberg.OpEQ: "=", iceberg.OpNEQ: "<>",
}

func (d *describer) VisitBound(p iceberg.BoundPredicate) string {
	id := p.Ref().Field().ID
	name := d.name(id)
	switch p := p.(type) {
	case iceberg.BoundLiteralPredicate:
		switch p.Op() {
		case iceberg.OpStartsWith:
			return fmt.Sprintf("%s LIKE '%s%%'", name, likeEscaper.Replace(p.Literal().String()))
		case iceberg.OpNotStartsWith:
			return fmt.Sprintf("%s NOT LIKE '%s%%'", name, likeEscaper.Replace(p.Literal().String()))
		}
		return fmt.Sprintf("%s %s %s", name, opText[p.Op()], d.value(id, p.Literal()))
	case iceberg.BoundSetPredicate:
		members := p.Literals().Members() // in no set order
		slices.SortFunc(members, func(a, b iceberg.Literal) int {
			if c, ok := compareLiterals(a, b); ok {
				return c
			}
			return strings.Compare(a.String(), b.String())
		})
		vals := make([]string, len(members))
		for i, v := range members {
			vals[i] = d.value(id, v)
		}
		op := "IN"
		if p.Op() == iceberg.OpNotIn {
			op = "NOT IN"
		}
		return fmt.Sprintf("%s %s (%s)", name, op, strings.Join(vals, ", "))
	}
	switch p.Op() {
	case iceberg.OpIsNull:
		return name + " IS NULL"
	case iceberg.OpNotNull:
		return name + " IS NOT NULL"
	case iceberg.OpIsNan:
		return "isnan(" + name + ")"
	case iceberg.OpNotNan:
		return "NOT isnan(" + name + ")"
	}
	return p.String()
}
